import { describe, expect, it } from 'vitest';
import type { AlternativeVerdict, ExchangeSpec } from '../../cases/case-types.js';
import { makeCase } from '../../mock-server/test-cases.js';
import { getClientExpectations } from './judge-reported.js';
import { readWireCalls, type WireCall } from './read-wire-calls.js';
import { makeClientRecording, makeToolCallPost } from './test-recordings.js';

// A response that converts the request id to a string (`as-string`) or a number (`as-number`)
// tests a type mismatch; a client whose own id already had that type got it echoed unchanged.
const timeout: AlternativeVerdict = { outcome: 'STREAM_INCOMPLETE', level: 'SHOULD', spec: [{ ref: 'test' }], why: 'a client may wait for its own timeout' };
const converting = (id: 'as-string' | 'as-number'): ExchangeSpec => ({ response: { id }, expect: { outcome: 'INVALID_ENVELOPE' }, alternatives: [timeout] });
const rateLimited: ExchangeSpec = { response: { status: 429 }, expect: { outcome: 'HTTP_ERROR', status: 429 } };
const success = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } });
/** The tools/call POSTs of a recording: per call, its id, the step it consumed and the id the server answered with. */
const callsOf = (...posts: [id: unknown, step: number, answeredId: unknown, status?: number][]): WireCall[] =>
  readWireCalls(makeClientRecording(...posts.map(([id, scriptStep, answered, status]) => makeToolCallPost({ id, scriptStep, body: success(answered), status }))), '2026-07-28');

describe('getClientExpectations: a client whose id the conversion leaves unchanged is held to what the server sent', () => {
  it.each<[string, 'as-string' | 'as-number', unknown]>([
    ['a string id answered as a string', 'as-string', 'req-7'],
    ['a number id answered as a number', 'as-number', 7],
  ])('%s: expects what the reference reads in the answer, without the step alternatives', (_title, mode, id) => {
    const item = makeCase([], { exchanges: [converting(mode)] });
    expect(getClientExpectations(item, '2026-07-28', callsOf([id, 0, id]))).toEqual([{ verdict: { outcome: 'TOOL_SUCCESS' } }]);
  });

  it.each<[string, 'as-string' | 'as-number', unknown, unknown]>([
    ['a number id answered as a string', 'as-string', 1, '1'],
    ['a numeric string id answered as a number', 'as-number', '7', 7],
  ])('%s: the mismatch the case tests, so the step expectation and its alternatives apply', (_title, mode, id, answered) => {
    const item = makeCase([], { exchanges: [converting(mode)] });
    expect(getClientExpectations(item, '2026-07-28', callsOf([id, 0, answered]))).toEqual([{ verdict: { outcome: 'INVALID_ENVELOPE' }, alternatives: [timeout] }]);
  });

  it('reads the call that consumed the converting step, not an earlier one', () => {
    // Call 1 met the 429 of step 0; call 2, with a string id, consumed the as-string step 1.
    const item = makeCase([], { exchanges: [rateLimited, converting('as-string')] });
    const calls = callsOf(['a', 0, 'a', 429], ['b', 1, 'b']);
    expect(calls.map((call) => call.outcome)).toEqual(['HTTP_ERROR', 'TOOL_SUCCESS']);
    expect(getClientExpectations(item, '2026-07-28', calls)).toEqual([{ verdict: { outcome: 'TOOL_SUCCESS' } }]);
  });

  it('keeps the step expectation when no call consumed the step, or the call had no id', () => {
    const item = makeCase([], { exchanges: [converting('as-string')] });
    const expected = [{ verdict: { outcome: 'INVALID_ENVELOPE' }, alternatives: [timeout] }];
    expect(getClientExpectations(item, '2026-07-28')).toEqual(expected);
    expect(getClientExpectations(item, '2026-07-28', callsOf(['x', 1, 'x']))).toEqual(expected);
    // Without an id, as-number and echo would both write null: only the guard keeps the step.
    const numbered = makeCase([], { exchanges: [converting('as-number')] });
    const [call] = callsOf([1, 0, 1]);
    expect(getClientExpectations(numbered, '2026-07-28', [{ ...call!, id: undefined }])).toEqual(expected);
  });

  it('leaves an echoing step to its own expectation', () => {
    const item = makeCase([], { exchanges: [{ response: {}, expect: { outcome: 'INVALID_ENVELOPE' } }] });
    expect(getClientExpectations(item, '2026-07-28', callsOf(['x', 0, 'x']))).toEqual([{ verdict: { outcome: 'INVALID_ENVELOPE' } }]);
  });
});
