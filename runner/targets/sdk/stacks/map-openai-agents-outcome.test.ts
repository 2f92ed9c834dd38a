// One test per row of the openai-agents mapping table (map-openai-agents-outcome.mjs): what
// @openai/agents 0.20.0 (over @modelcontextprotocol/client 2.4.0) gave against the mock server,
// recorded as the worker records it and mapped through the contract.
import { describe, expect, it } from 'vitest';
import { v2Client } from '../../../../test/bundled-libraries.js';
import { brief, mapFor, threw, type MapContext } from '../../../../test/map-observation-helpers.js';

type Ctor<A extends unknown[]> = new (...args: A) => Error;
const ProtocolError = v2Client.ProtocolError as Ctor<[number, string, unknown?]>;
const SdkError = v2Client.SdkError as Ctor<[string, string, unknown?]>;
const SdkHttpError = v2Client.SdkHttpError as Ctor<[string, string, unknown?]>;
const map = mapFor('openai-agents');
const outcomeOf = (error: unknown, context: Partial<MapContext> = {}) => brief(map(threw(error, v2Client), context));

describe('openai-agents mapping: returned values', () => {
  it('callTool resolves with the content array: TOOL_SUCCESS even for a tool error (the host reads no error flag)', () => {
    // Recorded: tool-is-error [2025-11-25] → callTool returned [{"type":"text","text":"failed"}].
    const mapped = map({ returned: [{ type: 'text', text: 'failed' }] });
    expect(mapped).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'callTool returned 1 content block(s), with no error flag the host reads' } });
  });
  it('a value that is not an array is TOOL_SUCCESS with the value in the detail', () => {
    expect(map({ returned: { odd: true } })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'callTool returned a non-array: {"odd":true}' } });
  });
});

describe('openai-agents mapping: thrown errors follow the v2 rows', () => {
  it('an input request it has no handler for (SdkError CAPABILITY_NOT_SUPPORTED) is INPUT_REQUIRED', () => {
    const error = new SdkError('CAPABILITY_NOT_SUPPORTED', "Cannot fulfil input request 'confirm': no handler is registered for 'elicitation/create' on this client.");
    expect(outcomeOf(error)).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it('SdkHttpError is HTTP_ERROR + its status (also when the body is a JSON-RPC error)', () => {
    // Recorded: http-500-jsonrpc-error-body [2026-07-28] → SdkHttpError, data.status 500.
    const error = new SdkHttpError('CLIENT_HTTP_NOT_IMPLEMENTED', 'Error POSTing to endpoint: {"jsonrpc":"2.0","id":0,"error":{"code":-32603}}', { status: 500 });
    expect(outcomeOf(error)).toEqual({ outcome: 'HTTP_ERROR', status: 500 });
  });
  it('a ProtocolError with a code the peer sent is JSONRPC_ERROR + code; a local one is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf(new ProtocolError(-32022, 'Unsupported protocol version'), { toolCallStatuses: [400], peerErrorCodes: [-32022] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32022 });
    expect(outcomeOf(new ProtocolError(-32602, 'Invalid elicitation request'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('the v2 client timing out is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    expect(outcomeOf(new SdkError('REQUEST_TIMEOUT', 'Request timed out'))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(new SdkError('REQUEST_TIMEOUT', 'Request timed out'), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('SyntaxError (a JSON body that does not parse) is MALFORMED_JSON', () => {
    expect(outcomeOf(new SyntaxError("Expected property name or '}' in JSON at position 1"))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('anything else (e.g. "Server not initialized") is an adapter gap naming the library\'s words', () => {
    expect(map(threw(new Error('Server not initialized. Make sure you call connect() first.'), v2Client))).toEqual({ gap: 'openai-agents has no mapping for a thrown Error: Server not initialized. Make sure you call connect() first.' });
  });
});
