// One test per row of the langchain mapping table (map-langchain-outcome.mjs). The messages are the
// ones @langchain/mcp-adapters 1.1.4 (over @modelcontextprotocol/sdk 1.32.2) gave against the mock
// server, thrown as its own ToolException and recorded as the worker records them.
import { describe, expect, it } from 'vitest';
import { langchainTools } from '../../../../test/bundled-libraries.js';
import { brief, mapFor, threw, type MapContext } from '../../../../test/map-observation-helpers.js';

const ToolException = langchainTools.ToolException as new (message: string, cause?: unknown) => Error;
const map = mapFor('langchain');
const outcomeOf = (message: string, context: Partial<MapContext> = {}) => brief(map(threw(new ToolException(message)), context));
const mapped = (message: string, context: Partial<MapContext> = {}) => map(threw(new ToolException(message)), context);
/** A ToolException with a cause whose message is `causeText`, as langchain keeps a prettified ZodError. */
const withCause = (message: string, causeText: string) => {
  const error = new ToolException(message);
  (error as { cause?: unknown }).cause = new Error(causeText);
  return map(threw(error));
};
interface LangchainModule {
  readSdkErrorText(text: string): Record<string, unknown> | undefined;
}
// A literal path, so `vitest related` selects this file for the module.
const { readSdkErrorText } = (await import('./map-langchain-outcome.mjs' as string)) as LangchainModule;

