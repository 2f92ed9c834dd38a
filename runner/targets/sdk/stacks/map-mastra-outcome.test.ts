// One test per row of the mastra mapping table (map-mastra-outcome.mjs), with the shapes
// @mastra/mcp 2.0.0 gave against the mock server (its v2 client, @modelcontextprotocol/client 2.0.0;
// the v2 error classes here are the bundled 2.4.0's, brand-matched across copies).
import { describe, expect, it } from 'vitest';
import { v2Client } from '../../../../test/bundled-libraries.js';
import { brief, mapFor, threw, type MapContext } from '../../../../test/map-observation-helpers.js';

type Ctor<A extends unknown[]> = new (...args: A) => Error;
const ProtocolError = v2Client.ProtocolError as Ctor<[number, string, unknown?]>;
const SdkError = v2Client.SdkError as Ctor<[string, string, unknown?]>;
const SdkHttpError = v2Client.SdkHttpError as Ctor<[string, string, unknown?]>;

/** MastraError as @mastra/core 1.x builds it: an Error with id, domain, category and details. */
class MastraError extends Error {
  readonly id: string;
  readonly domain = 'MCP';
  readonly category = 'THIRD_PARTY';
  constructor(id: string, message: string, readonly details: Record<string, unknown> = {}) {
    super(message);
    this.id = id;
  }
}

const map = mapFor('mastra');
const outcomeOf = (error: unknown, context: Partial<MapContext> = {}) => brief(map(threw(error, v2Client), context));

describe('mastra mapping: returned values', () => {
  it('the result (no structuredContent) is TOOL_SUCCESS', () => {
    // Recorded: baseline [2025-11-25] → {"content":[{"type":"text","text":"ok"}],"isError":false}.
    expect(map({ returned: { content: [{ type: 'text', text: 'ok' }], isError: false } })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned the result (1 content block(s))' } });
  });
  it('a result with structuredContent resolves with the structured content alone: TOOL_SUCCESS, the value in the detail', () => {
    // Recorded: structured-content-array [2026-07-28] → [1,2,3]; structured-content-null → null.
    expect(map({ returned: [1, 2, 3] })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned the structured content: [1,2,3]' } });
    expect(map({ returned: null })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned the structured content: null' } });
  });
  it('an output validation error is returned, not thrown: INVALID_TOOL_RESULT', () => {
    const returned = { error: true, message: 'Tool output validation failed for matrix_synthetic_tool. The tool returned invalid output:\n- count: Expected number', validationErrors: { count: { errors: ['Expected number'] } } };
    expect(brief(map({ returned }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an input validation error (our arguments against the advertised schema) is an adapter gap', () => {
    const returned = { error: true, message: 'Tool input validation failed for matrix_synthetic_tool. Please fix the following errors', validationErrors: {} };
    expect(brief(map({ returned }))).toEqual({ gap: true });
  });
});

describe('mastra mapping: thrown errors', () => {
  it('a result with isError: true is thrown as MastraError MCP_CLIENT_TOOL_EXECUTION_FAILED: TOOL_ERROR', () => {
    // Recorded: tool-is-error [2025-11-25] → MastraError MCP_CLIENT_TOOL_EXECUTION_FAILED "failed".
    expect(outcomeOf(new MastraError('MCP_CLIENT_TOOL_EXECUTION_FAILED', 'failed', { toolName: 'synthetic_tool', serverName: 'matrix' }))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('any other MastraError is an adapter gap', () => {
    expect(outcomeOf(new MastraError('MCP_CLIENT_OUTPUT_SCHEMA_TOO_COMPLEX', 'MCP tool "x" has a schema that is too complex'))).toEqual({ gap: true });
  });
  it('the v2 client errors pass through unchanged and follow its rows', () => {
    expect(outcomeOf(new SdkHttpError('CLIENT_HTTP_NOT_IMPLEMENTED', 'Error POSTing to endpoint: {"jsonrpc":"2.0","id":2,"error":{"code":-32603}}', { status: 500 }))).toEqual({ outcome: 'HTTP_ERROR', status: 500 });
    expect(outcomeOf(new ProtocolError(-32602, 'synthetic invalid params'), { toolCallStatuses: [200], peerErrorCodes: [-32602] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
    expect(outcomeOf(new SdkError('INVALID_RESULT', 'Invalid result for tools/call: [{"expected":"array"}]'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(new SdkError('CAPABILITY_NOT_SUPPORTED', "Cannot fulfil input request 'approval': no handler is registered for 'elicitation/create' on this client."))).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it('its own per-request timeout is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    const timedOut = new SdkError('REQUEST_TIMEOUT', 'Request timed out');
    expect(outcomeOf(timedOut)).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(timedOut, { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('a reset connection, after its one reconnect and retry, is NO_RESPONSE (TypeError "fetch failed")', () => {
    // Recorded: no-response-reset [2026-07-28] → TypeError: fetch failed (the tools/call was sent twice).
    expect(outcomeOf(new TypeError('fetch failed'), { toolCallStatuses: [0] })).toEqual({ outcome: 'NO_RESPONSE' });
  });
});
