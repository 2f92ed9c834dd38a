import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../vocabulary/types.js';
import { isRecord, readWireCalls } from './read-wire-calls.js';
import { makeClientRecording, makeInitializePost, makeToolCallPost } from './test-recordings.js';

const V26 = '2026-07-28';
const sse = (...messages: unknown[]) => messages.map((message) => `data: ${JSON.stringify(message)}\n\n`).join('');
const result = { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] };

describe('readWireCalls', () => {
  it('keeps only tools/call POSTs that are requests, numbered among themselves and in the transcript', () => {
    const notification = makeToolCallPost();
    notification.request.rpc = { ...notification.request.rpc!, isNotification: true };
    const get = makeToolCallPost({ id: 3 });
    get.request.method = 'GET';
    const calls = readWireCalls(makeClientRecording(makeInitializePost('s'), makeToolCallPost({ id: 1 }), notification, get, makeToolCallPost({ id: 2 })), V26);
    expect(calls.map((call) => [call.n, call.transcript, call.id])).toEqual([
      [1, 2, 1],
      [2, 5, 2],
    ]);
    expect(readWireCalls(undefined, V26)).toEqual([]);
  });

  it.each<[string, Partial<RecordedExchange['response'] & object>, string, boolean]>([
    ['a success', {}, 'TOOL_SUCCESS', true],
    ['a tool error', { body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ...result, isError: true } }) }, 'TOOL_ERROR', true],
    ['a JSON-RPC error', { body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'm' } }) }, 'JSONRPC_ERROR', true],
    ['a 503', { status: 503, body: '' }, 'HTTP_ERROR', false],
    ['a body cut by a reset', { body: '{"jsonrpc":"2.0","id":1,"re', ending: 'reset' }, 'STREAM_INCOMPLETE', false],
    ['a body cut when the client closed', { body: '{"jsonrpc":"2.0","id":1,"re', ending: 'client_closed' }, 'STREAM_INCOMPLETE', false],
    ['a server that hung before the status', { status: undefined, body: '', ending: 'hang' }, 'NO_RESPONSE', false],
    ['an SSE answer', { headers: { 'content-type': 'text/event-stream' }, body: sse({ jsonrpc: '2.0', id: 1, result }) }, 'TOOL_SUCCESS', true],
    ['an answer to another id', { body: JSON.stringify({ jsonrpc: '2.0', id: 9, result }) }, 'INVALID_ENVELOPE', false],
    // The recording keeps every byte as UTF-8 text; the client's decode drops the first BOM only.
    ['JSON after one BOM', { body: `\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}` }, 'TOOL_SUCCESS', true],
    ['JSON after two BOMs', { body: `\uFEFF\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}` }, 'MALFORMED_JSON', false],
    ['an event stream after two BOMs', { headers: { 'content-type': 'text/event-stream' }, body: `\uFEFF\uFEFF${sse({ jsonrpc: '2.0', id: 1, result })}` }, 'STREAM_INCOMPLETE', false],
  ])('reads %s the way the reference classifier does', (_title, response, outcome, isFinal) => {
    const post = makeToolCallPost();
    post.response = { ...post.response!, ...response };
    const [call] = readWireCalls(makeClientRecording(post), V26);
    expect(call).toMatchObject({ outcome, isFinal });
  });

  it('reads a complete answer that is not JSON as MALFORMED_JSON: only a body that ended early is cut short', () => {
    const post = makeToolCallPost();
    post.response = { ...post.response!, body: '{"jsonrpc":"2.0","id":1,"re', ending: 'complete' };
    expect(readWireCalls(makeClientRecording(post), V26)[0]).toMatchObject({ outcome: 'MALFORMED_JSON', isFinal: false });
  });

  it('reads no answer at all as NO_RESPONSE', () => {
    const post = makeToolCallPost();
    post.response = undefined;
    expect(readWireCalls(makeClientRecording(post), V26)[0]).toMatchObject({ outcome: 'NO_RESPONSE', isFinal: false, result: undefined });
  });

  it('keeps the result the server sent for this id (JSON, BOM-prefixed JSON or the SSE event carrying it)', () => {
    const read = (response: Partial<NonNullable<RecordedExchange['response']>>) => {
      const post = makeToolCallPost();
      post.response = { ...post.response!, ...response };
      return readWireCalls(makeClientRecording(post), V26)[0]!.result;
    };
    expect(read({})).toEqual(result);
    expect(read({ body: `\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}` })).toEqual(result);
    expect(read({ body: `\uFEFF\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}` })).toBeUndefined();
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: {} };
    expect(read({ headers: { 'content-type': 'text/event-stream' }, body: sse(progress, { jsonrpc: '2.0', id: 1, result }) })).toEqual(result);
    expect(read({ body: JSON.stringify({ jsonrpc: '2.0', id: 2, result }) })).toBeUndefined();
    expect(read({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'text' }) })).toBeUndefined();
    expect(read({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm' } }) })).toBeUndefined();
    expect(read({ body: 'not json' })).toBeUndefined();
    expect(read({ body: '[1]' })).toBeUndefined();
    expect(read({ body: '' })).toBeUndefined();
    // Only a leading byte order mark is dropped: one inside the text is the server's.
    const marked = { ...result, content: [{ type: 'text', text: '\uFEFFok' }] };
    expect(read({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: marked }) })).toEqual(marked);
  });

  it('marks follow-ups by inputResponses or requestState, and keeps params and headers', () => {
    const calls = readWireCalls(makeClientRecording(makeToolCallPost({ id: 1 }), makeToolCallPost({ id: 2, params: { inputResponses: {} } }), makeToolCallPost({ id: 3, params: { requestState: 's' } })), V26);
    expect(calls.map((call) => call.isFollowUp)).toEqual([false, true, true]);
    expect(calls[0]).toMatchObject({ params: { name: 'synthetic_tool', arguments: {} }, headers: { accept: 'application/json, text/event-stream' } });
  });

  it('reads params that are not an object as none', () => {
    const post = makeToolCallPost();
    post.request.rpc = { ...post.request.rpc!, params: [1] };
    expect(readWireCalls(makeClientRecording(post), V26)[0]!.params).toEqual({});
  });

  it.each<[unknown, boolean]>([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['x', false],
    [1, false],
  ])('isRecord(%o) is %s', (value, expected) => {
    expect(isRecord(value)).toBe(expected);
  });
});
