// One row per line of map-sdk-outcome.mjs's table: what an SDK version threw or returned, recorded
// as the worker records it (observe-call.mjs, against the SDK's exported classes), and the verdict
// it becomes through the mapping contract. The errors are the bundled SDKs' own classes; the
// 1.10–1.23 row is the plain Error their StreamableHTTPClientTransport.send throws for a non-2xx
// POST (`Error POSTing to endpoint (HTTP 503): …`, read from 1.17.0's dist).
import { describe, expect, it } from 'vitest';
import { v1Http, v1Types, v2Client } from '../../../test/bundled-libraries.js';
import { brief, mapFor, threw, type MapContext } from '../../../test/map-observation-helpers.js';

type Ctor<A extends unknown[]> = new (...args: A) => Error;
const McpError = v1Types.McpError as Ctor<[number, string, unknown?]>;
const StreamableHTTPError = v1Http.StreamableHTTPError as Ctor<[number, string]>;
const ProtocolError = v2Client.ProtocolError as Ctor<[number, string, unknown?]>;
const SdkError = v2Client.SdkError as Ctor<[string, string, unknown?]>;
const SdkHttpError = v2Client.SdkHttpError as Ctor<[string, string, unknown?]>;
const InsufficientScopeError = v2Client.InsufficientScopeError as Ctor<[Record<string, unknown>, string?]>;

const v1 = (error: unknown, context: Partial<MapContext> = {}) => brief(mapFor('ts-sdk')(threw(error, v1Types, v1Http), context));
const v2 = (error: unknown, context: Partial<MapContext> = {}) => brief(mapFor('ts-client')(threw(error, v2Client), context));
const named = (name: string, message: string, extra: Record<string, unknown> = {}) => Object.assign(Object.assign(new Error(message), extra), { name });
// Zod 4's issues for a message no JSON-RPC shape accepts (recorded: result-not-object), and for a result (recorded: content-not-array).
// The envelope's: one root invalid_union with a branch per JSON-RPC message kind (request, notification, result, error).
const ENVELOPE_ISSUES = [{ code: 'invalid_union', errors: [[{ code: 'invalid_type', path: ['method'] }], [{ code: 'invalid_type', path: ['method'] }], [{ code: 'invalid_type', path: ['result'] }], [{ code: 'invalid_type', path: ['error'] }]], path: [], message: 'Invalid input' }];
const RESULT_ISSUES = [{ expected: 'array', code: 'invalid_type', path: ['content'], message: 'Invalid input: expected array, received string' }];

