// One test per row of the ai-sdk mapping table (map-ai-sdk-outcome.mjs), with the error shapes
// @ai-sdk/mcp 2.0.99 produced against the mock server (recorded by hand-checks, see README).
import { describe, expect, it } from 'vitest';
import type { MappedVerdict, MapperCellLog as CellLog } from '../../../../test/sdk-mapper-types.js';
import { packagePath } from '../../../package-paths.js';
import { pathToFileURL } from 'node:url';

interface MapModule {
  mapAiSdkResult(result: unknown): NonNullable<MappedVerdict>;
  mapAiSdkError(error: unknown, log: CellLog): MappedVerdict;
}
type ErrorClass = new (options: { message: string; code?: number; statusCode?: number; cause?: unknown }) => Error;

// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const mapper = (await import('./map-ai-sdk-outcome.mjs' as string)) as MapModule;
// The real error class of the bundled version, so `name` and the fields are the library's own.
const { MCPClientError } = (await import(pathToFileURL(packagePath('node_modules', 'ai-sdk-mcp-2.0.99', 'dist', 'index.js')).href)) as { MCPClientError: ErrorClass };

const log = (statuses: number[] = []): CellLog => ({ statuses, notes: [] });
const outcomeOf = (error: unknown, statuses: number[] = []) => {
  const verdict = mapper.mapAiSdkError(error, log(statuses));
  return verdict && { outcome: verdict.outcome, ...(verdict.status !== undefined ? { status: verdict.status } : {}), ...(verdict.code !== undefined ? { code: verdict.code } : {}) };
};

describe('ai-sdk mapping: returned values', () => {
  it('a result with isError: true is TOOL_ERROR (execute returns it instead of throwing)', () => {
    expect(mapper.mapAiSdkResult({ content: [{ type: 'text', text: 'boom' }], isError: true }).outcome).toBe('TOOL_ERROR');
  });
  it('any other value is TOOL_SUCCESS (structured content included)', () => {
    expect(mapper.mapAiSdkResult({ content: [{ type: 'text', text: 'ok' }] }).outcome).toBe('TOOL_SUCCESS');
    expect(mapper.mapAiSdkResult({ answer: 42 }).outcome).toBe('TOOL_SUCCESS');
  });
});

describe('ai-sdk mapping: thrown errors', () => {
  it('MCPClientError with the peer code is JSONRPC_ERROR + code (also for a non-2xx whose body is a JSON-RPC error)', () => {
    expect(outcomeOf(new MCPClientError({ message: 'Invalid params', code: -32602 }), [400])).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
  });
  it('MCPClientError "POSTing to endpoint (HTTP n)" is HTTP_ERROR + statusCode', () => {
    const error = new MCPClientError({ message: 'MCP HTTP Transport Error: POSTing to endpoint (HTTP 503): ', statusCode: 503 });
    expect(outcomeOf(error)).toEqual({ outcome: 'HTTP_ERROR', status: 503 });
  });
  it('MCPClientError "Unexpected content type" is INVALID_ENVELOPE', () => {
    expect(outcomeOf(new MCPClientError({ message: 'MCP HTTP Transport Error: Unexpected content type: text/html', statusCode: 200 }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('MCPClientError "text/event-stream response without body" is STREAM_INCOMPLETE', () => {
    expect(outcomeOf(new MCPClientError({ message: 'MCP HTTP Transport Error: text/event-stream response without body', statusCode: 200 }))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('"Request was aborted" (the host\'s timeout signal) is NO_RESPONSE without a status, STREAM_INCOMPLETE after a 2xx', () => {
    const aborted = () => new MCPClientError({ message: 'Request was aborted', cause: new DOMException('The operation was aborted due to timeout', 'TimeoutError') });
    expect(outcomeOf(aborted())).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(aborted(), [200])).toEqual({ outcome: 'STREAM_INCOMPLETE' });
    expect(outcomeOf(new MCPClientError({ message: 'Request timed out after 2000ms' }), [503])).toEqual({ outcome: 'NO_RESPONSE' });
  });
  it('a result the client rejects (schema, missing resultType, outputSchema) is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf(new MCPClientError({ message: 'Failed to parse server response', cause: new Error('zod') }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(new MCPClientError({ message: 'Modern MCP result is missing resultType' }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(new MCPClientError({ message: 'Input-required results are not supported for tools/call on protocol 2025-11-25' }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(new MCPClientError({ message: 'Tool "x" returned structuredContent that does not match the expected outputSchema' }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an input request it cannot or will not fulfil is INPUT_REQUIRED', () => {
    expect(outcomeOf(new MCPClientError({ message: 'Request still requires input after 8 rounds' }))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(outcomeOf(new MCPClientError({ message: 'Unsupported input request: sampling/createMessage. Only form elicitation is supported.' }))).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it('"Failed to process server response" is mapped by its cause', () => {
    const syntax = new MCPClientError({ message: 'Failed to process server response', cause: new SyntaxError('Unexpected token') });
    expect(outcomeOf(syntax)).toEqual({ outcome: 'MALFORMED_JSON' });
    const zod = Object.assign(new Error('invalid'), { name: 'ZodError', issues: [] });
    expect(outcomeOf(new MCPClientError({ message: 'Failed to process server response', cause: zod }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('a ZodError from the envelope check is INVALID_ENVELOPE', () => {
    expect(outcomeOf(Object.assign(new Error('[]'), { name: 'ZodError', issues: [{ path: ['jsonrpc'] }] }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('SyntaxError / AI_JSONParseError is MALFORMED_JSON', () => {
    expect(outcomeOf(new SyntaxError('Unexpected end of JSON input'))).toEqual({ outcome: 'MALFORMED_JSON' });
    expect(outcomeOf(Object.assign(new Error('JSON parsing failed'), { name: 'AI_JSONParseError' }))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('a failed fetch is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    expect(outcomeOf(new TypeError('fetch failed'))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(new TypeError('terminated'), [200])).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('anything else is not reported (null), with the error in the notes', () => {
    const cellLog = log();
    expect(mapper.mapAiSdkError(new RangeError('odd'), cellLog)).toBeNull();
    expect(mapper.mapAiSdkError(new MCPClientError({ message: 'Attempted to send a request from a closed client' }), cellLog)).toBeNull();
    expect(cellLog.notes).toEqual(['unmapped error from execute: RangeError: odd', 'unmapped error from execute: MCPClientError: Attempted to send a request from a closed client']);
  });
});
