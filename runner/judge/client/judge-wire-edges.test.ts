// The client judge's rules at their edges (survivors of the judge mutation run): a POST that got
// no answer at all, delay-seconds as the RFC writes them, follow-ups in any key order, and what
// each check says it expected.
import { describe, expect, it } from 'vitest';
import type { WireRule } from '../../cases/case-types.js';
import { makeCase, SUCCESS_JSON } from '../../mock-server/test-cases.js';
import type { Check } from '../../vocabulary/types.js';
import { judgeExitStatus } from './judge-exit-status.js';
import { judgeWireRules } from './judge-wire-rules.js';
import { readWireCalls, type WireCall } from './read-wire-calls.js';
import { makeClientRecording, makeToolCallPost, type PostOptions } from './test-recordings.js';

const V26 = '2026-07-28';
/** The calls of these POSTs; the ones listed in `unanswered` got no response at all. */
const callsOf = (posts: PostOptions[], unanswered: number[] = []): WireCall[] => {
  const recording = makeClientRecording(...posts.map((post, i) => makeToolCallPost({ id: i + 1, ...post })));
  for (const index of unanswered) recording.exchanges[index]!.response = undefined;
  return readWireCalls(recording, V26);
};
const judgeRule = (rule: WireRule, calls: WireCall[]): Check =>
  judgeWireRules(makeCase([], { tool: { name: 'synthetic_tool', annotations: { readOnlyHint: true } }, client: { wire: [rule] } }), V26, calls).find((check) => check.id === `wire.${rule.rule}`)!;
const failedAt = (at: number, headers: Record<string, string> = {}): PostOptions => ({ status: 503, body: '', at, endedAt: at + 10, responseHeaders: headers });
const succeededAt = (at: number): PostOptions => ({ at, endedAt: at + 1 });

describe('a POST that got no answer at all is waited from the request', () => {
  it('retry-after finds no delay to respect, and passes', () => {
    expect(judgeRule({ rule: 'retry-after', level: 'POLICY' }, callsOf([{ at: 0 }, succeededAt(5)], [0]))).toMatchObject({ passed: true, actual: 'waited', expected: 'retries wait for Retry-After' });
  });

  it('retry-backoff measures the retry from the unanswered request', () => {
    const rule: WireRule = { rule: 'retry-backoff', level: 'POLICY', min: 100 };
    expect(judgeRule(rule, callsOf([{ at: 0 }, succeededAt(150)], [0]))).toMatchObject({ passed: true, actual: ['150 ms'] });
    expect(judgeRule(rule, callsOf([{ at: 0 }, succeededAt(50)], [0]))).toMatchObject({ passed: false, actual: ['50 ms'], exchange: 2 });
  });
});

describe('Retry-After delay-seconds: digits, optionally surrounded by white space (RFC 9110 § 10.2.3)', () => {
  it.each<[string, number, boolean]>([
    ['10', 2000, false],
    ['10', 10_000, true],
    ['1 ', 500, false],
    [' 1', 500, false],
    [' 1 ', 1000, true],
    // Neither delay-seconds (digits only) nor a date: no delay asked, so any retry passes.
    ['1.5', 0, true],
    ['+5', 0, true],
  ])('Retry-After %j, retried %i ms after the answer: passed=%s', (value, wait, passed) => {
    const check = judgeRule({ rule: 'retry-after', level: 'POLICY' }, callsOf([failedAt(0, { 'retry-after': value }), succeededAt(10 + wait)]));
    expect(check).toMatchObject({ passed });
  });
});

