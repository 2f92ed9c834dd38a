// The timing and follow-up rules of the client judge, on recordings built by hand: the times are
// the recording's own (`at`, `endedAt`), so these tests never depend on the machine's speed.
import { describe, expect, it } from 'vitest';
import type { WireRule } from '../../cases/case-types.js';
import { makeCase } from '../../mock-server/test-cases.js';
import type { Check } from '../../vocabulary/types.js';
import { judgeWireRules } from './judge-wire-rules.js';
import { readWireCalls, type WireCall } from './read-wire-calls.js';
import { makeClientRecording, makeToolCallPost, type PostOptions } from './test-recordings.js';

const V26 = '2026-07-28';
const callsOf = (...posts: PostOptions[]): WireCall[] => readWireCalls(makeClientRecording(...posts.map((post, i) => makeToolCallPost({ id: i + 1, ...post }))), V26);
const judgeRule = (rule: WireRule, calls: WireCall[], explicit = 1): Check => {
  const checks = judgeWireRules(makeCase([], { tool: { name: 'synthetic_tool', annotations: { readOnlyHint: true } }, client: { calls: explicit, wire: [rule] } }), V26, calls);
  return checks.find((check) => check.id === `wire.${rule.rule}`)!;
};
const failedAt = (at: number, endedAt: number, headers: Record<string, string> = {}): PostOptions => ({ status: 503, body: '', at, endedAt, responseHeaders: headers });
const succeededAt = (at: number): PostOptions => ({ at, endedAt: at + 1 });

describe('wire.retry-after (RFC 9110 § 10.2.3)', () => {
  const rule: WireRule = { rule: 'retry-after', level: 'POLICY' };
  it.each<[string, PostOptions[], boolean, string]>([
    ['a retry after the delay', [failedAt(0, 10, { 'retry-after': '1' }), succeededAt(1010)], true, 'waited'],
    ['a retry within the 20 ms allowance', [failedAt(0, 10, { 'retry-after': '1' }), succeededAt(990)], true, 'waited'],
    ['a retry too soon', [failedAt(0, 10, { 'retry-after': '1' }), succeededAt(989)], false, '979 ms'],
    ['no retry at all', [failedAt(0, 10, { 'retry-after': '1' })], true, 'no retry'],
    ['a retry after an answer without Retry-After', [failedAt(0, 10), succeededAt(11)], true, 'waited'],
    ['an HTTP-date measured against Date', [failedAt(0, 10, { 'retry-after': 'Tue, 01 Dec 2026 10:00:02 GMT', date: 'Tue, 01 Dec 2026 10:00:00 GMT' }), succeededAt(1500)], false, '1490 ms'],
    ['an HTTP-date respected', [failedAt(0, 10, { 'retry-after': 'Tue, 01 Dec 2026 10:00:02 GMT', date: 'Tue, 01 Dec 2026 10:00:00 GMT' }), succeededAt(2010)], true, 'waited'],
    ['an HTTP-date without Date is not judged', [failedAt(0, 10, { 'retry-after': 'Tue, 01 Dec 2026 10:00:02 GMT' }), succeededAt(11)], true, 'waited'],
    ['a date in the past asks for no wait', [failedAt(0, 10, { 'retry-after': 'Tue, 01 Dec 2026 09:00:00 GMT', date: 'Tue, 01 Dec 2026 10:00:00 GMT' }), succeededAt(11)], true, 'waited'],
  ])('%s', (_title, posts, passed, actual) => {
    const check = judgeRule(rule, callsOf(...posts));
    expect(check).toMatchObject({ level: 'POLICY', passed, actual });
    if (!passed) {
      expect(check.exchange).toBe(2);
      expect(check.message).toMatch(/^wire\.retry-after: POST 2 came \d+ ms after a Retry-After of \d+ ms$/);
    }
  });

  it('measures from the end of the answer, or from the request when the answer never ended', () => {
    const unended = callsOf(failedAt(0, 10, { 'retry-after': '1' }), succeededAt(1000));
    delete unended[0]!.exchange.response!.endedAt;
    expect(judgeRule(rule, unended)).toMatchObject({ passed: true });
    expect(judgeRule(rule, callsOf(failedAt(0, 500, { 'retry-after': '1' }), succeededAt(1000)))).toMatchObject({ passed: false, actual: '500 ms', expected: '≥ 1000 ms' });
  });
});

