// A verdict's detail names the rule that decided it: reports print it beside the outcome, and
// rows of one outcome (INVALID_ENVELOPE, INVALID_TOOL_RESULT) differ only by it. One row per rule,
// so a check that answers for another rule (same outcome, wrong reason) fails here.
import { describe, expect, test } from 'vitest';
import type { ClassifierInput, Outcome } from '../vocabulary/types.js';
import { classifyReference, createClassifier } from './reference.js';
import { makeClassifierInput as input, makeResultMessage as response, makeToolResult as tool } from './test-inputs.js';

const ok = tool();
const asked = (extra: Record<string, unknown>): Record<string, unknown> => response({ resultType: 'input_required', ...extra });

describe('transport and body: the detail names the status, the transport error or the media type', () => {
  test.each<[string, ClassifierInput, Outcome, string]>([
    ['no status line', input({ status: 0 }), 'NO_RESPONSE', 'no status line'],
    ['a negative status', input({ status: -1 }), 'NO_RESPONSE', 'no status line'],
    ['a fractional status', input({ status: 200.5, message: response(ok) }), 'NO_RESPONSE', 'no status line'],
    ['a refused connection', input({ status: 0, transportError: { kind: 'refused', message: 'ECONNREFUSED' } }), 'NO_RESPONSE', 'refused: ECONNREFUSED'],
    ['status 199', input({ status: 199, message: response(ok) }), 'HTTP_ERROR', 'HTTP status 199'],
    ['status 300', input({ status: 300, message: response(ok) }), 'HTTP_ERROR', 'HTTP status 300'],
    ['status 200', input({ status: 200, message: response(ok) }), 'TOOL_SUCCESS', 'a complete result'],
    ['status 299', input({ status: 299, message: response(ok) }), 'TOOL_SUCCESS', 'a complete result'],
    ['a body-less 202', input({ status: 202, body: '' }), 'INVALID_ENVELOPE', 'HTTP 202 without a body: no JSON-RPC response to the request'],
    ['a body-less 204', input({ status: 204, body: '' }), 'INVALID_ENVELOPE', 'HTTP 204 without a body: no JSON-RPC response to the request'],
    ['a body-less 200', input({ status: 200, body: '' }), 'MALFORMED_JSON', 'the body is empty'],
    ['a body-less 201', input({ status: 201, body: '' }), 'MALFORMED_JSON', 'the body is empty'],
    ['text/plain', input({ message: response(ok), contentType: 'text/plain; charset=utf-8' }), 'INVALID_ENVELOPE', 'Content-Type text/plain is neither application/json nor text/event-stream'],
    ['an empty media type is read as JSON', input({ message: response(ok), contentType: ' ; charset=utf-8' }), 'TOOL_SUCCESS', 'a complete result'],
    ['a +json suffix only at the end', input({ message: response(ok), contentType: 'application/json+xml' }), 'INVALID_ENVELOPE', 'Content-Type application/json+xml is neither application/json nor text/event-stream'],
    ['a JSON body cut short', input({ body: '{"jsonrpc":"2.0"', transportError: { kind: 'reset', message: 'r' } }), 'STREAM_INCOMPLETE', 'the body was cut short (reset)'],
  ])('%s', (_title, given, outcome, detail) => {
    expect(classifyReference(given)).toMatchObject({ outcome, detail });
  });
});

describe('envelope: the detail names the JSON-RPC rule broken', () => {
  test.each<[string, unknown, string]>([
    ['a batch', [response(ok)], 'a JSON array (batch) instead of a single response'],
    ['a string', 'ok', 'the body is not a JSON object'],
    ['jsonrpc 2 as a number', { jsonrpc: 2, id: 1, result: ok }, 'jsonrpc is not "2.0"'],
    ['a request', { jsonrpc: '2.0', id: 1, method: 'ping' }, 'a request or notification instead of a response'],
    ['both result and error', { jsonrpc: '2.0', id: 1, result: ok, error: { code: 1, message: 'm' } }, 'both result and error'],
    ['neither result nor error', { jsonrpc: '2.0', id: 1 }, 'neither result nor error'],
    ['no id', { jsonrpc: '2.0', result: ok }, 'the response has no id'],
    ['a null id', { jsonrpc: '2.0', id: null, result: ok }, 'the response has a null id'],
    ['another id', { jsonrpc: '2.0', id: 'x', result: ok }, 'response id "x" does not match request id 1'],
    ['an error that is an array', { jsonrpc: '2.0', id: 1, error: [] }, 'error is not an object'],
    ['a fractional error code', { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } }, 'error.code is not an integer'],
    ['an error message that is a number', { jsonrpc: '2.0', id: 1, error: { code: 1, message: 2 } }, 'error.message is not a string'],
  ])('%s', (_title, message, detail) => {
    expect(classifyReference(input({ message }))).toMatchObject({ outcome: 'INVALID_ENVELOPE', detail });
  });

  test('under 2025-03-26 a JSON batch without our response names the id it lacks', () => {
    const given = input({ message: [response(ok, 99)], protocolVersion: '2025-03-26' });
    expect(classifyReference(given)).toMatchObject({ outcome: 'INVALID_ENVELOPE', detail: 'the batch holds no response with id 1' });
  });

  test('a JSON-RPC error names its code and message, and keeps the code', () => {
    expect(classifyReference(input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad arguments' } } }))).toMatchObject({
      outcome: 'JSONRPC_ERROR',
      code: -32602,
      detail: 'JSON-RPC error -32602: bad arguments',
    });
  });
});

