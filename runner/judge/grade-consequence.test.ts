import { describe, expect, it } from 'vitest';
import { readOutcomesTable, type DocumentedRecovery } from '../classify/read-outcomes-table.js';
import { CONSEQUENCES, type Consequence, type ExpectedVerdict, type Outcome } from '../vocabulary/types.js';
import { CONSEQUENCE_LEVEL, getFailureLevel, gradeConsequence, gradeExitConsequence } from './grade-consequence.js';

// The rules, stated over the recovery column of OUTCOMES.md (not over getRecovery).
const table = new Map(readOutcomesTable().map((row) => [row.outcome, row]));
const RESENDS: Record<string, string> = { if_idempotent: 'again', reissue_if_idempotent: 'again', after_fixing_arguments: 'corrected', follow_up: 'follow-up' };
const steps = (row: DocumentedRecovery): string[] => (RESENDS[row.replay] ? [RESENDS[row.replay]!] : []);

function documentedConsequence(expected: Outcome, actual: Outcome): Consequence {
  const want = table.get(expected)!;
  const got = table.get(actual)!;
  if (actual === 'TOOL_SUCCESS') return 'false-success';
  if (want.hasFinalResult) return 'false-failure';
  const isFailure = want.replay !== 'follow_up';
  if (isFailure && steps(got).some((step) => !steps(want).includes(step))) return 'unsafe-retry';
  if (steps(want).some((step) => !steps(got).includes(step))) return 'lost-recovery';
  return 'imprecise';
}

const pairs = [...table.keys()].flatMap((expected) => [...table.keys()].map((actual) => [expected, actual] as const));

describe('gradeConsequence: every pair of the ten outcomes, graded from the recovery in OUTCOMES.md', () => {
  it('covers 10 × 10 pairs', () => expect(pairs).toHaveLength(100));

  it.each(pairs)('expected %s, concluded %s', (expected, actual) => {
    const graded = gradeConsequence({ outcome: expected }, { outcome: actual });
    expect(graded).toBe(expected === actual ? undefined : documentedConsequence(expected, actual));
  });

  it('spreads the 90 mismatches over the consequences as the table implies', () => {
    const counts: Record<string, number> = {};
    for (const [expected, actual] of pairs) {
      const graded = gradeConsequence({ outcome: expected }, { outcome: actual });
      if (graded) counts[graded] = (counts[graded] ?? 0) + 1;
    }
    // false-success: the 9 other outcomes read as TOOL_SUCCESS. false-failure: TOOL_SUCCESS read as
    // any of the 9 others, TOOL_ERROR as any of 8. Of the 8 outcomes without a final result: the 4
    // that forbid a resend (JSONRPC_ERROR, MALFORMED_JSON, INVALID_*) read as one of the 3 that send
    // again or as INPUT_REQUIRED: 16 unsafe retries, and 3 more for INPUT_REQUIRED in place of the 3
    // that send again; those 3 read as one of the 5 that do not: 15 lost recoveries, and 8 more for
    // INPUT_REQUIRED read as anything else. The other 22 differ without changing the recovery.
    expect(counts).toEqual({ 'false-success': 9, 'false-failure': 17, 'unsafe-retry': 19, 'lost-recovery': 23, imprecise: 22 });
  });

  it.each<[string, ExpectedVerdict, Outcome, Consequence]>([
    ['an HTTP 503 read as a tool result', { outcome: 'HTTP_ERROR', status: 503 }, 'TOOL_SUCCESS', 'false-success'],
    ["a tool's failure hidden as success", { outcome: 'TOOL_ERROR' }, 'TOOL_SUCCESS', 'false-success'],
    ['a success discarded as a broken stream', { outcome: 'TOOL_SUCCESS' }, 'STREAM_INCOMPLETE', 'false-failure'],
    ['a success read as a tool error', { outcome: 'TOOL_SUCCESS' }, 'TOOL_ERROR', 'false-failure'],
    ['a wrong id waited out: the lost request may be re-issued', { outcome: 'INVALID_ENVELOPE' }, 'STREAM_INCOMPLETE', 'unsafe-retry'],
    ['a broken envelope read as input required: the follow-up re-sends the call', { outcome: 'INVALID_ENVELOPE' }, 'INPUT_REQUIRED', 'unsafe-retry'],
    ['INPUT_REQUIRED read as an invalid result', { outcome: 'INPUT_REQUIRED' }, 'INVALID_TOOL_RESULT', 'lost-recovery'],
    ['INPUT_REQUIRED read as an HTTP error', { outcome: 'INPUT_REQUIRED' }, 'HTTP_ERROR', 'lost-recovery'],
    ['an HTTP error read as a broken envelope', { outcome: 'HTTP_ERROR' }, 'INVALID_ENVELOPE', 'lost-recovery'],
    ['an HTTP error read as no response: the same recovery', { outcome: 'HTTP_ERROR' }, 'NO_RESPONSE', 'imprecise'],
    ['two failures that both forbid a replay', { outcome: 'INVALID_TOOL_RESULT' }, 'INVALID_ENVELOPE', 'imprecise'],
  ])('%s → %s', (_title, expected, actual, consequence) => {
    expect(gradeConsequence(expected, { outcome: actual })).toBe(consequence);
  });
});