describe('what the wire rules say they expected', () => {
  it('tool-call-posts: no max when the case sets none, and no reason when the case gives none', () => {
    const rule: WireRule = { rule: 'tool-call-posts', level: 'MUST', min: 2 };
    const check = judgeRule(rule, callsOf([succeededAt(0)]));
    expect(check.expected).toStrictEqual({ min: 2 });
    expect(check.message).toBe('wire.tool-call-posts: at least 2 tools/call POST(s) expected, 1 sent');
  });

  it('reissue-new-id expects a new id, passed or failed', () => {
    const rule: WireRule = { rule: 'reissue-new-id', level: 'MUST' };
    expect(judgeRule(rule, callsOf([succeededAt(0)])).expected).toBe('a new id');
    expect(judgeRule(rule, callsOf([{ ...failedAt(0), id: 4 }, { ...succeededAt(100), id: 4 }])).expected).toBe('a new id');
  });

  it('no-auto-replay points at the first replay, not at a follow-up sent before it', () => {
    const calls = callsOf([{}, { params: { requestState: 's' } }, {}]);
    const check = judgeWireRules(makeCase([], { tool: { name: 'synthetic_tool' } }), V26, calls).find((found) => found.id === 'wire.no-auto-replay');
    expect(check).toMatchObject({ passed: false, actual: 1, exchange: 3 });
  });
});

describe('wire.mrtr-follow-up: what it expected, and keys in any order', () => {
  const rule: WireRule = { rule: 'mrtr-follow-up', level: 'MUST' };
  const asked = (result: Record<string, unknown>): PostOptions => ({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', ...result } }) });
  const elicit = { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } };

  it('states what it expected when there was nothing to follow up, and when nothing followed', () => {
    expect(judgeRule(rule, callsOf([succeededAt(0)])).expected).toBe('a follow-up after input_required');
    expect(judgeRule(rule, callsOf([asked({ requestState: 's' })]))).toMatchObject({ passed: false, expected: 'a follow-up', actual: 'none sent', exchange: 1 });
  });

  it('accepts inputResponses in another order than inputRequests', () => {
    const calls = callsOf([asked({ inputRequests: { b: elicit, a: elicit } }), { id: 2, params: { inputResponses: { a: {}, b: {} } } }]);
    expect(judgeRule(rule, calls)).toMatchObject({ passed: true });
    const reversed = callsOf([asked({ inputRequests: { a: elicit, b: elicit } }), { id: 2, params: { inputResponses: { b: {}, a: {} } } }]);
    expect(judgeRule(rule, reversed)).toMatchObject({ passed: true });
  });

  it('a server that sent only requestState expects no inputResponses, and says so', () => {
    expect(judgeRule(rule, callsOf([asked({ requestState: 's' }), { id: 2, params: { requestState: 's' } }]))).toMatchObject({ passed: true });
    const wrong = judgeRule(rule, callsOf([asked({ requestState: 's' }), { id: 2, params: { requestState: 't' } }]));
    expect(wrong).toMatchObject({ passed: false, expected: 'a new id, inputResponses for [], requestState "s"' });
    const noState = judgeRule(rule, callsOf([asked({ inputRequests: { a: elicit } }), { id: 1, params: { inputResponses: { a: {} } } }]));
    expect(noState).toMatchObject({ passed: false, expected: 'a new id, inputResponses for ["a"], no requestState' });
  });

  it('quotes a requestState whose JSON is exactly 60 characters whole (a longer one is clipped)', () => {
    const state = 'x'.repeat(58);
    const check = judgeRule(rule, callsOf([asked({ requestState: state }), { id: 2, params: { requestState: 'y' } }]));
    expect(check.message).toBe(`wire.mrtr-follow-up: POST 2: requestState "y" is not the "${state}" the server sent`);
  });
});

describe('client.exit: a verdict reported for the last call counts even beside invalid ones for earlier calls', () => {
  it('concludes from the verdict when the invalid verdicts include the last call', () => {
    const item = makeCase([{ body: { json: SUCCESS_JSON } }], { client: { calls: 2 } });
    const outcome = { verdicts: [null, null], invalidVerdicts: [{ index: 0, value: 'x', problem: 'p' }, { index: 1, value: 'y', problem: 'p' }], run: { exitCode: 3, signal: null, timedOut: false, durationMs: 1 } };
    expect(judgeExitStatus(item, [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'TOOL_SUCCESS' }], outcome, 2)).toEqual({ conclusion: 'verdict', checks: [] });
  });
});
