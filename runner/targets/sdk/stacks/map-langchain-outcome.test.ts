// One test per row of the langchain mapping table (map-langchain-outcome.mjs). The messages are the
// ones @langchain/mcp-adapters 1.1.4 (over @modelcontextprotocol/sdk 1.32.2) gave against the mock
// server, thrown as its own ToolException and recorded as the worker records them.
import { describe, expect, it } from 'vitest';
import { langchainTools } from '../../../../test/bundled-libraries.js';
import { brief, mapFor, threw, type MapContext } from '../../../../test/map-observation-helpers.js';

const ToolException = langchainTools.ToolException as new (message: string, cause?: unknown) => Error;
const map = mapFor('langchain');
const outcomeOf = (message: string, context: Partial<MapContext> = {}) => brief(map(threw(new ToolException(message)), context));

describe('langchain mapping', () => {
  it('a resolved value (text or content blocks) is TOOL_SUCCESS', () => {
    expect(map({ returned: 'ok' })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'invoke returned text' } });
    expect(map({ returned: [{ type: 'image' }] })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'invoke returned 1 content block(s)' } });
  });
  it('ToolException "returned an error" (isError: true) is TOOL_ERROR', () => {
    expect(outcomeOf("MCP tool 'synthetic_tool' on server 'matrix' returned an error: failed")).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('ToolException "returned an invalid result" / "unexpected type" is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf("MCP tool 'x' on server 'matrix' returned an invalid result - expected an array of content, but was undefined")).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(`MCP tool 'x' on server 'matrix' returned a content block with unexpected type "video."`)).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an McpError with a code the peer sent is JSONRPC_ERROR + code; a local -32602 is INVALID_TOOL_RESULT', () => {
    const message = 'Error calling tool synthetic_tool: McpError: MCP error -32602: Invalid params';
    expect(outcomeOf(message, { toolCallStatuses: [200], peerErrorCodes: [-32602] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
    expect(outcomeOf(message, { toolCallStatuses: [200] })).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an McpError -32001 (its own timeout) not from the peer is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    const message = 'Error calling tool synthetic_tool: McpError: MCP error -32001: Request timed out';
    expect(outcomeOf(message)).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(message, { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('"Streamable HTTP error: Unexpected content type" is INVALID_ENVELOPE', () => {
    expect(outcomeOf('Error calling tool x: Error: Streamable HTTP error: Unexpected content type: text/html')).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('"Error POSTing to endpoint" is HTTP_ERROR without a status (String() drops the code)', () => {
    expect(outcomeOf('Error calling tool delete_record: Error: Streamable HTTP error: Error POSTing to endpoint: ', { toolCallStatuses: [503] })).toEqual({ outcome: 'HTTP_ERROR' });
  });
  it('SyntaxError is MALFORMED_JSON', () => {
    expect(outcomeOf("Error calling tool x: SyntaxError: Expected property name or '}' in JSON at position 1")).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('a failed fetch is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    expect(outcomeOf('Error calling tool x: TypeError: fetch failed', { toolCallStatuses: [0] })).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf('Error calling tool x: TypeError: terminated', { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it("a ZodError's raw issue array (Zod 4's message) is read as the SDK's ZodError: the envelope union's is INVALID_ENVELOPE, a result schema's INVALID_TOOL_RESULT", () => {
    const branch = [{ expected: 'object', code: 'invalid_type', path: [], message: 'Invalid input: expected object, received string' }];
    const envelope = [{ code: 'invalid_union', errors: [branch, branch, branch, branch], path: [], message: 'Invalid input' }];
    const result = [{ expected: 'array', code: 'invalid_type', path: ['content'], message: 'Invalid input: expected array, received string' }];
    expect(outcomeOf(`Error calling tool synthetic_tool: ${JSON.stringify(envelope, null, 2)}`)).toEqual({ outcome: 'INVALID_ENVELOPE' });
    expect(outcomeOf(`Error calling tool synthetic_tool: ZodError: ${JSON.stringify(result, null, 2)}`)).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it("a ZodError of langchain's own Zod (kept as a prettified cause) is the SDK's envelope at the root, a result's with a path", () => {
    // Recorded: body-json-string [2025-11-25] → ToolException "✖ Invalid input", cause Error "✖ Invalid input".
    const envelope = new ToolException('✖ Invalid input', Object.assign(new Error('x'), { name: 'ZodError' }));
    (envelope as { cause?: unknown }).cause = new Error('✖ Invalid input');
    expect(brief(map(threw(envelope)))).toEqual({ outcome: 'INVALID_ENVELOPE' });
    const result = new ToolException('✖ Invalid input\n  → at content[0].text');
    (result as { cause?: unknown }).cause = new Error('✖ Invalid input\n  → at content[0].text');
    expect(brief(map(threw(result)))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it("only one issue at the root is the envelope's: several issues are a result's, even when the first has no path", () => {
    const text = '✖ Invalid input\n✖ Invalid input\n  → at content[0].text';
    const error = new ToolException(text);
    (error as { cause?: unknown }).cause = new Error(text);
    expect(map(threw(error))).toMatchObject({ verdict: { outcome: 'INVALID_TOOL_RESULT', detail: expect.stringMatching(/\(a ZodError of the SDK's result schema\)$/) } });
    const two = new ToolException('✖ Invalid input\n✖ Required');
    (two as { cause?: unknown }).cause = new Error('✖ Invalid input\n✖ Required');
    expect(brief(map(threw(two)))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it("a server's words inside the library's text never pick the row: only langchain's own ToolException texts are read where langchain puts them", () => {
    // The SDK's McpError carries the server's error message, StreamableHTTPError the body of a refused
    // POST and the Content-Type header, V8's SyntaxError a piece of the body: langchain puts all of
    // them into "Error calling tool …: <String(error)>", after its own words.
    const peer = (message: string) => outcomeOf(`Error calling tool synthetic_tool: McpError: MCP error -32603: ${message}`, { toolCallStatuses: [200], peerErrorCodes: [-32603] });
    expect(peer("MCP tool 'synthetic_tool' on server 'matrix' returned an error: failed")).toEqual({ outcome: 'JSONRPC_ERROR', code: -32603 });
    expect(peer('the tool returned an invalid result')).toEqual({ outcome: 'JSONRPC_ERROR', code: -32603 });
    expect(peer('a content block with unexpected type')).toEqual({ outcome: 'JSONRPC_ERROR', code: -32603 });
    expect(outcomeOf('Error calling tool synthetic_tool: Error: Streamable HTTP error: Error POSTing to endpoint: the tool returned an invalid result', { toolCallStatuses: [503] })).toEqual({ outcome: 'HTTP_ERROR' });
    expect(outcomeOf(`Error calling tool synthetic_tool: SyntaxError: Unexpected token 'r', "returned a"... is not valid JSON`)).toEqual({ outcome: 'MALFORMED_JSON' });
    expect(outcomeOf('Error calling tool synthetic_tool: Error: Streamable HTTP error: Unexpected content type: text/plain; note="Error POSTing to endpoint"')).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('anything else (e.g. ToolInputParsingException) is an adapter gap', () => {
    const error = Object.assign(new Error('Received tool input did not match expected schema'), { name: 'ToolInputParsingException' });
    expect(map(threw(error))).toEqual({ gap: 'langchain has no mapping for a thrown Error (ToolInputParsingException): Received tool input did not match expected schema' });
    expect(outcomeOf('Error calling tool x: RangeError: odd')).toEqual({ gap: true });
  });
});