describe('ts-sdk (v1) rows', () => {
  it.each([
    ['StreamableHTTPError with an HTTP status is HTTP_ERROR + status', new StreamableHTTPError(503, 'Error POSTing to endpoint: '), { outcome: 'HTTP_ERROR', status: 503 }],
    ['StreamableHTTPError -1 "Unexpected content type" is INVALID_ENVELOPE', new StreamableHTTPError(-1, 'Unexpected content type: text/html'), { outcome: 'INVALID_ENVELOPE' }],
    ['1.10–1.23 plain Error "(HTTP 503)" is HTTP_ERROR 503', new Error('Error POSTing to endpoint (HTTP 503): busy'), { outcome: 'HTTP_ERROR', status: 503 }],
    ['1.10–1.23 plain Error "(HTTP 404)" is HTTP_ERROR 404', new Error('Error POSTing to endpoint (HTTP 404): Session not found'), { outcome: 'HTTP_ERROR', status: 404 }],
    ['a plain Error with any other text is an adapter gap', new Error('Error POSTing somewhere (HTTP 503)'), { gap: true }],
    ['ZodError of the envelope union is INVALID_ENVELOPE', named('ZodError', JSON.stringify(ENVELOPE_ISSUES), { issues: ENVELOPE_ISSUES }), { outcome: 'INVALID_ENVELOPE' }],
    ['ZodError of the result schema is INVALID_TOOL_RESULT', named('ZodError', JSON.stringify(RESULT_ISSUES), { issues: RESULT_ISSUES }), { outcome: 'INVALID_TOOL_RESULT' }],
    ['a Zod 3 ZodError of the envelope union (unionErrors) is INVALID_ENVELOPE', named('ZodError', 'Invalid input', { issues: [{ code: 'invalid_union', unionErrors: [{}, {}, {}, {}], path: [] }] }), { outcome: 'INVALID_ENVELOPE' }],
    ['SyntaxError from response.json() is MALFORMED_JSON', new SyntaxError('Unexpected token'), { outcome: 'MALFORMED_JSON' }],
    ['a RangeError is an adapter gap', new RangeError('odd'), { gap: true }],
  ])('%s', (_label, error, expected) => {
    expect(v1(error, { toolCallStatuses: [200] })).toEqual(expected);
  });
  it('TypeError "fetch failed" is NO_RESPONSE before a status, STREAM_INCOMPLETE ("terminated") after a 2xx', () => {
    expect(v1(new TypeError('fetch failed'), { toolCallStatuses: [0] })).toEqual({ outcome: 'NO_RESPONSE' });
    expect(v1(new TypeError('terminated'), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('McpError with a code the peer sent for this call is JSONRPC_ERROR + code, even -32001', () => {
    expect(v1(new McpError(-32602, 'Invalid params'), { peerErrorCodes: [-32602] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
    expect(v1(new McpError(-32001, 'Request timed out'), { peerErrorCodes: [-32001] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32001 });
  });
  it('McpError -32001 / -32000 of its own is NO_RESPONSE without a status, STREAM_INCOMPLETE after a 2xx', () => {
    expect(v1(new McpError(-32001, 'Request timed out'), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
    expect(v1(new McpError(-32000, 'Connection closed'))).toEqual({ outcome: 'NO_RESPONSE' });
  });
  it('McpError -32602 / -32600 raised locally (structuredContent against the outputSchema) is INVALID_TOOL_RESULT; another local code is a gap', () => {
    expect(v1(new McpError(-32602, 'Structured content does not match'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(v1(new McpError(-32600, 'Tool x has an output schema but did not return structured content'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(v1(new McpError(-32603, 'odd'))).toEqual({ gap: true });
  });
});

describe('ts-client (v2) rows', () => {
  it.each([
    ['SdkHttpError is HTTP_ERROR + its status', new SdkHttpError('CLIENT_HTTP_NOT_IMPLEMENTED', 'Error POSTing to endpoint: ', { status: 503 }), { outcome: 'HTTP_ERROR', status: 503 }],
    ['SdkError CLIENT_HTTP_UNEXPECTED_CONTENT is INVALID_ENVELOPE', new SdkError('CLIENT_HTTP_UNEXPECTED_CONTENT', 'text/html'), { outcome: 'INVALID_ENVELOPE' }],
    ['SdkError INVALID_RESULT is INVALID_TOOL_RESULT', new SdkError('INVALID_RESULT', 'bad result'), { outcome: 'INVALID_TOOL_RESULT' }],
    ['SdkError UNSUPPORTED_RESULT_TYPE is INVALID_TOOL_RESULT', new SdkError('UNSUPPORTED_RESULT_TYPE', 'odd kind'), { outcome: 'INVALID_TOOL_RESULT' }],
    ['SdkError INPUT_REQUIRED_ROUNDS_EXCEEDED is INPUT_REQUIRED', new SdkError('INPUT_REQUIRED_ROUNDS_EXCEEDED', 'too many rounds'), { outcome: 'INPUT_REQUIRED' }],
    // Recorded (openai-agents, mastra: no handler registered): input-required [2026-07-28].
    ['SdkError CAPABILITY_NOT_SUPPORTED "Cannot fulfil input request" is INPUT_REQUIRED', new SdkError('CAPABILITY_NOT_SUPPORTED', "Cannot fulfil input request 'approval': no handler is registered for 'elicitation/create' on this client."), { outcome: 'INPUT_REQUIRED' }],
    ['SdkError CAPABILITY_NOT_SUPPORTED for anything else is a gap', new SdkError('CAPABILITY_NOT_SUPPORTED', 'Server does not support tools'), { gap: true }],
    ['InsufficientScopeError (a 403 insufficient_scope it cannot step up from) is HTTP_ERROR 403', new InsufficientScopeError({ requiredScope: 'files:write' }), { outcome: 'HTTP_ERROR', status: 403 }],
  ])('%s', (_label, error, expected) => {
    expect(v2(error, { toolCallStatuses: [200] })).toEqual(expected);
  });
  it('ProtocolError with a code the peer sent is JSONRPC_ERROR + code; raised locally (-32602) it is INVALID_TOOL_RESULT', () => {
    expect(v2(new ProtocolError(-32603, 'Internal error'), { peerErrorCodes: [-32603] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32603 });
    expect(v2(new ProtocolError(-32602, 'Invalid elicitation request'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('a local ProtocolError -32602 refusing an elicitation mode the host does not support is INPUT_REQUIRED (recorded: mrtr-url-mode [2026-07-28])', () => {
    expect(v2(new ProtocolError(-32602, 'Client does not support URL-mode elicitation requests'))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(v1(new McpError(-32602, 'Client does not support URL-mode elicitation requests'))).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it('SdkError REQUEST_TIMEOUT / CONNECTION_CLOSED / SEND_FAILED is STREAM_INCOMPLETE after a 2xx, else NO_RESPONSE', () => {
    expect(v2(new SdkError('REQUEST_TIMEOUT', 'timed out'), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
    expect(v2(new SdkError('CONNECTION_CLOSED', 'closed'))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(v2(new SdkError('SEND_FAILED', 'failed'), { toolCallStatuses: [0] })).toEqual({ outcome: 'NO_RESPONSE' });
  });
});

describe('returned results', () => {
  it.each([
    ['2026-07-28', { resultType: 'input_required', requestState: 's' }, 'INPUT_REQUIRED'],
    ['2025-11-25', { resultType: 'input_required', requestState: 's' }, 'TOOL_SUCCESS'],
    ['2025-06-18', { resultType: 'input_required', requestState: 's' }, 'TOOL_SUCCESS'],
    ['2025-03-26', { resultType: 'input_required', requestState: 's' }, 'TOOL_SUCCESS'],
    ['2025-03-26', { content: [], isError: true }, 'TOOL_ERROR'],
    ['2025-06-18', { content: [] }, 'TOOL_SUCCESS'],
  ] as const)('under %s, %j is %s', (version, result, outcome) => {
    expect(brief(mapFor('ts-client')({ returned: result }, { protocolVersion: version }))).toEqual({ outcome });
  });
});
