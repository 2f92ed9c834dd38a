import { describe, expect, it } from 'vitest';
import { CONSEQUENCES, type Cell, type Consequence } from '../../runner/vocabulary/types.js';
import { makeCell, makeCheck, makeRunResult } from '../../test/make-run-result.js';
import { countFailures, formatFailureLine, getCellConsequence, getFailureKind, getFailureKindTitle, nameFailureKind } from './count-failures.js';
import { describeFailedCheck, describeMismatch, findMismatch } from './describe-mismatch.js';

const graded = (consequence: Consequence, id = 'outcome@1', actual: unknown = 'TOOL_SUCCESS') =>
  makeCheck({ id, passed: false, consequence, expected: 'STREAM_INCOMPLETE', actual, message: `${id}: expected STREAM_INCOMPLETE, got ${String(actual)}` });

describe('counting failures per target', () => {
  it('counts a cell once, by the worst consequence among its failed checks', () => {
    for (const [i, worst] of CONSEQUENCES.entries()) {
      const checks = [...CONSEQUENCES.slice(i).reverse().map((c) => graded(c)), makeCheck({ passed: true, consequence: CONSEQUENCES[0] })];
      expect(getCellConsequence({ checks })).toBe(worst);
    }
    expect(getCellConsequence({ checks: [makeCheck()] })).toBeUndefined();
  });

  it('names a failure without a graded check by why: not measured, stale entry, or other', () => {
    expect(getFailureKind(makeCell({ status: 'error' }))).toBe('not-measured');
    expect(getFailureKind(makeCell({ status: 'xpass' }))).toBe('stale-entry');
    expect(getFailureKind(makeCell({ status: 'fail', checks: [makeCheck({ id: 'wire.no-resend', passed: false })] }))).toBe('other');
    expect(getFailureKind(makeCell({ status: 'xfail', checks: [graded('unsafe-retry')] }))).toBe('unsafe-retry');
  });

  it('keeps unexpected (fail, error, xpass) and known (xfail) apart; pass, non_strict and skip count as neither', () => {
    const cells: Cell[] = [
      ...(['pass', 'non_strict', 'skip'] as const).map((status, i) => makeCell({ case: `n${i}`, target: 't', status })),
      makeCell({ case: 'a', target: 't', status: 'fail', checks: [graded('false-success')] }),
      makeCell({ case: 'b', target: 't', status: 'error' }),
      makeCell({ case: 'c', target: 't', status: 'xfail', checks: [graded('unsafe-retry')] }),
      makeCell({ case: 'd', target: 't', status: 'xfail', checks: [graded('unsafe-retry')] }),
      makeCell({ case: 'e', target: 't', status: 'xfail', checks: [graded('false-success')] }),
      // A stale baseline entry fails the run: unexpected, never known (issue 29's planted bug).
      makeCell({ case: 'f', target: 't', status: 'xpass' }),
    ];
    const [failures] = countFailures(makeRunResult({ targets: [{ name: 't', kind: 'builtin' }], cells }));
    expect(failures).toMatchObject({ target: 't', all: 6, unexpected: { total: 3 }, known: { total: 3 } });
    expect(formatFailureLine(failures!)).toBe('3 unexpected: 1 false success, 1 error (not measured), 1 stale baseline entry · 3 known: 1 false success, 2 unsafe retries');
  });

  it('keeps the worst consequence whichever order the failed checks come in', () => {
    for (const [i, worst] of CONSEQUENCES.entries()) {
      const checks = CONSEQUENCES.slice(i).map((c) => graded(c));
      expect(getCellConsequence({ checks })).toBe(worst);
    }
  });

  it('ignores a consequence the vocabulary does not know (a hand-edited results.json), keeping the known worst', () => {
    expect(getCellConsequence({ checks: [graded('no-such-consequence' as Consequence), graded('imprecise')] })).toBe('imprecise');
  });

  it('counts a target seen only in cells, after the targets the result names', () => {
    const cells: Cell[] = [makeCell({ case: 'a', target: 'late', status: 'fail', checks: [graded('unsafe-retry')] }), makeCell({ case: 'b', target: 't', status: 'pass' })];
    const counted = countFailures(makeRunResult({ targets: [{ name: 't', kind: 'builtin' }], cells }));
    expect(counted.map((entry) => [entry.target, entry.all])).toEqual([
      ['t', 0],
      ['late', 1],
    ]);
  });

  it('names one failure of a kind in its own words, and titles a group of them with a capital', () => {
    expect(nameFailureKind('false-success')).toBe('false success');
    expect(getFailureKindTitle('false-success')).toBe('False successes');
    expect(getFailureKindTitle('unsafe-retry')).toBe('Unsafe retries');
  });
});

