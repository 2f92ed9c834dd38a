// One test per row of the ai-sdk mapping table (map-ai-sdk-outcome.mjs), with the error shapes
// @ai-sdk/mcp 2.0.99 produced against the mock server, built with its own MCPClientError and
// recorded as the worker records them.
import { describe, expect, it } from 'vitest';
import { aiSdk } from '../../../../test/bundled-libraries.js';
import { brief, mapFor, threw, type MapContext } from '../../../../test/map-observation-helpers.js';

type ErrorClass = new (options: { message: string; code?: number; statusCode?: number; cause?: unknown }) => Error;
const MCPClientError = aiSdk.MCPClientError as ErrorClass;
const map = mapFor('ai-sdk');
const outcomeOf = (error: unknown, context: Partial<MapContext> = {}) => brief(map(threw(error, aiSdk), context));
const client = (message: string, extra: { code?: number; statusCode?: number; cause?: unknown } = {}) => new MCPClientError({ message, ...extra });

describe('ai-sdk mapping: returned values', () => {
  it('a result with isError: true is TOOL_ERROR (execute returns it instead of throwing)', () => {
    expect(brief(map({ returned: { content: [{ type: 'text', text: 'boom' }], isError: true } }))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('any other value is TOOL_SUCCESS (structured content included)', () => {
    expect(brief(map({ returned: { content: [{ type: 'text', text: 'ok' }] } }))).toEqual({ outcome: 'TOOL_SUCCESS' });
    expect(brief(map({ returned: { answer: 42 } }))).toEqual({ outcome: 'TOOL_SUCCESS' });
  });
});

describe("ai-sdk mapping: each row keeps the library's words", () => {
  it('a returned value says whether it carried isError: true', () => {
    expect(map({ returned: { content: [], isError: true } })).toEqual({ verdict: { outcome: 'TOOL_ERROR', detail: 'execute returned a result with isError: true' } });
    expect(map({ returned: { content: [], isError: 'true' } })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned a result' } });
  });
  it('a value that is no object (null, a text, a value JSON cannot write) is TOOL_SUCCESS, read without failing', () => {
    for (const returned of [null, undefined, 'ok', 42]) {
      expect(map({ returned })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned a result' } });
    }
  });
  it('a thrown row names the class and the message', () => {
    expect(map(threw(client('MCP HTTP Transport Error: POSTing to endpoint (HTTP 503): busy', { statusCode: 503 }), aiSdk))).toEqual({ verdict: { outcome: 'HTTP_ERROR', status: 503, detail: 'MCPClientError (status 503): MCP HTTP Transport Error: POSTing to endpoint (HTTP 503): busy' } });
    expect(map(threw(client('Modern MCP result is missing resultType'), aiSdk))).toEqual({ verdict: { outcome: 'INVALID_TOOL_RESULT', detail: 'the AI SDK rejected the result: MCPClientError: Modern MCP result is missing resultType' } });
    expect(map(threw(client('Invalid params', { code: -32602 }), aiSdk))).toEqual({ verdict: { outcome: 'JSONRPC_ERROR', code: -32602, detail: 'MCPClientError -32602: Invalid params' } });
  });
});

describe('ai-sdk mapping: thrown errors', () => {
  it('MCPClientError with the peer code is JSONRPC_ERROR + code (also for a non-2xx whose body is a JSON-RPC error)', () => {
    expect(outcomeOf(client('Invalid params', { code: -32602 }), { toolCallStatuses: [400] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
  });
  it('MCPClientError with a statusCode outside 2xx ("POSTing to endpoint (HTTP n)") is HTTP_ERROR + statusCode', () => {
    expect(outcomeOf(client('MCP HTTP Transport Error: POSTing to endpoint (HTTP 503): ', { statusCode: 503 }))).toEqual({ outcome: 'HTTP_ERROR', status: 503 });
  });
  it('MCPClientError "Unexpected content type" is INVALID_ENVELOPE', () => {
    expect(outcomeOf(client('MCP HTTP Transport Error: Unexpected content type: text/html', { statusCode: 200 }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('MCPClientError "Protocol error: Received a response for an unknown message ID" is INVALID_ENVELOPE', () => {
    // Recorded: wrong-response-id [2025-11-25], thrown 40 ms into the call.
    expect(outcomeOf(client('Protocol error: Received a response for an unknown message ID: {"jsonrpc":"2.0","id":999,"result":{}}'))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('MCPClientError "text/event-stream response without body" is STREAM_INCOMPLETE', () => {
    expect(outcomeOf(client('MCP HTTP Transport Error: text/event-stream response without body', { statusCode: 200 }))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('"Request was aborted" (the host\'s deadline) is NO_RESPONSE without a status, STREAM_INCOMPLETE after a 2xx', () => {
    const aborted = () => client('Request was aborted', { cause: new DOMException('The operation was aborted due to timeout', 'TimeoutError') });
    expect(outcomeOf(aborted())).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(aborted(), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
    expect(outcomeOf(client('Request timed out after 2000ms'), { toolCallStatuses: [503] })).toEqual({ outcome: 'NO_RESPONSE' });
  });
  it('a result the client rejects (schema, missing resultType, outputSchema) is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf(client('Failed to parse server response', { cause: new Error('zod') }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(client('Modern MCP result is missing resultType'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(client('Input-required results are not supported for tools/call on protocol 2025-11-25'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(client('Tool "x" returned structuredContent that does not match the expected outputSchema'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an input request it cannot or will not fulfil is INPUT_REQUIRED', () => {
    expect(outcomeOf(client('Request still requires input after 10 rounds'))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(outcomeOf(client('Unsupported input request: sampling/createMessage. Only form elicitation is supported.'))).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it('"Failed to process server response" is mapped by its cause: an envelope ZodError, a result ZodError, a SyntaxError', () => {
    const zod = (issues: unknown[]) => Object.assign(new Error(JSON.stringify(issues)), { name: 'ZodError', issues });
    const envelope = [{ code: 'invalid_union', errors: [[], [], [], []], path: [], message: 'Invalid input' }];
    const result = [{ code: 'invalid_type', path: ['content'], message: 'Invalid input' }];
    // Recorded: content-missing [2026-07-28]: its CallToolResultSchema is a union of two at the root.
    const resultUnion = [{ code: 'invalid_union', errors: [[{ code: 'invalid_union', path: [] }], [{ code: 'invalid_type', expected: 'nonoptional', path: ['toolResult'] }]], path: [], message: 'Invalid input' }];
    expect(outcomeOf(client('Failed to process server response', { cause: zod(resultUnion) }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(client('Failed to process server response', { cause: new SyntaxError('Unexpected token') }))).toEqual({ outcome: 'MALFORMED_JSON' });
    expect(outcomeOf(client('Failed to process server response', { cause: zod(envelope) }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
    expect(outcomeOf(client('Failed to process server response', { cause: zod(result) }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('SyntaxError / AI_JSONParseError is MALFORMED_JSON', () => {
    expect(outcomeOf(new SyntaxError('Unexpected end of JSON input'))).toEqual({ outcome: 'MALFORMED_JSON' });
    expect(outcomeOf(Object.assign(new Error('JSON parsing failed'), { name: 'AI_JSONParseError' }))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('a failed fetch is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    expect(outcomeOf(new TypeError('fetch failed'))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(new TypeError('terminated'), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it("a server's words inside the library's text never pick the row: the transport's texts are read only where it puts them", () => {
    // "Received a response for an unknown message ID: <the server's message as JSON>" carries whatever
    // the server wrote; the transport's own texts start with "MCP HTTP Transport Error: ".
    const unknownId = (text: string) => client(`Protocol error: Received a response for an unknown message ID: ${JSON.stringify({ jsonrpc: '2.0', id: 999, result: { content: [{ type: 'text', text }] } })}`);
    expect(outcomeOf(unknownId('MCP HTTP Transport Error: text/event-stream response without body'), { toolCallStatuses: [200] })).toEqual({ outcome: 'INVALID_ENVELOPE' });
    expect(map(threw(unknownId('Unexpected content type: text/html'), aiSdk))).toMatchObject({ verdict: { outcome: 'INVALID_ENVELOPE', detail: expect.stringMatching(/^MCPClientError: Protocol error: Received a response for an unknown message ID/) } });
  });
  it("the library's texts that carry a server's words (an input request's method, a tool's name) are read by their own row", () => {
    // "Unsupported input request: <method>": the method is the server's input request's.
    expect(outcomeOf(client('Unsupported input request: Request timed out. Only form elicitation is supported.'), { toolCallStatuses: [200] })).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(outcomeOf(client('Unsupported input request: Protocol error: Received a response for an unknown message ID. Only form elicitation is supported.'))).toEqual({ outcome: 'INPUT_REQUIRED' });
    // 'Tool "<name>" …' and 'Failed to create MCP headers for tool "<name>"': the name is the one the server listed.
    expect(outcomeOf(client('Tool "Unsupported input request" did not return structuredContent or parseable text content'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(client('Tool "Failed to process server response" did not return structuredContent or parseable text content'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(client('Failed to create MCP headers for tool "Failed to parse server response"', { cause: new Error('odd') }))).toEqual({ gap: true });
    expect(outcomeOf(client('Failed to create MCP headers for tool "Input-required results are not supported"', { cause: new Error('odd') }))).toEqual({ gap: true });
  });
  it('a statusCode of 299 is still a 2xx: the row reads the text, not HTTP_ERROR', () => {
    // A server answering 299 with a body that is neither JSON nor an event stream.
    expect(outcomeOf(client('MCP HTTP Transport Error: Unexpected content type: text/html', { statusCode: 299 }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
    expect(outcomeOf(client('MCP HTTP Transport Error: POSTing to endpoint (HTTP 300): ', { statusCode: 300 }))).toEqual({ outcome: 'HTTP_ERROR', status: 300 });
  });
  it('"Failed to process server response" whose cause the record does not hold is an adapter gap', () => {
    // observe-call keeps three levels of causes; a cause past them is not in the record.
    expect(map(threw(client('Failed to process server response'), aiSdk))).toEqual({ gap: 'ai-sdk has no mapping for a thrown MCPClientError: Failed to process server response' });
  });
  it("anything else is an adapter gap naming the library's words", () => {
    expect(outcomeOf(new RangeError('odd'))).toEqual({ gap: true });
    expect(map(threw(client('Attempted to send a request from a closed client'), aiSdk))).toEqual({ gap: 'ai-sdk has no mapping for a thrown MCPClientError: Attempted to send a request from a closed client' });
  });
});
