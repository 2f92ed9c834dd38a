import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../vocabulary/types.js';
import { readOutcomesTable } from './read-outcomes-table.js';
import { getRecovery } from './verdict.js';

describe('OUTCOMES.md and getRecovery agree on every outcome', () => {
  const table = readOutcomesTable();

  it('documents each of the ten outcomes once, in vocabulary order', () => {
    expect(table.map((row) => row.outcome)).toEqual([...OUTCOMES]);
  });

  it.each(table.map((row) => [row.outcome, row] as const))('%s', (outcome, row) => {
    expect(getRecovery(outcome)).toEqual({ hasFinalResult: row.hasFinalResult, replay: row.replay });
    for (const [code, replay] of Object.entries(row.replayByCode)) {
      expect(getRecovery(outcome, Number(code))).toEqual({ hasFinalResult: row.hasFinalResult, replay });
    }
    // A code the table does not single out gets the default advice.
    expect(getRecovery(outcome, -32000)).toEqual({ hasFinalResult: row.hasFinalResult, replay: row.replay });
  });

  it('refuses a recovery cell it cannot read, naming the outcome', () => {
    expect(() => readOutcomesTable('| `HTTP_ERROR` | transport | x | `maybe`, `no` | y |')).toThrow(/HTTP_ERROR.*`true` or `false`/);
    expect(() => readOutcomesTable('| `HTTP_ERROR` | transport | x | `false`, `sometimes` | y |')).toThrow(/HTTP_ERROR: "sometimes" is not a replay advice/);
  });
});
