import { describe, expect, test } from 'vitest';
import { OUTCOME_LAYER, type ClassifierInput, type Outcome } from '../vocabulary/types.js';
import { classifyReference } from './reference.js';
import { makeClassifierInput as input, makeInputFromBytes, makeResultMessage as response, makeSseBody, makeToolResult as tool, withBoms } from './test-inputs.js';

type Row = [title: string, input: ClassifierInput, outcome: Outcome, extra?: { status?: number; code?: number }];

const success = response(tool());

describe('transport rules', () => {
  test.each<Row>([
    ['no status line is NO_RESPONSE', input({ status: 0, body: '' }), 'NO_RESPONSE'],
    [
      'a refused connection is NO_RESPONSE',
      input({ status: 0, transportError: { kind: 'refused', message: 'ECONNREFUSED' } }),
      'NO_RESPONSE',
    ],
    ['a timeout before the status is NO_RESPONSE', input({ status: 0, transportError: { kind: 'timeout', message: 't' } }), 'NO_RESPONSE'],
    ['a 500 with a success body is HTTP_ERROR', input({ status: 500, message: success }), 'HTTP_ERROR', { status: 500 }],
    ['a 503 with a non-JSON-RPC body is HTTP_ERROR', input({ status: 503, body: '{"note":"x"}' }), 'HTTP_ERROR', { status: 503 }],
    ['a 400 with a JSON-RPC error is HTTP_ERROR', input({ status: 400, message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'm' } } }), 'HTTP_ERROR', { status: 400 }],
    ['a 302 is HTTP_ERROR', input({ status: 302, body: '' }), 'HTTP_ERROR', { status: 302 }],
    ['a non-2xx reset mid-body is still HTTP_ERROR', input({ status: 502, body: '{"jso', transportError: { kind: 'reset', message: 'r' } }), 'HTTP_ERROR', { status: 502 }],
    ['a 200 JSON body cut short by a reset is STREAM_INCOMPLETE', input({ body: '{"jsonrpc":"2.0","id":1,"res', transportError: { kind: 'reset', message: 'r' } }), 'STREAM_INCOMPLETE'],
    ['a 200 JSON body complete before a reset is classified', input({ message: success, transportError: { kind: 'reset', message: 'r' } }), 'TOOL_SUCCESS'],
    ['a 202 with an empty body to a request is INVALID_ENVELOPE', input({ status: 202, body: '' }), 'INVALID_ENVELOPE'],
    ['a 204 is INVALID_ENVELOPE', input({ status: 204, body: '', contentType: undefined }), 'INVALID_ENVELOPE'],
    ['a 202 that does carry a response is classified', input({ status: 202, message: success }), 'TOOL_SUCCESS'],
  ])('%s', (_title, given, outcome, extra = {}) => {
    expect(classifyReference(given)).toMatchObject({ outcome, layer: OUTCOME_LAYER[outcome], ...extra });
  });
});

describe('body and content-type rules', () => {
  test.each<Row>([
    ['an empty 200 body is MALFORMED_JSON', input({ body: '' }), 'MALFORMED_JSON'],
    ['a whitespace-only body is MALFORMED_JSON', input({ body: ' \n' }), 'MALFORMED_JSON'],
    ['a truncated body is MALFORMED_JSON', input({ body: '{unclosed' }), 'MALFORMED_JSON'],
    ['a body that still starts with U+FEFF had a second BOM in its bytes: not JSON text', input({ body: `\uFEFF${JSON.stringify(success)}` }), 'MALFORMED_JSON'],
    ['a missing Content-Type is read as JSON', input({ message: success, contentType: undefined }), 'TOOL_SUCCESS'],
    ['Content-Type parameters and case are ignored', input({ message: success, contentType: 'Application/JSON; charset=utf-8' }), 'TOOL_SUCCESS'],
    ['a +json media type is JSON', input({ message: success, contentType: 'application/vnd.example+json' }), 'TOOL_SUCCESS'],
    ['text/html with a valid JSON body is INVALID_ENVELOPE', input({ message: success, contentType: 'text/html' }), 'INVALID_ENVELOPE'],
    ['text/html with an HTML body is INVALID_ENVELOPE', input({ body: '<html></html>', contentType: 'text/html' }), 'INVALID_ENVELOPE'],
    ['the contentType field wins over the header', input({ message: success, contentType: 'application/json', headers: { 'content-type': 'text/html' } }), 'TOOL_SUCCESS'],
    ['the header is used when contentType is absent', input({ message: success, contentType: undefined, headers: { 'content-type': 'text/plain' } }), 'INVALID_ENVELOPE'],
    ['Content-Encoding is never consulted', input({ message: success, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }), 'TOOL_SUCCESS'],
  ])('%s', (_title, given, outcome) => {
    expect(classifyReference(given).outcome).toBe(outcome);
  });
});

