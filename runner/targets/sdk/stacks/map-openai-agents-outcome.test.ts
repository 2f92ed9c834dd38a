// One test per row of the openai-agents mapping table (map-openai-agents-outcome.mjs), with the
// shapes @openai/agents 0.20.0 produced against the mock server (its v2 client, 2.4.0, hoisted).
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MapperCellLog as CellLog, MappedVerdict, V2ErrorClasses } from '../../../../test/sdk-mapper-types.js';
import { packagePath } from '../../../package-paths.js';

type Verdict = MappedVerdict;
interface MapModule {
  mapOpenAiAgentsResult(content: unknown): NonNullable<Verdict>;
  mapOpenAiAgentsError(error: unknown, context: { types: unknown; log: CellLog }): Verdict;
}

// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const mapper = (await import('./map-openai-agents-outcome.mjs' as string)) as MapModule;
const types = (await import(pathToFileURL(packagePath('node_modules', '@modelcontextprotocol', 'client', 'dist', 'index.mjs')).href)) as V2ErrorClasses;

const log = (statuses: number[] = [], peerCodes: number[] = []): CellLog => ({ statuses, notes: [], peerErrorCodes: new Set(peerCodes) });
const outcomeOf = (error: unknown, cellLog = log()) => {
  const verdict = mapper.mapOpenAiAgentsError(error, { types, log: cellLog });
  return verdict && { outcome: verdict.outcome, ...(verdict.status !== undefined ? { status: verdict.status } : {}), ...(verdict.code !== undefined ? { code: verdict.code } : {}) };
};

describe('openai-agents mapping: returned values', () => {
  it('callTool resolves with the content array only: TOOL_SUCCESS even for a tool error (isError is dropped)', () => {
    // Recorded: tool-is-error [2025-11-25] → callTool returned [{"type":"text","text":"failed"}].
    const verdict = mapper.mapOpenAiAgentsResult([{ type: 'text', text: 'failed' }]);
    expect(verdict.outcome).toBe('TOOL_SUCCESS');
    expect(verdict.detail).toMatch(/isError is not part of its return value/);
  });
  it('a value that is not an array is TOOL_SUCCESS with the value in the detail', () => {
    expect(mapper.mapOpenAiAgentsResult({ odd: true })).toMatchObject({ outcome: 'TOOL_SUCCESS', detail: 'callTool returned a non-array: {"odd":true}' });
  });
});

describe('openai-agents mapping: thrown errors', () => {
  it('an input request it has no handler for (SdkError CAPABILITY_NOT_SUPPORTED) is INPUT_REQUIRED', () => {
    const error = new types.SdkError('CAPABILITY_NOT_SUPPORTED', "Cannot fulfil input request 'confirm': no handler is registered for 'elicitation/create' on this client.");
    expect(outcomeOf(error)).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it('SdkHttpError is HTTP_ERROR + data.status (also when the body is a JSON-RPC error)', () => {
    // Recorded: http-500-jsonrpc-error-body [2026-07-28] → SdkHttpError, data.status 500.
    const error = new types.SdkHttpError('CLIENT_HTTP_NOT_IMPLEMENTED', 'Error POSTing to endpoint: {"jsonrpc":"2.0","id":0,"error":{"code":-32603}}', { status: 500 });
    expect(outcomeOf(error)).toEqual({ outcome: 'HTTP_ERROR', status: 500 });
  });
  it('a ProtocolError with a code the peer sent is JSONRPC_ERROR + code; a local one is INVALID_TOOL_RESULT', () => {
    expect(outcomeOf(new types.ProtocolError(-32022, 'Unsupported protocol version'), log([400], [-32022]))).toEqual({ outcome: 'JSONRPC_ERROR', code: -32022 });
    expect(outcomeOf(new types.ProtocolError(-32602, 'Invalid elicitation request'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('the v2 client timing out is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    expect(outcomeOf(new types.SdkError('REQUEST_TIMEOUT', 'Request timed out'))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(new types.SdkError('REQUEST_TIMEOUT', 'Request timed out'), log([200]))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('SyntaxError (a JSON body that does not parse) is MALFORMED_JSON', () => {
    expect(outcomeOf(new SyntaxError("Expected property name or '}' in JSON at position 1"))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('anything else (e.g. "Server not initialized") is not reported (null)', () => {
    const cellLog = log();
    expect(outcomeOf(new Error('Server not initialized. Make sure you call connect() first.'), cellLog)).toBeNull();
    expect(cellLog.notes[0]).toMatch(/^unmapped error from callTool: Error: Server not initialized/);
  });
});
