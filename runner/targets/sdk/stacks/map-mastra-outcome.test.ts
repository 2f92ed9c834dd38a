// One test per row of the mastra mapping table (map-mastra-outcome.mjs), with the shapes
// @mastra/mcp 2.0.0 gave against the mock server (its v2 client, @modelcontextprotocol/client 2.0.0;
// the v2 error classes here are the hoisted copy, the same constructors).
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MapperCellLog as CellLog, MappedVerdict, V2ErrorClasses } from '../../../../test/sdk-mapper-types.js';
import { packagePath } from '../../../package-paths.js';

interface MapModule {
  mapMastraResult(value: unknown, log: CellLog): MappedVerdict;
  mapMastraError(error: unknown, context: { types: unknown; log: CellLog }): MappedVerdict;
}

// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const mapper = (await import('./map-mastra-outcome.mjs' as string)) as MapModule;
const types = (await import(pathToFileURL(packagePath('node_modules', '@modelcontextprotocol', 'client', 'dist', 'index.mjs')).href)) as V2ErrorClasses;

/** MastraError as @mastra/core 1.x builds it: an Error with id, domain, category and details. */
class MastraError extends Error {
  readonly domain = 'MCP';
  readonly category = 'THIRD_PARTY';
  constructor(
    readonly id: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const log = (statuses: number[] = [], peerCodes: number[] = []): CellLog => ({ statuses, notes: [], peerErrorCodes: new Set(peerCodes) });
const outcomeOf = (verdict: MappedVerdict) => verdict && { outcome: verdict.outcome, ...(verdict.status !== undefined ? { status: verdict.status } : {}), ...(verdict.code !== undefined ? { code: verdict.code } : {}) };
const errorOutcome = (error: unknown, cellLog = log()) => outcomeOf(mapper.mapMastraError(error, { types, log: cellLog }));

describe('mastra mapping: returned values', () => {
  it('the result (no structuredContent) is TOOL_SUCCESS', () => {
    // Recorded: baseline [2025-11-25] → {"content":[{"type":"text","text":"ok"}],"isError":false}.
    const verdict = mapper.mapMastraResult({ content: [{ type: 'text', text: 'ok' }], isError: false }, log());
    expect(verdict).toMatchObject({ outcome: 'TOOL_SUCCESS', detail: 'execute returned the result (1 content block(s))' });
  });
  it('a result with structuredContent resolves with the structured content alone: TOOL_SUCCESS, the value in the detail', () => {
    // Recorded: structured-content-array [2026-07-28] → [1,2,3]; structured-content-null → null.
    expect(mapper.mapMastraResult([1, 2, 3], log())).toMatchObject({ outcome: 'TOOL_SUCCESS', detail: 'execute returned the structured content: [1,2,3]' });
    expect(mapper.mapMastraResult(null, log())).toMatchObject({ outcome: 'TOOL_SUCCESS', detail: 'execute returned the structured content: null' });
  });
  it('an output validation error is returned, not thrown: INVALID_TOOL_RESULT', () => {
    // The object @mastra/core's validateToolOutput builds for structuredContent against an outputSchema.
    const returned = { error: true, message: 'Tool output validation failed for matrix_synthetic_tool. The tool returned invalid output:\n- count: Expected number', validationErrors: { count: { errors: ['Expected number'] } } };
    expect(outcomeOf(mapper.mapMastraResult(returned, log()))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('an input validation error (our arguments against the advertised schema) is not reported (null), with a note', () => {
    const cellLog = log();
    const returned = { error: true, message: 'Tool input validation failed for matrix_synthetic_tool. Please fix the following errors', validationErrors: {} };
    expect(mapper.mapMastraResult(returned, cellLog)).toBeNull();
    expect(cellLog.notes[0]).toMatch(/^execute returned a validation error not about the result: Tool input validation failed/);
  });
});

describe('mastra mapping: thrown errors', () => {
  it('a result with isError: true is thrown as MastraError MCP_CLIENT_TOOL_EXECUTION_FAILED: TOOL_ERROR', () => {
    // Recorded: tool-is-error [2025-11-25] → MastraError MCP_CLIENT_TOOL_EXECUTION_FAILED "failed".
    expect(errorOutcome(new MastraError('MCP_CLIENT_TOOL_EXECUTION_FAILED', 'failed', { toolName: 'synthetic_tool', serverName: 'matrix' }))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('any other MastraError is not reported (null), with a note', () => {
    const cellLog = log();
    expect(errorOutcome(new MastraError('MCP_CLIENT_OUTPUT_SCHEMA_TOO_COMPLEX', 'MCP tool "x" has a schema that is too complex'), cellLog)).toBeNull();
    expect(cellLog.notes[0]).toMatch(/^unmapped error from execute: MastraError MCP_CLIENT_OUTPUT_SCHEMA_TOO_COMPLEX/);
  });
  it('the v2 client errors pass through unchanged and follow its rows', () => {
    // Recorded: http-500-jsonrpc-error-body [2025-11-25] → SdkHttpError, data.status 500.
    expect(errorOutcome(new types.SdkHttpError('CLIENT_HTTP_NOT_IMPLEMENTED', 'Error POSTing to endpoint: {"jsonrpc":"2.0","id":2,"error":{"code":-32603}}', { status: 500 }))).toEqual({ outcome: 'HTTP_ERROR', status: 500 });
    // Recorded: jsonrpc-invalid-params [2025-11-25] → ProtocolError -32602 "synthetic invalid params".
    expect(errorOutcome(new types.ProtocolError(-32602, 'synthetic invalid params'), log([200], [-32602]))).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
    // Recorded: content-not-array [2025-11-25] → SdkError INVALID_RESULT "Invalid result for tools/call: …".
    expect(errorOutcome(new types.SdkError('INVALID_RESULT', 'Invalid result for tools/call: [{"expected":"array"}]'))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    // Recorded: input-required [2026-07-28] → SdkError CAPABILITY_NOT_SUPPORTED (Mastra registers no handler by default).
    expect(errorOutcome(new types.SdkError('CAPABILITY_NOT_SUPPORTED', "Cannot fulfil input request 'approval': no handler is registered for 'elicitation/create' on this client."))).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it('the abort signal firing (the cell timeout) is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    // Recorded: no-response-hang / batch-sse-result [2025-11-25] → SdkError "TimeoutError: The operation was aborted due to timeout".
    const aborted = new types.SdkError('REQUEST_TIMEOUT', 'TimeoutError: The operation was aborted due to timeout');
    expect(errorOutcome(aborted)).toEqual({ outcome: 'NO_RESPONSE' });
    expect(errorOutcome(aborted, log([200]))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('a reset connection, after its one reconnect and retry, is NO_RESPONSE (TypeError "fetch failed")', () => {
    // Recorded: no-response-reset [2026-07-28] → TypeError: fetch failed (the tools/call was sent twice).
    expect(errorOutcome(new TypeError('fetch failed'), log([0]))).toEqual({ outcome: 'NO_RESPONSE' });
  });
});
