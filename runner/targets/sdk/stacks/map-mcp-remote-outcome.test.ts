// One test per row of the mcp-remote mapping table (map-mcp-remote-outcome.mjs), with the lines
// mcp-remote 0.15.1 wrote on its stdio against the mock server (recorded by hand-checks, see README).
import { describe, expect, it } from 'vitest';
import { mapFor, type MapContext } from '../../../../test/map-observation-helpers.js';

const map = mapFor('mcp-remote');
const message = (body: Record<string, unknown>, protocolVersion = '2025-11-25') => map({ returned: { received: 'message', message: { jsonrpc: '2.0', id: 2, ...body } } }, { protocolVersion } as MapContext);

describe('mcp-remote mapping: what the host receives on stdio', () => {
  it('a result with isError: true is TOOL_ERROR', () => {
    expect(message({ result: { resultType: 'complete', content: [{ type: 'text', text: 'failed' }], isError: true } })).toMatchObject({ verdict: { outcome: 'TOOL_ERROR' } });
  });
  it.each([
    ['2025-03-26', 'TOOL_SUCCESS'],
    ['2025-06-18', 'TOOL_SUCCESS'],
    ['2025-11-25', 'TOOL_SUCCESS'],
    ['2026-07-28', 'INPUT_REQUIRED'],
  ])('resultType "input_required" means something only at 2026-07-28: at %s the result is %s', (version, outcome) => {
    expect(message({ result: { content: [{ type: 'text', text: 'ok' }], resultType: 'input_required', requestState: 'r1' } }, version)).toMatchObject({ verdict: { outcome } });
  });
  it('any other result is TOOL_SUCCESS', () => {
    expect(message({ result: { content: [{ type: 'text', text: 'ok' }] } })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS' } });
  });
  it("the bridge's own -32001 for an HTTP-side failure is JSONRPC_ERROR -32001 (the status is gone)", () => {
    // Recorded: http-503-empty-body [2025-11-25].
    const mapped = message({ error: { code: -32001, message: 'mcp-remote: Error POSTing to endpoint: ' } });
    expect(mapped).toMatchObject({ verdict: { outcome: 'JSONRPC_ERROR', code: -32001, detail: expect.stringMatching(/^the bridge wrote a JSON-RPC error for an HTTP-side failure/) } });
  });
  it("a server's JSON-RPC error passed through is JSONRPC_ERROR + its code", () => {
    const mapped = message({ error: { code: -32602, message: 'Invalid params' } });
    expect(mapped).toMatchObject({ verdict: { outcome: 'JSONRPC_ERROR', code: -32602, detail: expect.stringMatching(/^the bridge passed a JSON-RPC error through/) } });
  });
  it('a line that is not JSON is MALFORMED_JSON', () => {
    expect(map({ returned: { received: 'line', line: 'Listening on port 3334' } }, { protocolVersion: '2025-11-25' } as MapContext)).toMatchObject({ verdict: { outcome: 'MALFORMED_JSON' } });
  });
  it('a message that is neither a result nor an error (or has both) is INVALID_ENVELOPE', () => {
    expect(message({})).toMatchObject({ verdict: { outcome: 'INVALID_ENVELOPE' } });
    expect(message({ result: {}, error: { code: 1, message: 'x' } })).toMatchObject({ verdict: { outcome: 'INVALID_ENVELOPE' } });
  });
  it("nothing before the host's deadline is NO_RESPONSE; a bridge that exited concluded nothing", () => {
    expect(map({ returned: { received: 'nothing', waitedMs: 6000 } }, { protocolVersion: '2025-11-25' } as MapContext)).toMatchObject({ verdict: { outcome: 'NO_RESPONSE', detail: "no answer on the bridge's stdout within the host's deadline of 6000 ms" } });
    expect(map({ returned: { received: 'nothing', exit: 'code 1' } }, { protocolVersion: '2025-11-25' } as MapContext)).toEqual({ none: 'the bridge exited (code 1) without answering' });
  });
  it('a record of another shape is an adapter gap, never a verdict', () => {
    expect(map({ returned: { something: 'else' } }, { protocolVersion: '2025-11-25' } as MapContext)).toMatchObject({ gap: expect.stringMatching(/^mcp-remote has no mapping for a returned value/) });
  });
});