describe('gradeConsequence: status and code', () => {
  it.each<[string, ExpectedVerdict, { outcome: Outcome; status?: number; code?: number }, Consequence | undefined]>([
    ['the named status', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', status: 503 }, undefined],
    ['another status, same outcome', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', status: 500 }, 'imprecise'],
    ['no status, same outcome', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR' }, 'imprecise'],
    ['a status the case does not name', { outcome: 'HTTP_ERROR' }, { outcome: 'HTTP_ERROR', status: 500 }, undefined],
    ['the named code', { outcome: 'JSONRPC_ERROR', code: -32603 }, { outcome: 'JSONRPC_ERROR', code: -32603 }, undefined],
    ['a code the case does not name', { outcome: 'JSONRPC_ERROR' }, { outcome: 'JSONRPC_ERROR', code: -32603 }, undefined],
    ['a success with another status than the one named: imprecise, never a false success', { outcome: 'TOOL_SUCCESS', status: 200 }, { outcome: 'TOOL_SUCCESS', status: 201 }, 'imprecise'],
    ['a tool error with another status than the one named: imprecise, never a false failure', { outcome: 'TOOL_ERROR', status: 200 }, { outcome: 'TOOL_ERROR', status: 201 }, 'imprecise'],
    ['another code, same recovery', { outcome: 'JSONRPC_ERROR', code: -32603 }, { outcome: 'JSONRPC_ERROR', code: -32601 }, 'imprecise'],
    ['invalid params read as another code: the corrected call is lost', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', code: -32603 }, 'lost-recovery'],
    ['another code read as invalid params: a corrected call is sent', { outcome: 'JSONRPC_ERROR', code: -32603 }, { outcome: 'JSONRPC_ERROR', code: -32602 }, 'unsafe-retry'],
  ])('%s', (_title, expected, actual, consequence) => {
    expect(gradeConsequence(expected, actual)).toBe(consequence);
  });

  it('grades no conclusion at all as no-conclusion, whatever was expected', () => {
    for (const outcome of table.keys()) expect(gradeConsequence({ outcome }, null)).toBe('no-conclusion');
  });
});

describe('gradeExitConsequence: a client without a verdict, by its exit status', () => {
  it.each(pairs.filter(([, actual]) => actual === 'TOOL_SUCCESS').map(([expected]) => expected))('expected %s', (expected) => {
    const final = table.get(expected)!.hasFinalResult;
    expect(gradeExitConsequence({ outcome: expected }, true)).toBe(final ? undefined : 'false-success');
    expect(gradeExitConsequence({ outcome: expected }, false)).toBe(final ? 'false-failure' : undefined);
  });
});

describe('levels', () => {
  it('fails a MUST for the first four consequences and a SHOULD for the last two', () => {
    expect(CONSEQUENCES.map((consequence) => CONSEQUENCE_LEVEL[consequence])).toEqual(['MUST', 'MUST', 'MUST', 'MUST', 'SHOULD', 'SHOULD']);
  });

  it('never grades stronger than the cap a case or an alternative sets', () => {
    expect(getFailureLevel('false-success')).toBe('MUST');
    expect(getFailureLevel('false-success', 'SHOULD')).toBe('SHOULD');
    expect(getFailureLevel('imprecise', 'MUST')).toBe('SHOULD');
    expect(getFailureLevel('imprecise', 'POLICY')).toBe('POLICY');
    expect(getFailureLevel('unsafe-retry', 'INFO')).toBe('INFO');
  });
});