describe('expected → actual', () => {
  it('labels a cell with the outcome the target concluded, from the worst graded check', () => {
    const mismatch = findMismatch({ checks: [graded('imprecise', 'outcome@1', 'JSONRPC_ERROR'), graded('false-success', 'outcome@2')] });
    expect(mismatch).toMatchObject({ expected: 'STREAM_INCOMPLETE', actual: 'TOOL_SUCCESS', consequence: 'false-success' });
    expect(describeMismatch(mismatch!)).toMatch(/^expected STREAM_INCOMPLETE, the target concluded TOOL_SUCCESS: a false success: /);
  });

  it('reads ungraded outcome checks too (outcome@n, client.outcome@i), with nothing reported and verdict objects', () => {
    const ungraded = (id: string, actual: unknown) => makeCheck({ id, passed: false, expected: { outcome: 'TOOL_ERROR' }, actual, message: `${id}: …` });
    expect(findMismatch({ checks: [ungraded('client.outcome@2', null)] })?.actual).toBe('NOTHING');
    expect(findMismatch({ checks: [ungraded('outcome@1', { outcome: 'NO_RESPONSE', layer: 'transport' })] })).toMatchObject({ expected: 'TOOL_ERROR', actual: 'NO_RESPONSE' });
    expect(findMismatch({ checks: [ungraded('outcome@1', { not: 'a verdict' })] })?.actual).toBe('NOT A VERDICT');
    // A check that is not about the outcome does not label the cell; a passed or INFO one never does.
    expect(findMismatch({ checks: [ungraded('wire.no-resend', 2), { ...ungraded('outcome@1', 'TOOL_SUCCESS'), level: 'INFO' }] })).toBeUndefined();
  });

  it('says "concluded nothing" once, whatever word the judge used for it (not reported, nothing concluded)', () => {
    // client.outcome's actual is the text "nothing concluded" (runner/judge/client/judge-reported.ts).
    const nothing = makeCheck({ id: 'client.outcome', passed: false, consequence: 'no-conclusion', expected: 'HTTP_ERROR', actual: 'nothing concluded', message: 'client.outcome: nothing concluded: …; expected HTTP_ERROR' });
    for (const check of [nothing, { ...nothing, actual: null }, { ...nothing, actual: 'not reported' }]) {
      const mismatch = findMismatch({ checks: [check] })!;
      expect(mismatch.actual).toBe('NOTHING');
      expect(describeMismatch(mismatch)).toBe('expected HTTP_ERROR, the target concluded nothing: no conclusion (a crash, no verdict, or its own timeout)');
    }
    // Another consequence of concluding nothing keeps its own words.
    expect(describeMismatch(findMismatch({ checks: [{ ...nothing, consequence: 'false-success' }] })!)).toMatch(/^expected HTTP_ERROR, the target concluded nothing: a false success: /);
  });

  it('writes a failed check once: its level and the judge\'s message, which already names it', () => {
    expect(describeFailedCheck(graded('false-success'))).toBe('MUST outcome@1: expected STREAM_INCOMPLETE, got TOOL_SUCCESS');
  });
});