// The body reaches the classifier decoded (docs/targets.md § Your own classifier): UTF-8 decode has dropped
// one leading BOM (RFC 8259 §8.1: receivers MAY ignore one), and the classifier drops none itself.
describe('byte order marks, from the bytes on the wire', () => {
  const json = JSON.stringify(success);
  const sse = makeSseBody;
  const asSse = { contentType: 'text/event-stream' } as const;
  const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };

  test.each<[string, Uint8Array, Partial<ClassifierInput>, Outcome]>([
    ['JSON after one BOM is read as sent', withBoms(1, json), {}, 'TOOL_SUCCESS'],
    ['JSON after two BOMs is MALFORMED_JSON: the second is data, not JSON text (as fetch\'s json() finds)', withBoms(2, json), {}, 'MALFORMED_JSON'],
    ['an event stream after one BOM is read as sent', withBoms(1, sse(success)), asSse, 'TOOL_SUCCESS'],
    ['an event stream after two BOMs loses its first event: its field name is "\\uFEFFdata" (WHATWG SSE), so nothing answers', withBoms(2, sse(success)), asSse, 'STREAM_INCOMPLETE'],
    ['only the first event is lost: a later one still answers', withBoms(2, sse(progress, success)), asSse, 'TOOL_SUCCESS'],
  ])('%s', (_title, bytes, options, outcome) => {
    expect(classifyReference(makeInputFromBytes(bytes, options)).outcome).toBe(outcome);
  });
});

describe('envelope rules', () => {
  test.each<Row>([
    ['a batch array is INVALID_ENVELOPE', input({ message: [success] }), 'INVALID_ENVELOPE'],
    ['a JSON string is INVALID_ENVELOPE', input({ message: 'ok' }), 'INVALID_ENVELOPE'],
    ['null is INVALID_ENVELOPE', input({ body: 'null' }), 'INVALID_ENVELOPE'],
    ['a missing jsonrpc is INVALID_ENVELOPE', input({ message: { id: 1, result: tool() } }), 'INVALID_ENVELOPE'],
    ['jsonrpc "1.0" is INVALID_ENVELOPE', input({ message: { jsonrpc: '1.0', id: 1, result: tool() } }), 'INVALID_ENVELOPE'],
    ['a request instead of a response is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', id: 1, method: 'ping' } }), 'INVALID_ENVELOPE'],
    ['both result and error is INVALID_ENVELOPE', input({ message: { ...success, error: { code: -32603, message: 'm' } } }), 'INVALID_ENVELOPE'],
    ['"result": null beside an error counts as both', input({ message: { jsonrpc: '2.0', id: 1, result: null, error: { code: 1, message: 'm' } } }), 'INVALID_ENVELOPE'],
    ['neither result nor error is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', id: 1 } }), 'INVALID_ENVELOPE'],
    ['a missing id is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', result: tool() } }), 'INVALID_ENVELOPE'],
    ['an error without id is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', error: { code: -32600, message: 'm' } } }), 'INVALID_ENVELOPE'],
    ['a null id is INVALID_ENVELOPE', input({ message: response(tool(), null) }), 'INVALID_ENVELOPE'],
    ['another id is INVALID_ENVELOPE', input({ message: response(tool(), 99) }), 'INVALID_ENVELOPE'],
    ['"1" does not answer 1', input({ message: response(tool(), '1') }), 'INVALID_ENVELOPE'],
    ['7 does not answer "7"', input({ expectedId: '7', message: response(tool(), 7) }), 'INVALID_ENVELOPE'],
    ['"7" answers "7"', input({ expectedId: '7', message: response(tool(), '7') }), 'TOOL_SUCCESS'],
    ['1.0 answers 1 (a JSON number equal to 1)', input({ body: '{"jsonrpc":"2.0","id":1.0,"result":{"content":[]}}' }), 'TOOL_SUCCESS'],
    ['1e0 answers 1', input({ body: '{"jsonrpc":"2.0","id":1e0,"result":{"content":[]}}' }), 'TOOL_SUCCESS'],
    ['1.5 does not answer 1', input({ body: '{"jsonrpc":"2.0","id":1.5,"result":{"content":[]}}' }), 'INVALID_ENVELOPE'],
    ['a valid error is JSONRPC_ERROR with its code', input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } } }), 'JSONRPC_ERROR', { code: -32602 }],
    ['an error with data of any type is JSONRPC_ERROR', input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x', data: [1] } } }), 'JSONRPC_ERROR', { code: -32603 }],
    ['a fractional error code is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32603.5, message: 'x' } } }), 'INVALID_ENVELOPE'],
    ['a string error code is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', id: 1, error: { code: '-32603', message: 'x' } } }), 'INVALID_ENVELOPE'],
    ['an error without message is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32603 } } }), 'INVALID_ENVELOPE'],
    ['an error that is a string is INVALID_ENVELOPE', input({ message: { jsonrpc: '2.0', id: 1, error: 'boom' } }), 'INVALID_ENVELOPE'],
  ])('%s', (_title, given, outcome, extra = {}) => {
    expect(classifyReference(given)).toMatchObject({ outcome, ...extra });
  });
});