describe('langchain mapping', () => {
  it('a resolved value (text or content blocks) is TOOL_SUCCESS', () => {
    expect(map({ returned: 'ok' })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'invoke returned text' } });
    expect(map({ returned: [{ type: 'image' }] })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'invoke returned 1 content block(s)' } });
  });
  it('ToolException "returned an error" (isError: true) is TOOL_ERROR', () => {
    expect(outcomeOf("MCP tool 'synthetic_tool' on server 'matrix' returned an error: failed")).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('ToolException "returned an invalid result" / "unexpected type" is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf("MCP tool 'synthetic_tool' on server 'matrix' returned an invalid result - tool call response was undefined")).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
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
    expect(peer("MCP tool 'synthetic_tool' on server 'matrix' returned an invalid result - tool call response was undefined")).toEqual({ outcome: 'JSONRPC_ERROR', code: -32603 });
    expect(outcomeOf('Error calling tool synthetic_tool: Error: Streamable HTTP error: Error POSTing to endpoint: the tool returned an invalid result', { toolCallStatuses: [503] })).toEqual({ outcome: 'HTTP_ERROR' });
    expect(outcomeOf(`Error calling tool synthetic_tool: SyntaxError: Unexpected token 'r', "returned a"... is not valid JSON`)).toEqual({ outcome: 'MALFORMED_JSON' });
    expect(outcomeOf('Error calling tool synthetic_tool: Error: Streamable HTTP error: Unexpected content type: text/plain; note="Streamable HTTP error: Error POSTing to endpoint"')).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('anything else (e.g. ToolInputParsingException) is an adapter gap', () => {
    const error = Object.assign(new Error('Received tool input did not match expected schema'), { name: 'ToolInputParsingException' });
    expect(map(threw(error))).toEqual({ gap: 'langchain has no mapping for a thrown Error (ToolInputParsingException): Received tool input did not match expected schema' });
    expect(outcomeOf('Error calling tool x: RangeError: odd')).toEqual({ gap: true });
  });
});

describe("langchain mapping: each row keeps the library's words", () => {
  it('a row read from the SDK error names the ToolException and what it was read as; a code only where the SDK error had one', () => {
    expect(mapped('Error calling tool synthetic_tool: McpError: MCP error -32602: Invalid params', { toolCallStatuses: [200], peerErrorCodes: [-32602] })).toStrictEqual({
      verdict: { outcome: 'JSONRPC_ERROR', code: -32602, detail: 'ToolException: Error calling tool synthetic_tool: McpError: MCP error -32602: Invalid params (read as McpError -32602: MCP error -32602: Invalid params)' },
    });
    expect(mapped("Error calling tool x: SyntaxError: Expected property name or '}' in JSON at position 1")).toStrictEqual({
      verdict: { outcome: 'MALFORMED_JSON', detail: "ToolException: Error calling tool x: SyntaxError: Expected property name or '}' in JSON at position 1 (read as SyntaxError: Expected property name or '}' in JSON at position 1)" },
    });
  });
  it('over an SDK of 1.18-1.23 (langchain 1.0.0 asks for ^1.18.2), a refused POST is a plain Error with the status in its text: HTTP_ERROR keeps that status', () => {
    expect(mapped('Error calling tool synthetic_tool: Error: Error POSTing to endpoint (HTTP 503): busy', { toolCallStatuses: [503] })).toStrictEqual({
      verdict: { outcome: 'HTTP_ERROR', status: 503, detail: 'ToolException: Error calling tool synthetic_tool: Error: Error POSTing to endpoint (HTTP 503): busy (read as Error: Error POSTing to endpoint (HTTP 503): busy)' },
    });
  });
  it('"Error POSTing to endpoint" says the status is not in the message', () => {
    expect(mapped('Error calling tool x: Error: Streamable HTTP error: Error POSTing to endpoint: busy', { toolCallStatuses: [503] })).toStrictEqual({
      verdict: { outcome: 'HTTP_ERROR', detail: 'ToolException: Error calling tool x: Error: Streamable HTTP error: Error POSTing to endpoint: busy (the status is not in the message)' },
    });
  });
  it("a prettified ZodError names the SDK schema it is read as: the message envelope's or a result's", () => {
    expect(withCause('✖ Invalid input', '✖ Invalid input')).toEqual({ verdict: { outcome: 'INVALID_ENVELOPE', detail: "ToolException: ✖ Invalid input (a ZodError of the SDK's message envelope schema)" } });
    expect(withCause('✖ Invalid input', '✖ Invalid input\n  → at content')).toEqual({ verdict: { outcome: 'INVALID_TOOL_RESULT', detail: "ToolException: ✖ Invalid input (a ZodError of the SDK's result schema)" } });
  });
  it("an SDK error the v1 rows do not hold is a gap in langchain's name, with the ToolException's words", () => {
    expect(mapped('Error calling tool x: RangeError: odd')).toEqual({ gap: 'langchain has no mapping for a thrown ToolException: Error calling tool x: RangeError: odd' });
  });
  it("a ToolException that is neither langchain's result words nor 'Error calling tool' is a gap (its header-changes refusal)", () => {
    // tools.js: a beforeToolCall hook that changes headers on a client that cannot fork.
    expect(mapped('MCP client for server "matrix" does not support header changes')).toEqual({ gap: 'langchain has no mapping for a thrown ToolException: MCP client for server "matrix" does not support header changes' });
  });
  it('only the SDK\'s StreamableHTTPError (named "Error") is the "Error POSTing to endpoint" row: the same words under another name are a gap', () => {
    expect(outcomeOf('Error calling tool x: TypeError: Streamable HTTP error: Error POSTing to endpoint: ', { toolCallStatuses: [503] })).toEqual({ gap: true });
  });
  it("only a ToolException is read: langchain's words in another class are an adapter gap", () => {
    expect(map(threw(new Error("MCP tool 'x' on server 'matrix' returned an error: failed")))).toEqual({ gap: "langchain has no mapping for a thrown Error: MCP tool 'x' on server 'matrix' returned an error: failed" });
  });
  it('a positive JSON-RPC code the server sent is read back as the peer\'s code', () => {
    expect(outcomeOf('Error calling tool x: McpError: MCP error 42: custom', { peerErrorCodes: [42] })).toEqual({ outcome: 'JSONRPC_ERROR', code: 42 });
  });
  it('a ZodError: prefixed issue list of the envelope union is INVALID_ENVELOPE too', () => {
    const branch = [{ expected: 'object', code: 'invalid_type', path: [], message: 'Invalid input' }];
    const envelope = [{ code: 'invalid_union', errors: [branch, branch, branch, branch], path: [], message: 'Invalid input' }];
    expect(outcomeOf(`Error calling tool synthetic_tool: ZodError: ${JSON.stringify(envelope, null, 2)}`)).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
});

describe('langchain mapping: reading a prettified ZodError cause', () => {
  it('a cause that is not a prettified ZodError ("✖ …") is not read as one: the message is read instead', () => {
    expect(brief(withCause('Error calling tool x: SyntaxError: Unexpected end of JSON input', 'Unexpected end of JSON input'))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('an issue is a "✖" line and the "→ at" line under it: other lines (a message running over two lines) add no issue and no path', () => {
    expect(brief(withCause('✖ Invalid input', '✖ Invalid input\nsecond line of that message'))).toEqual({ outcome: 'INVALID_ENVELOPE' });
    expect(brief(withCause('✖ Invalid input', '✖ Invalid input\nthe value → at the root was odd'))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
});

describe('langchain: reading the SDK error back from its String()', () => {
  it("an McpError's code is read from the start of its message only", () => {
    expect(readSdkErrorText('McpError: MCP error -32602: Invalid params')).toEqual({ class: 'McpError', name: 'McpError', message: 'MCP error -32602: Invalid params', code: -32602 });
    expect(readSdkErrorText('McpError: oops, MCP error -32602: Invalid params')).toEqual({ class: 'McpError', name: 'McpError', message: 'oops, MCP error -32602: Invalid params' });
    expect(readSdkErrorText('Error: MCP error -32602: Invalid params')).toEqual({ class: 'Error', name: 'Error', message: 'MCP error -32602: Invalid params' });
  });
  it('a StreamableHTTPError is an Error whose message starts "Streamable HTTP error: "; only "Unexpected content type" right after it is its -1', () => {
    expect(readSdkErrorText('Error: Streamable HTTP error: Unexpected content type: text/html')).toEqual({ class: 'StreamableHTTPError', name: 'Error', message: 'Streamable HTTP error: Unexpected content type: text/html', code: -1 });
    // The refused POST's body is the server's words.
    const body = 'Error: Streamable HTTP error: Error POSTing to endpoint: Streamable HTTP error: Unexpected content type';
    expect(readSdkErrorText(body)).toEqual({ class: 'StreamableHTTPError', name: 'Error', message: body.slice('Error: '.length) });
    expect(readSdkErrorText('TypeError: Streamable HTTP error: odd')).toEqual({ class: 'TypeError', name: 'TypeError', message: 'Streamable HTTP error: odd' });
    expect(readSdkErrorText('Error: fetch failed')).toEqual({ class: 'Error', name: 'Error', message: 'fetch failed' });
  });
  it('a text is "Name: message" from its start, or it is not an SDK error', () => {
    expect(readSdkErrorText('odd text Foo: bar')).toBeUndefined();
    expect(readSdkErrorText('no name here')).toBeUndefined();
    expect(readSdkErrorText(' ZodError: [{"code":"custom","path":[],"message":"x"}]')).toBeUndefined();
  });
  it('a Zod issue list (with or without "ZodError: ", after JSON whitespace) is a ZodError with those issues', () => {
    const issues = [{ code: 'invalid_type', path: ['content'], message: 'Invalid input' }];
    const text = JSON.stringify(issues);
    expect(readSdkErrorText(`ZodError: ${text}`)).toEqual({ class: 'ZodError', name: 'ZodError', message: `ZodError: ${text}`, issues });
    expect(readSdkErrorText(text)).toEqual({ class: 'ZodError', name: 'ZodError', message: text, issues });
    expect(readSdkErrorText(`\n${text}`)).toEqual({ class: 'ZodError', name: 'ZodError', message: `\n${text}`, issues });
  });
  it('a JSON array is a Zod issue list only when every item is an object with a string code', () => {
    for (const text of ['[1]', '[{"code":1}]', '[{}]', '[{"code":"custom"},1]', '[null]']) {
      expect(readSdkErrorText(text), text).toBeUndefined();
    }
    expect(readSdkErrorText('[not json')).toBeUndefined();
  });
});