describe('wire.retry-backoff (recommended practice)', () => {
  const rule: WireRule = { rule: 'retry-backoff', level: 'POLICY', min: 100 };
  it.each<[string, PostOptions[], boolean, RegExp]>([
    ['retries at once', [failedAt(0, 10), succeededAt(10)], false, /^wire\.retry-backoff: POST 2 retried 0 ms after a failed answer \(at least 100 ms expected\)$/],
    ['retries within the allowance', [failedAt(0, 10), succeededAt(90)], true, /^wire\.retry-backoff: /],
    ['shortens the wait', [failedAt(0, 10), failedAt(410, 420), succeededAt(570)], false, /^wire\.retry-backoff: POST 3 waited 150 ms, less than the 400 ms before it \(no backoff\)$/],
    ['keeps the wait within the allowance', [failedAt(0, 10), failedAt(410, 420), succeededAt(800)], true, /^wire\.retry-backoff: /],
    ['backs off', [failedAt(0, 10), failedAt(160, 170), succeededAt(470)], true, /^wire\.retry-backoff: /],
  ])('a client that %s', (_title, posts, passed, message) => {
    const check = judgeRule(rule, callsOf(...posts));
    expect(check).toMatchObject({ level: 'POLICY', passed });
    expect(check.message).toMatch(message);
  });

  it('reports the waits, uses 100 ms without a min, and does not count a call after a final answer or a follow-up as a retry', () => {
    expect(judgeRule(rule, callsOf(failedAt(0, 10), succeededAt(160)))).toMatchObject({ passed: true, actual: ['150 ms'] });
    expect(judgeRule({ rule: 'retry-backoff', level: 'POLICY' }, callsOf(failedAt(0, 10), succeededAt(89)))).toMatchObject({ passed: false });
    expect(judgeRule({ rule: 'retry-backoff', level: 'POLICY' }, callsOf(failedAt(0, 10), succeededAt(91)))).toMatchObject({ passed: true });
    expect(judgeRule(rule, callsOf(succeededAt(0), succeededAt(2)), 2)).toMatchObject({ passed: true, actual: 'no retry' });
    expect(judgeRule(rule, callsOf(failedAt(0, 10), { ...succeededAt(11), params: { requestState: 's' } }))).toMatchObject({ passed: true, actual: 'no retry' });
    expect(judgeRule(rule, callsOf(succeededAt(0)))).toMatchObject({ passed: true, actual: 'no retry', expected: 'each retry waits ≥ 100 ms, no shorter than the wait before' });
  });
});

describe('wire.reissue-new-id and wire.no-request-after-final', () => {
  it.each<[string, PostOptions[], boolean, unknown]>([
    ['a re-issue with a new id', [failedAt(0, 10), succeededAt(200)], true, 'every id new'],
    ['a single call', [succeededAt(0)], true, 'no re-issue'],
    ['the same id', [{ ...failedAt(0, 10), id: 5 }, { ...succeededAt(200), id: 5 }], false, 5],
    ['the same string id', [{ ...failedAt(0, 10), id: 'a' }, { ...succeededAt(200), id: 'a' }], false, 'a'],
    ['"1" after 1 is a new id', [{ ...failedAt(0, 10), id: 1 }, { ...succeededAt(200), id: '1' }], true, 'every id new'],
  ])('reissue-new-id: %s', (_title, posts, passed, actual) => {
    const check = judgeRule({ rule: 'reissue-new-id', level: 'MUST' }, callsOf(...posts));
    expect(check).toMatchObject({ level: 'MUST', passed, actual });
    if (!passed) expect(check).toMatchObject({ exchange: 2, message: `wire.reissue-new-id: POST 2 reuses the id ${JSON.stringify(actual)} of an earlier tools/call` });
  });

  it.each<[string, PostOptions[], number, boolean, number]>([
    ['nothing after the final answer', [failedAt(0, 10), succeededAt(200)], 1, true, 0],
    ['a call after the final answer', [succeededAt(0), succeededAt(200)], 1, false, 1],
    ['two calls after it', [succeededAt(0), failedAt(100, 110), succeededAt(200)], 1, false, 2],
    ['the second explicit call is not sent after the first final answer', [succeededAt(0), succeededAt(200)], 2, true, 0],
    ['no final answer at all', [failedAt(0, 10), failedAt(100, 110)], 1, true, 0],
    ['a follow-up after it is not a re-send', [succeededAt(0), { ...succeededAt(200), params: { inputResponses: {} } }], 1, true, 0],
  ])('no-request-after-final: %s', (_title, posts, explicit, passed, actual) => {
    const check = judgeRule({ rule: 'no-request-after-final', level: 'MUST' }, callsOf(...posts), explicit);
    expect(check).toMatchObject({ level: 'MUST', passed, actual, expected: 0 });
    if (passed) expect(check.message).toBe('wire.no-request-after-final: nothing re-sent after the final answer');
    else expect(check).toMatchObject({ exchange: posts.length - actual + 1, message: `wire.no-request-after-final: ${actual} tools/call POST(s) after the final answer in POST 1` });
  });
});

