import { describe, expect, test } from 'vitest';
import { loadCasesSync } from '../runner/cases/load-cases.js';
import { classifyNaive } from '../runner/classify/naive.js';
import { classifyReference } from '../runner/classify/reference.js';
import { runClassifierMatrix } from '../runner/index.js';
import type { Classifier } from '../runner/vocabulary/types.js';
import { describeMatrix, expectCellToPass } from '../runner/vitest.js';

// The helper as a classifier author would use it: one vitest test per case and version.
describeMatrix('reference classifier through mcp-error-matrix/vitest', classifyReference);

// A known failure listed as expected runs as test.fails (and would fail if it started passing).
describeMatrix('naive classifier with its known failure listed', classifyNaive, {
  cases: ['tool-is-error'],
  expectedFailures: ['tool-is-error'],
});

const loadCase = (id: string) => loadCasesSync().find((item) => item.case.id === id)!;

test('a wrong classifier gets an error naming the case, the failed check and the repro command', async () => {
  await expect(expectCellToPass(classifyNaive, loadCase('tool-is-error'), '2025-11-25', { target: 'classifier:./dist/runner/classify/naive.js#classifyNaive' })).rejects.toThrow(
    /tool-is-error \[2025-11-25\] fail: .*\n {2}\[MUST\] outcome@1: expected TOOL_ERROR, got TOOL_SUCCESS\n {2}repro: npx --no mcp-error-matrix run --target 'classifier:\.\/dist\/runner\/classify\/naive\.js#classifyNaive' --case tool-is-error --version 2025-11-25 --mode direct$/,
  );
});

test('without the target option the message says how to get a runnable repro (never `--target classifier`)', async () => {
  const failure = expectCellToPass(classifyNaive, loadCase('tool-is-error'), '2025-11-25');
  await expect(failure).rejects.toThrow(/repro: set the `target` option \(e\.g\. target: "classifier:/);
  await expect(failure).rejects.not.toThrow(/--target classifier /);
});

describe('expectedFailures entries must name cells of the table', () => {
  test.each([
    ['a misspelt id', ['tool-is-eror'], /expectedFailures entry "tool-is-eror" names no case \(did you mean "tool-is-error"\?\)/],
    ['a misspelt id with a version', ['tool-is-eror@2026-07-28'], /names no case \(did you mean "tool-is-error@2026-07-28"\?\)/],
    ['a version that does not exist', ['tool-is-error@2026-01-01'], /"tool-is-error@2026-01-01": no such version \(expected 2025-03-26 or 2025-06-18 or 2025-11-25 or 2026-07-28\)/],
    ['a version the case does not apply to', ['mrtr-form-with-state@2025-11-25'], /no such version \(mrtr-form-with-state applies only to 2026-07-28\)/],
  ])('%s is an error with a did-you-mean, before any test is declared', (_name, expectedFailures, message) => {
    expect(() => describeMatrix('never declared', classifyReference, { expectedFailures })).toThrow(message);
  });

  test('the target option must be a classifier spec', () => {
    expect(() => describeMatrix('never declared', classifyReference, { target: 'reference' })).toThrow(/target "reference" must be a classifier spec, classifier:<module>\[#export\]/);
  });
});

// The right outcome with the wrong layer: only the SHOULD check layer@1 fails, so the cell is non_strict.
const wrongLayer: Classifier = (input) => {
  const verdict = classifyReference(input) as { layer?: string };
  return { ...verdict, layer: verdict.layer === 'transport' ? 'application' : 'transport' } as ReturnType<Classifier>;
};

describe('strict: what a non_strict cell does', () => {
  test('by default a non_strict cell fails, naming the SHOULD check and how to accept it', async () => {
    await expect(expectCellToPass(wrongLayer, loadCase('tool-is-error'), '2025-11-25')).rejects.toThrow(
      /tool-is-error \[2025-11-25\] non_strict: .*\n {2}\[SHOULD\] layer@1: .*\n {2}\(non_strict: only SHOULD\/POLICY checks failed; list the cell in expectedFailures or pass strict: false to accept it\)/,
    );
  });

  test('strict: false lets it pass and returns the cell', async () => {
    const cell = await expectCellToPass(wrongLayer, loadCase('tool-is-error'), '2025-11-25', { strict: false });
    expect(cell.status).toBe('non_strict');
  });
});

// As a suite would use it: the non_strict cell listed as expected runs as test.fails and passes;
// with strict: false the same classifier passes every test of the case.
describeMatrix('a classifier with the wrong layers, its non_strict cell listed', wrongLayer, {
  cases: ['tool-is-error'],
  versions: ['2025-11-25'],
  expectedFailures: ['tool-is-error@2025-11-25'],
});
describeMatrix('a classifier with the wrong layers, strict: false', wrongLayer, { cases: ['tool-is-error'], strict: false });

test('the programmatic API returns the judged result model', async () => {
  const result = await runClassifierMatrix(classifyNaive, { name: 'mine', cases: ['baseline', 'tool-is-error'], versions: ['2026-07-28'] });
  expect(result.cells.map((cell) => [cell.case, cell.target, cell.status])).toEqual([
    ['baseline', 'mine', 'pass'],
    ['tool-is-error', 'mine', 'fail'],
  ]);
  expect(result.summary).toMatchObject({ total: 2, pass: 1, fail: 1 });
});