const v25 = '2025-11-25' as const;
const v26 = '2026-07-28' as const;

describe('result rules', () => {
  test.each<Row>([
    ['a complete result is TOOL_SUCCESS', input({ message: success }), 'TOOL_SUCCESS'],
    ['isError true is TOOL_ERROR', input({ message: response(tool({ isError: true })) }), 'TOOL_ERROR'],
    ['isError absent means false', input({ message: response({ resultType: 'complete', content: [] }) }), 'TOOL_SUCCESS'],
    ['isError "true" is INVALID_TOOL_RESULT', input({ message: response(tool({ isError: 'true' })) }), 'INVALID_TOOL_RESULT'],
    ['content not an array is INVALID_TOOL_RESULT', input({ message: response(tool({ content: 'x' })) }), 'INVALID_TOOL_RESULT'],
    ['content missing is INVALID_TOOL_RESULT', input({ message: response({ resultType: 'complete' }) }), 'INVALID_TOOL_RESULT'],
    ['an empty content array is TOOL_SUCCESS', input({ message: response(tool({ content: [] })) }), 'TOOL_SUCCESS'],
    ['an invalid block is INVALID_TOOL_RESULT', input({ message: response(tool({ content: [{ type: 'text' }] })) }), 'INVALID_TOOL_RESULT'],
    ['a result that is not an object is INVALID_TOOL_RESULT', input({ message: response('done') }), 'INVALID_TOOL_RESULT'],
    ['a null result is INVALID_TOOL_RESULT', input({ message: response(null) }), 'INVALID_TOOL_RESULT'],
    ['_meta not an object is INVALID_TOOL_RESULT', input({ message: response(tool({ _meta: 5 })) }), 'INVALID_TOOL_RESULT'],
    [
      'the keys inside _meta are not read: a 2026 serverInfo without its version leaves the result valid (B26 § `_meta`: display only)',
      input({ protocolVersion: v26, message: response(tool({ _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'synthetic-server' } } })) }),
      'TOOL_SUCCESS',
    ],
    ['nor does a serverInfo that is not an object at all', input({ protocolVersion: v26, message: response(tool({ _meta: { 'io.modelcontextprotocol/serverInfo': 'x' } })) }), 'TOOL_SUCCESS'],
    ['resultType absent is complete in 2026', input({ protocolVersion: v26, message: response({ content: [] }) }), 'TOOL_SUCCESS'],
    ['resultType absent is fine in 2025', input({ protocolVersion: v25, message: response({ content: [] }) }), 'TOOL_SUCCESS'],
    ['resultType "complete" is an ignored extra in 2025', input({ protocolVersion: v25, message: success }), 'TOOL_SUCCESS'],
    ['an unknown resultType is INVALID_TOOL_RESULT in 2026', input({ message: response(tool({ resultType: 'partial' })) }), 'INVALID_TOOL_RESULT'],
    ['a non-string resultType is INVALID_TOOL_RESULT in 2026', input({ message: response(tool({ resultType: 1 })) }), 'INVALID_TOOL_RESULT'],
    ['an unknown resultType is ignored in 2025', input({ protocolVersion: v25, message: response(tool({ resultType: 'partial' })) }), 'TOOL_SUCCESS'],
    ['structuredContent array is invalid in 2025', input({ protocolVersion: v25, message: response(tool({ structuredContent: [1] })) }), 'INVALID_TOOL_RESULT'],
    ['structuredContent null is invalid in 2025', input({ protocolVersion: v25, message: response(tool({ structuredContent: null })) }), 'INVALID_TOOL_RESULT'],
    ['structuredContent object is valid in 2025', input({ protocolVersion: v25, message: response(tool({ structuredContent: { a: 1 } })) }), 'TOOL_SUCCESS'],
    ['structuredContent array is valid in 2026', input({ protocolVersion: v26, message: response(tool({ structuredContent: [1] })) }), 'TOOL_SUCCESS'],
    ['structuredContent null is valid in 2026', input({ protocolVersion: v26, message: response(tool({ structuredContent: null })) }), 'TOOL_SUCCESS'],
    ['structuredContent string is valid in 2026', input({ protocolVersion: v26, message: response(tool({ structuredContent: 's' })) }), 'TOOL_SUCCESS'],
  ])('%s', (_title, given, outcome) => {
    expect(classifyReference(given).outcome).toBe(outcome);
  });
});