describe('wire.mrtr-follow-up (MR26 § Client Requirements)', () => {
  const rule: WireRule = { rule: 'mrtr-follow-up', level: 'MUST' };
  const inputRequired = (state?: string): PostOptions => ({
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } } }, ...(state === undefined ? {} : { requestState: state }) } }),
  });
  const followUp = (params: Record<string, unknown>, id = 2): PostOptions => ({ id, params });
  const answer = { inputResponses: { confirm: { action: 'accept' } } };

  it.each<[string, PostOptions[], boolean, string]>([
    ['a right follow-up', [inputRequired('s1'), followUp({ ...answer, requestState: 's1' })], true, '1 follow-up(s) right'],
    ['a right follow-up without state', [inputRequired(), followUp(answer)], true, '1 follow-up(s) right'],
    ['no input_required answer', [succeededAt(0)], true, 'no input_required answer was received'],
  ])('passes %s', (_title, posts, passed, actual) => {
    expect(judgeRule(rule, callsOf(...posts))).toMatchObject({ passed, actual });
  });

  it.each<[string, PostOptions[], string]>([
    ['no follow-up', [inputRequired('s1')], 'wire.mrtr-follow-up: no follow-up after the input_required answer to POST 1'],
    ['the same id', [inputRequired('s1'), followUp({ ...answer, requestState: 's1' }, 1)], 'wire.mrtr-follow-up: POST 2: reuses the id 1 (a follow-up is a new request)'],
    ['another tool', [inputRequired('s1'), followUp({ ...answer, name: 'other', requestState: 's1' })], 'wire.mrtr-follow-up: POST 2: calls "other" instead of "synthetic_tool"'],
    ['missing answers', [inputRequired('s1'), followUp({ requestState: 's1' })], 'wire.mrtr-follow-up: POST 2: inputResponses keys [], expected ["confirm"]'],
    ['no requestState', [inputRequired('s1'), followUp(answer)], 'wire.mrtr-follow-up: POST 2: requestState left out'],
    ['a changed requestState', [inputRequired('s1'), followUp({ ...answer, requestState: 's2' })], 'wire.mrtr-follow-up: POST 2: requestState "s2" is not the "s1" the server sent'],
    ['an invented requestState', [inputRequired(), followUp({ ...answer, requestState: 'x' })], 'wire.mrtr-follow-up: POST 2: requestState "x" invented: the server sent none'],
    ['two problems', [inputRequired('s1'), followUp({ requestState: 's2' }, 1)], 'wire.mrtr-follow-up: POST 2: reuses the id 1 (a follow-up is a new request); inputResponses keys [], expected ["confirm"]; requestState "s2" is not the "s1" the server sent'],
  ])('fails %s', (_title, posts, message) => {
    const check = judgeRule(rule, callsOf(...posts));
    expect(check).toMatchObject({ level: 'MUST', passed: false, message });
  });

  it('names what was expected, clips long states, and lets a later input_required go unanswered', () => {
    const long = 'x'.repeat(100);
    const check = judgeRule(rule, callsOf(inputRequired(long), followUp({ ...answer, requestState: 'y' })));
    expect(check.expected).toBe(`a new id, inputResponses for ["confirm"], requestState "${'x'.repeat(56)}...`);
    expect(check.message).toBe(`wire.mrtr-follow-up: POST 2: requestState "y" is not the "${'x'.repeat(56)}... the server sent`);
    expect(judgeRule(rule, callsOf(inputRequired(), followUp(answer))).expected).toBe('new id, same keys, echoed requestState');
    const askAgain = JSON.stringify({ jsonrpc: '2.0', id: 2, result: { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } } } } });
    const abandoned = callsOf(inputRequired(), { ...followUp(answer), body: askAgain });
    expect(abandoned.map((call) => call.outcome)).toEqual(['INPUT_REQUIRED', 'INPUT_REQUIRED']);
    expect(judgeRule(rule, abandoned)).toMatchObject({ passed: true, actual: '1 follow-up(s) right' });
    const wrongAfter = callsOf(inputRequired('s'), { ...followUp({ ...answer, requestState: 's' }), body: askAgain }, followUp({}, 3));
    expect(judgeRule(rule, wrongAfter)).toMatchObject({ passed: false, exchange: 3 });
  });
});
