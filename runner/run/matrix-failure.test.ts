// An internal error in one lane of the matrix stops the others like an abort: the hanging
// client is killed at once, and the result so far travels with the error, marked incomplete.
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { loadCases } from '../cases/load-cases.js';
import { classifyReference } from '../classify/reference.js';
import { createClassifierTarget } from '../targets/classifier-target.js';
import { createCommandTarget } from '../targets/command-target.js';
import { MatrixFailure } from './matrix-failure.js';
import { runMatrix } from './run-matrix.js';

const HANGS = resolve(import.meta.dirname, '../../test/fixtures/hostile/hangs.mjs');

test('a throwing progress callback stops the run: clients killed, MatrixFailure with the incomplete result', { timeout: 30_000 }, async () => {
  const cases = (await loadCases()).filter((loaded) => ['baseline', 'tool-is-error'].includes(loaded.case.id));
  const reference = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
  const hangs = createCommandTarget({ name: 'hangs', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(HANGS)}`, timeoutMs: 60_000 });
  const started = performance.now();
  const failure = await runMatrix({
    cases,
    targets: [reference, hangs],
    versions: ['2026-07-28'],
    concurrency: 3,
    onCell: (_cell, done) => {
      if (done === 2) throw new Error('progress bug');
    },
  }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(MatrixFailure);
  const { cause, partial } = failure as MatrixFailure;
  expect((cause as Error).message).toBe('progress bug');
  expect(partial.complete).toBe(false);
  expect(partial.cells.filter((cell) => cell.target === 'reference').map((cell) => cell.status)).toEqual(['pass', 'pass']);
  // The client hangs for a minute; the run did not wait for it.
  expect(performance.now() - started).toBeLessThan(20_000);
});