const formSchema = { type: 'object', properties: { ok: { type: 'boolean' } } };
const elicit = { method: 'elicitation/create', params: { mode: 'form', message: 'm', requestedSchema: formSchema } };
const withElicit = (params: Record<string, unknown>) => input({ message: response({ resultType: 'input_required', inputRequests: { e: { method: 'elicitation/create', params } } }) });

describe('input_required rules', () => {
  test.each<Row>([
    ['inputRequests alone is INPUT_REQUIRED', input({ message: response({ resultType: 'input_required', inputRequests: { a: elicit } }) }), 'INPUT_REQUIRED'],
    ['requestState alone is INPUT_REQUIRED', input({ message: response({ resultType: 'input_required', requestState: 's' }) }), 'INPUT_REQUIRED'],
    ['both are INPUT_REQUIRED', input({ message: response({ resultType: 'input_required', inputRequests: { a: elicit }, requestState: 's' }) }), 'INPUT_REQUIRED'],
    ['roots/list needs no params', input({ message: response({ resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } }) }), 'INPUT_REQUIRED'],
    ['neither is INVALID_TOOL_RESULT (MR26)', input({ message: response({ resultType: 'input_required' }) }), 'INVALID_TOOL_RESULT'],
    ['a non-string requestState is INVALID_TOOL_RESULT', input({ message: response({ resultType: 'input_required', requestState: 5 }) }), 'INVALID_TOOL_RESULT'],
    ['an inputRequests array is INVALID_TOOL_RESULT', input({ message: response({ resultType: 'input_required', inputRequests: [elicit] }) }), 'INVALID_TOOL_RESULT'],
    ['a ping input request is INVALID_TOOL_RESULT', input({ message: response({ resultType: 'input_required', inputRequests: { p: { method: 'ping' } } }) }), 'INVALID_TOOL_RESULT'],
    ['elicitation without params is INVALID_TOOL_RESULT', input({ message: response({ resultType: 'input_required', inputRequests: { e: { method: 'elicitation/create' } } }) }), 'INVALID_TOOL_RESULT'],
    ['a form elicitation without mode is INPUT_REQUIRED (form is the default)', withElicit({ message: 'm', requestedSchema: formSchema }), 'INPUT_REQUIRED'],
    ['a URL elicitation with message and url is INPUT_REQUIRED', withElicit({ mode: 'url', message: 'm', url: 'https://example.test/x' }), 'INPUT_REQUIRED'],
    ['a form elicitation without requestedSchema is INVALID_TOOL_RESULT (ST26 ElicitRequestFormParams)', withElicit({ mode: 'form', message: 'm' }), 'INVALID_TOOL_RESULT'],
    ['a form elicitation whose requestedSchema is not an object schema is INVALID_TOOL_RESULT', withElicit({ message: 'm', requestedSchema: { type: 'string' } }), 'INVALID_TOOL_RESULT'],
    ['an elicitation without message is INVALID_TOOL_RESULT', withElicit({ requestedSchema: formSchema }), 'INVALID_TOOL_RESULT'],
    ['a URL elicitation without url is INVALID_TOOL_RESULT', withElicit({ mode: 'url', message: 'm' }), 'INVALID_TOOL_RESULT'],
    ['an elicitation of an unknown mode is INVALID_TOOL_RESULT', withElicit({ mode: 'voice', message: 'm', requestedSchema: formSchema }), 'INVALID_TOOL_RESULT'],
    ['input_required in 2025 lacks content: INVALID_TOOL_RESULT', input({ protocolVersion: v25, message: response({ resultType: 'input_required', requestState: 's' }) }), 'INVALID_TOOL_RESULT'],
  ])('%s', (_title, given, outcome) => {
    expect(classifyReference(given).outcome).toBe(outcome);
  });
});

