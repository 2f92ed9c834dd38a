// One test per row of the langchain mapping table (map-langchain-outcome.mjs). The messages are the
// ones @langchain/mcp-adapters 1.1.4 (over @modelcontextprotocol/sdk 1.32.2) gave against the mock server.
import { describe, expect, it } from 'vitest';
import type { MapperCellLog as CellLog, MappedVerdict } from '../../../../test/sdk-mapper-types.js';

type Verdict = MappedVerdict;
interface MapModule {
  mapLangchainResult(value: unknown): NonNullable<Verdict>;
  mapLangchainError(error: unknown, log: CellLog): Verdict;
}

// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const mapper = (await import('./map-langchain-outcome.mjs' as string)) as MapModule;

const log = (statuses: number[] = [], peerCodes: number[] = []): CellLog => ({ statuses, notes: [], peerErrorCodes: new Set(peerCodes) });
const toolException = (message: string) => Object.assign(new Error(message), { name: 'ToolException' });
const outcomeOf = (error: unknown, cellLog = log()) => {
  const verdict = mapper.mapLangchainError(error, cellLog);
  return verdict && { outcome: verdict.outcome, ...(verdict.status !== undefined ? { status: verdict.status } : {}), ...(verdict.code !== undefined ? { code: verdict.code } : {}) };
};

describe('langchain mapping', () => {
  it('a resolved value (text or content blocks) is TOOL_SUCCESS', () => {
    expect(mapper.mapLangchainResult('ok').outcome).toBe('TOOL_SUCCESS');
    expect(mapper.mapLangchainResult([{ type: 'image' }]).detail).toBe('invoke returned 1 content block(s)');
  });
  it('ToolException "returned an error" (isError: true) is TOOL_ERROR', () => {
    expect(outcomeOf(toolException("MCP tool 'synthetic_tool' on server 'matrix' returned an error: failed"))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('ToolException "returned an invalid result" / "unexpected type" is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf(toolException("MCP tool 'x' on server 'matrix' returned an invalid result - expected an array of content, but was undefined"))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(toolException(`MCP tool 'x' on server 'matrix' returned a content block with unexpected type "video."`))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('a prettified ZodError ("✖ Invalid input", envelope and result alike) is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf(toolException('✖ Invalid input'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an McpError with a code the peer sent is JSONRPC_ERROR + code; a local one is INVALID_TOOL_RESULT', () => {
    const error = toolException('Error calling tool synthetic_tool: McpError: MCP error -32602: Invalid params');
    expect(outcomeOf(error, log([200], [-32602]))).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
    expect(outcomeOf(error, log([200]))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an McpError -32001 (timeout) not from the peer is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    const error = () => toolException('Error calling tool synthetic_tool: McpError: MCP error -32001: Request timed out');
    expect(outcomeOf(error())).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(error(), log([200]))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('"Streamable HTTP error: Unexpected content type" is INVALID_ENVELOPE', () => {
    expect(outcomeOf(toolException('Error calling tool x: Error: Streamable HTTP error: Unexpected content type: text/html'))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('"Error POSTing to endpoint" is HTTP_ERROR without a status (the message does not carry it)', () => {
    expect(outcomeOf(toolException('Error calling tool delete_record: Error: Streamable HTTP error: Error POSTing to endpoint: '), log([503]))).toEqual({ outcome: 'HTTP_ERROR' });
  });
  it('SyntaxError is MALFORMED_JSON', () => {
    expect(outcomeOf(toolException("Error calling tool x: SyntaxError: Expected property name or '}' in JSON at position 1"))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('a failed fetch is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    expect(outcomeOf(toolException('Error calling tool x: TypeError: fetch failed'))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(toolException('Error calling tool x: TypeError: terminated'), log([200]))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('anything else (e.g. ToolInputParsingException) is not reported (null), with the error in the notes', () => {
    const cellLog = log();
    expect(mapper.mapLangchainError(Object.assign(new Error('Received tool input did not match expected schema'), { name: 'ToolInputParsingException' }), cellLog)).toBeNull();
    expect(cellLog.notes).toEqual(['unmapped error from invoke: ToolInputParsingException: Received tool input did not match expected schema']);
  });
});
