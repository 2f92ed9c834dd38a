import { describe, expect, it } from 'vitest';
import { makeCell } from '../../test/make-run-result.js';
import type { Cell, CellStatus, Consequence } from '../types.js';
import { countConsequences, getWorstConsequence } from './count-consequences.js';
import { makeCheck } from './make-check.js';

const failed = (consequence: Consequence | undefined, id = 'outcome@1') => makeCheck({ id, level: 'MUST', expected: 'x', actual: 'y', consequence });
const cell = (target: string, status: CellStatus, ...consequences: (Consequence | undefined)[]): Cell =>
  makeCell({ target, status, checks: consequences.map((consequence, index) => failed(consequence, `outcome@${index + 1}`)) });

describe('getWorstConsequence', () => {
  it('takes the worst of the failed checks, ignoring passed ones and checks without a consequence', () => {
    expect(getWorstConsequence({ checks: [failed('imprecise'), failed(undefined), failed('unsafe-retry')] })).toBe('unsafe-retry');
    expect(getWorstConsequence({ checks: [failed(undefined)] })).toBeUndefined();
    expect(getWorstConsequence({ checks: [{ ...failed('false-success'), passed: true }] })).toBeUndefined();
  });
});

describe('countConsequences', () => {
  it('counts each failing cell once per target under its worst consequence', () => {
    const counts = countConsequences([
      cell('a', 'xfail', 'false-success', 'imprecise'),
      cell('a', 'fail', 'unsafe-retry'),
      cell('a', 'non_strict', 'imprecise'),
      cell('a', 'pass'),
      cell('b', 'xfail', 'no-conclusion'),
      cell('b', 'xfail', undefined),
      // A failing cell whose checks carry no consequence counts nowhere: its target gets no entry.
      cell('c', 'fail', undefined),
    ]);
    expect([...counts.keys()]).toEqual(['a', 'b']);
    expect(counts.get('a')).toEqual({ 'false-success': 1, 'false-failure': 0, 'unsafe-retry': 1, 'no-conclusion': 0, 'lost-recovery': 0, imprecise: 1 });
    expect(counts.get('b')!['no-conclusion']).toBe(1);
  });

  it('narrows to the statuses asked for', () => {
    const counts = countConsequences([cell('a', 'xfail', 'false-success'), cell('a', 'fail', 'false-success')], new Set(['xfail']));
    expect(counts.get('a')!['false-success']).toBe(1);
  });
});