describe('recovery advice', () => {
  test.each<[Outcome, ClassifierInput, { hasFinalResult: boolean; replay: string }]>([
    ['TOOL_SUCCESS', input({ message: success }), { hasFinalResult: true, replay: 'no' }],
    ['TOOL_ERROR', input({ message: response(tool({ isError: true })) }), { hasFinalResult: true, replay: 'no' }],
    ['HTTP_ERROR', input({ status: 503 }), { hasFinalResult: false, replay: 'if_idempotent' }],
    ['JSONRPC_ERROR', input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'm' } } }), { hasFinalResult: false, replay: 'after_fixing_arguments' }],
    ['JSONRPC_ERROR', input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'm' } } }), { hasFinalResult: false, replay: 'no' }],
    ['INPUT_REQUIRED', input({ message: response({ resultType: 'input_required', requestState: 's' }) }), { hasFinalResult: false, replay: 'follow_up' }],
    ['MALFORMED_JSON', input({ body: '{' }), { hasFinalResult: false, replay: 'no' }],
    ['INVALID_ENVELOPE', input({ message: response(tool(), 2) }), { hasFinalResult: false, replay: 'no' }],
    ['INVALID_TOOL_RESULT', input({ message: response({ content: 1 }) }), { hasFinalResult: false, replay: 'no' }],
    ['STREAM_INCOMPLETE', input({ contentType: 'text/event-stream', body: '' }), { hasFinalResult: false, replay: 'reissue_if_idempotent' }],
    ['NO_RESPONSE', input({ status: 0 }), { hasFinalResult: false, replay: 'reissue_if_idempotent' }],
  ])('%s gives %o', (outcome, given, recovery) => {
    expect(classifyReference(given)).toMatchObject({ outcome, recovery });
  });
});

describe('robustness', () => {
  test('never throws and is deterministic on odd inputs', () => {
    const odd: ClassifierInput[] = [
      input({ status: Number.NaN }),
      input({ body: '{"__proto__":{"x":1},"jsonrpc":"2.0","id":1,"result":{"content":[]}}' }),
      input({ body: '[]' }),
      input({ contentType: 'text/event-stream', body: 'data: [\n\n' }),
      input({ contentType: '', body: '{}' }),
    ];
    for (const given of odd) {
      const first = classifyReference(given);
      expect(classifyReference(given)).toEqual(first);
    }
  });
});
