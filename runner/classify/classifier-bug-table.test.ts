// Every verdict the reference gives over the bundled table, INVALID_ENVELOPE ones included, is
// a reading of the exchange, never a crash turned into a verdict (see classifier-bug.test.ts).
// Runs the whole table, so StrykerJS leaves it out (vitest.mutate.config.ts).
import { afterEach, describe, expect, test, vi } from 'vitest';
import { runClassifierMatrix } from '../run/run-classifier-matrix.js';
import type { ClassifierInput, Verdict } from '../vocabulary/types.js';
import { CLASSIFIER_BUG_PREFIX, classifyReference, RETHROW_CLASSIFIER_BUGS_ENV } from './reference.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the reference over the bundled table', () => {
  test('no verdict over the whole bundled table is a classifier bug, INVALID_ENVELOPE ones included', async () => {
    vi.stubEnv(RETHROW_CLASSIFIER_BUGS_ENV, '');
    const verdicts: Verdict[] = [];
    const recordVerdict = (input: ClassifierInput): Verdict => {
      const verdict = classifyReference(input);
      verdicts.push(verdict);
      return verdict;
    };
    const result = await runClassifierMatrix(recordVerdict, { name: 'reference' });
    expect(result.cells.every((cell) => cell.status === 'pass')).toBe(true);
    const invalid = verdicts.filter((verdict) => verdict.outcome === 'INVALID_ENVELOPE');
    expect(invalid.length).toBeGreaterThan(10);
    expect(verdicts.filter((verdict) => verdict.detail?.startsWith(CLASSIFIER_BUG_PREFIX))).toEqual([]);
    expect(invalid.every((verdict) => typeof verdict.detail === 'string' && verdict.detail.length > 0)).toBe(true);
  });
});
