// One test per row of the mcp-remote mapping table (map-mcp-remote-outcome.mjs), with the lines
// mcp-remote 0.15.1 wrote on its stdio against the mock server (recorded by hand-checks, see README).
import { describe, expect, it } from 'vitest';

type Verdict = { outcome: string; code?: number; detail: string };
interface MapModule {
  mapMcpRemoteMessage(message: unknown, protocolVersion: string): Verdict;
  mapMcpRemoteGarbage(line: string): Verdict;
  mapMcpRemoteSilence(timeoutMs: number, exit?: string): Verdict;
}

// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const mapper = (await import('./map-mcp-remote-outcome.mjs' as string)) as MapModule;
const brief = (verdict: Verdict) => ({ outcome: verdict.outcome, ...(verdict.code !== undefined ? { code: verdict.code } : {}) });

describe('mcp-remote mapping: what the host receives on stdio', () => {
  it('a result with isError: true is TOOL_ERROR', () => {
    const line = { jsonrpc: '2.0', id: 2, result: { resultType: 'complete', content: [{ type: 'text', text: 'failed' }], isError: true } };
    expect(brief(mapper.mapMcpRemoteMessage(line, '2025-11-25'))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('an input_required result under 2026-07-28 is INPUT_REQUIRED (under 2025-11-25 the key means nothing)', () => {
    const line = { jsonrpc: '2.0', id: 2, result: { resultType: 'input_required', inputRequests: {} } };
    expect(brief(mapper.mapMcpRemoteMessage(line, '2026-07-28'))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(brief(mapper.mapMcpRemoteMessage(line, '2025-11-25'))).toEqual({ outcome: 'TOOL_SUCCESS' });
  });
  it('any other result is TOOL_SUCCESS', () => {
    expect(brief(mapper.mapMcpRemoteMessage({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ok' }] } }, '2025-11-25'))).toEqual({ outcome: 'TOOL_SUCCESS' });
  });
  it("the bridge's own -32001 for an HTTP-side failure is JSONRPC_ERROR -32001 (the status is gone)", () => {
    // Recorded: http-503-empty-body [2025-11-25].
    const verdict = mapper.mapMcpRemoteMessage({ jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'mcp-remote: Error POSTing to endpoint: ' } }, '2025-11-25');
    expect(brief(verdict)).toEqual({ outcome: 'JSONRPC_ERROR', code: -32001 });
    expect(verdict.detail).toMatch(/^the bridge wrote a JSON-RPC error for an HTTP-side failure/);
  });
  it("a server's JSON-RPC error passed through is JSONRPC_ERROR + its code", () => {
    const verdict = mapper.mapMcpRemoteMessage({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params' } }, '2025-11-25');
    expect(brief(verdict)).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
    expect(verdict.detail).toMatch(/^the bridge passed a JSON-RPC error through/);
  });
  it('a line that is not JSON is MALFORMED_JSON', () => {
    expect(brief(mapper.mapMcpRemoteGarbage('Listening on port 3334'))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('a message that is neither a result nor an error (or has both) is INVALID_ENVELOPE', () => {
    expect(brief(mapper.mapMcpRemoteMessage({ jsonrpc: '2.0', id: 2 }, '2025-11-25'))).toEqual({ outcome: 'INVALID_ENVELOPE' });
    expect(brief(mapper.mapMcpRemoteMessage({ jsonrpc: '2.0', id: 2, result: {}, error: { code: 1, message: 'x' } }, '2025-11-25'))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('silence or the bridge exiting is NO_RESPONSE', () => {
    expect(mapper.mapMcpRemoteSilence(2000)).toMatchObject({ outcome: 'NO_RESPONSE', detail: "no answer on the bridge's stdout within 2000 ms" });
    expect(mapper.mapMcpRemoteSilence(2000, 'code 1')).toMatchObject({ outcome: 'NO_RESPONSE', detail: 'the bridge exited (code 1) without answering' });
  });
});