describe('result: the detail names the CallToolResult or InputRequiredResult rule broken', () => {
  test.each<[string, ClassifierInput, Outcome, string]>([
    ['a result that is an array', input({ message: response([]) }), 'INVALID_TOOL_RESULT', 'the result is not an object'],
    ['no content', input({ message: response({ resultType: 'complete' }) }), 'INVALID_TOOL_RESULT', 'the result has no content'],
    ['content an object', input({ message: response(tool({ content: {} })) }), 'INVALID_TOOL_RESULT', 'content is not an array'],
    ['the second block invalid', input({ message: response(tool({ content: [{ type: 'text', text: 'a' }, { type: 'text' }] })) }), 'INVALID_TOOL_RESULT', 'content[1]: text block lacks "text"'],
    ['isError 1', input({ message: response(tool({ isError: 1 })) }), 'INVALID_TOOL_RESULT', 'isError is not a boolean'],
    ['isError false', input({ message: response(tool({ isError: false })) }), 'TOOL_SUCCESS', 'a complete result'],
    ['isError true', input({ message: response(tool({ isError: true })) }), 'TOOL_ERROR', 'a complete result with isError true'],
    ['structuredContent a string in 2025', input({ protocolVersion: '2025-11-25', message: response(tool({ structuredContent: 's' })) }), 'INVALID_TOOL_RESULT', 'structuredContent is not an object (required in 2025-11-25)'],
    ['_meta an array', input({ message: response(tool({ _meta: [] })) }), 'INVALID_TOOL_RESULT', '_meta is not an object'],
    ['_meta an object', input({ message: response(tool({ _meta: { a: 1 } })) }), 'TOOL_SUCCESS', 'a complete result'],
    ['an unknown resultType', input({ message: response(tool({ resultType: 'partial' })) }), 'INVALID_TOOL_RESULT', 'unknown resultType "partial"'],
    ['input_required with neither member', input({ message: asked({}) }), 'INVALID_TOOL_RESULT', 'input_required without inputRequests or requestState'],
    ['a requestState that is a number', input({ message: asked({ requestState: 1 }) }), 'INVALID_TOOL_RESULT', 'requestState is not a string'],
    ['a requestState that is a number beside inputRequests', input({ message: asked({ requestState: 1, inputRequests: {} }) }), 'INVALID_TOOL_RESULT', 'requestState is not a string'],
    ['inputRequests a string', input({ message: asked({ inputRequests: 'x' }) }), 'INVALID_TOOL_RESULT', 'inputRequests is not an object'],
    ['an input request that is not an object', input({ message: asked({ inputRequests: { q: 'elicitation/create' } }) }), 'INVALID_TOOL_RESULT', 'inputRequests.q is not an elicitation, sampling or roots request'],
    ['an input request with a numeric method', input({ message: asked({ inputRequests: { q: { method: 1 } } }) }), 'INVALID_TOOL_RESULT', 'inputRequests.q is not an elicitation, sampling or roots request'],
    ['sampling with params that are not an object', input({ message: asked({ inputRequests: { s: { method: 'sampling/createMessage', params: [] } } }) }), 'INVALID_TOOL_RESULT', 'inputRequests.s (sampling/createMessage) has no params object'],
    ['sampling with params', input({ message: asked({ inputRequests: { s: { method: 'sampling/createMessage', params: {} } } }) }), 'INPUT_REQUIRED', 'the server needs more input before it can finish'],
    ['roots/list with params that are not an object', input({ message: asked({ inputRequests: { r: { method: 'roots/list', params: 1 } } }) }), 'INPUT_REQUIRED', 'the server needs more input before it can finish'],
    ['an empty inputRequests beside a requestState', input({ message: asked({ inputRequests: {}, requestState: 's' }) }), 'INPUT_REQUIRED', 'the server needs more input before it can finish'],
    ['requestState alone', input({ message: asked({ requestState: '' }) }), 'INPUT_REQUIRED', 'the server needs more input before it can finish'],
  ])('%s', (_title, given, outcome, detail) => {
    expect(classifyReference(given)).toMatchObject({ outcome, detail });
  });
});

describe('a result without resultType, under a classifier that assumes none (fixture rule)', () => {
  test('is INVALID_TOOL_RESULT for having no resultType, not for an unknown one', () => {
    const noFallback = createClassifier({ resultTypeWhenAbsent: undefined });
    expect(noFallback(input({ message: response({ content: [] }) }))).toMatchObject({ outcome: 'INVALID_TOOL_RESULT', detail: 'the result has no resultType' });
    expect(noFallback(input({ message: response(tool({ resultType: 'complete' })) }))).toMatchObject({ outcome: 'TOOL_SUCCESS' });
  });
});
