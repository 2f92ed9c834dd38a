import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Case, ResponseSpec } from '../cases/case-types.js';
import { startMockServer, type MockServer } from '../mock-server/server.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { buildToolCallRequest } from './build-tool-call-request.js';
import { HarnessSetupError, openHarnessSession, type HarnessSession } from './harness-session.js';

const opened: { server?: MockServer; session: HarnessSession }[] = [];
afterEach(async () => {
  for (const { server, session } of opened.splice(0)) {
    await session.close();
    await server?.close();
  }
});

// Only the cases that wait on purpose (a hang) pass a short timeout. Everything else gets 5 s: a
// cold open + call measured 84-112 ms on a loaded 2-core machine, too close to the old 300 ms.
const NO_WAIT_TIMEOUT_MS = 5000;

async function open(testCase: Case, protocolVersion: ProtocolVersion, timeoutMs = NO_WAIT_TIMEOUT_MS) {
  const server = await startMockServer({ case: testCase, protocolVersion });
  const session = await openHarnessSession({ url: server.url, protocolVersion, timeoutMs, ...(testCase.tool ? { tool: testCase.tool } : {}) });
  opened.push({ server, session });
  const call = (exchangeIndex = 0, previousResult?: unknown) =>
    session.call(buildToolCallRequest({ case: testCase, protocolVersion, exchangeIndex, previousResult }));
  return { server, session, call };
}

const one = (response: ResponseSpec, overrides: Partial<Case> = {}) => makeCase([response], overrides);

describe('openHarnessSession on 2025-11-25', () => {
  it('initializes, sends notifications/initialized, then calls with session and version headers', async () => {
    const { server, session, call } = await open(one({ body: { json: SUCCESS_JSON } }), '2025-11-25');
    const response = await call();
    expect(response).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(JSON.parse(response.body)).toMatchObject({ id: 1, result: { isError: false } });
    const requests = server.recording().exchanges.map((exchange) => exchange.request);
    expect(requests.map((request) => request.rpc?.method)).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    expect(requests[0]!.headers.accept).toBe('application/json, text/event-stream');
    expect(requests[1]!.headers['mcp-session-id']).toBe(session.sessionId);
    expect(server.recording().exchanges[1]!.response!.status).toBe(202);
    expect(requests[2]!.headers).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': session.sessionId,
    });
    expect(JSON.parse(requests[2]!.body)).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'synthetic_tool', arguments: { input: 'synthetic' } } });
  });

  it('uses the protocol version the server negotiated', async () => {
    const { server, call } = await open(one({ body: { json: SUCCESS_JSON } }, { server: { initializeVersion: '2025-06-18' } }), '2025-11-25');
    await call();
    expect(server.recording().exchanges[2]!.request.headers['mcp-protocol-version']).toBe('2025-06-18');
  });

  it('answers a server request on the stream, so an awaitReply stream completes', async () => {
    const elicit = { jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } };
    const testCase = one({ body: { sse: { events: [{ data: elicit, awaitReply: true }, { response: true, data: SUCCESS_JSON }] } } });
    const { server, call } = await open(testCase, '2025-11-25');
    const response = await call();
    expect(response.transportError).toBeUndefined();
    expect(response.body).toContain('"id":1,');
    const reply = server.recording().exchanges.find((exchange) => exchange.request.rpc?.isResponse);
    expect(JSON.parse(reply!.request.body)).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: { action: 'accept', content: {} } });
    expect(reply!.response!.status).toBe(202);
  });
});

describe('openHarnessSession on 2026-07-28', () => {
  it('sends no initialize and puts Mcp-Method, Mcp-Name, Mcp-Param and _meta on the call', async () => {
    const tool = {
      name: 'café',
      inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
      arguments: { region: 'eu-west' },
    };
    const { server, call } = await open(one({ body: { json: SUCCESS_JSON } }, { tool }), '2026-07-28');
    await call();
    const [request] = server.recording().exchanges.map((exchange) => exchange.request);
    expect(server.recording().exchanges).toHaveLength(1);
    expect(request!.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': `=?base64?${Buffer.from('café').toString('base64')}?=`,
      'mcp-param-region': 'eu-west',
    });
    expect(request!.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(request!.body).params._meta).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    });
  });

  it('sends an MRTR follow-up with a new id, inputResponses and the echoed requestState', async () => {
    const inputRequired = {
      jsonrpc: '2.0',
      result: { resultType: 'input_required', requestState: 'st\u00e4te "quoted"', inputRequests: { approval: { method: 'elicitation/create', params: { message: 'ok?' } }, dirs: { method: 'roots/list' } } },
    };
    const testCase = makeCase([{ body: { json: inputRequired } }, { body: { json: SUCCESS_JSON } }]);
    testCase.exchanges[1]!.request = { followUp: true };
    const { server, call } = await open(testCase, '2026-07-28');
    const first = await call(0);
    await call(1, JSON.parse(first.body));
    const followUp = JSON.parse(server.recording().exchanges[1]!.request.body);
    expect(followUp.id).toBe(2);
    expect(followUp.params.inputResponses).toEqual({ approval: { action: 'accept', content: {} }, dirs: { roots: [] } });
    expect(followUp.params.requestState).toBe('st\u00e4te "quoted"');
    expect(server.recording().exchanges[1]!.request.body).toContain(JSON.stringify('st\u00e4te "quoted"'));
  });
});

describe('harness transport errors', () => {
  it('returns status 0 and a timeout when no status line arrives', async () => {
    const { call } = await open(one({ start: 'hang' }), '2026-07-28', 150);
    expect(await call()).toEqual({ status: 0, headers: {}, contentType: undefined, body: '', bodyBytes: new Uint8Array(0), transportError: { kind: 'timeout', message: 'no complete response within 150 ms' } });
  });

  it('keeps what arrived before a timeout mid-stream', async () => {
    // The timeout must come after the event arrived: 2 s, not 150 ms (failed under load: the
    // timeout hit before the first event). The stream hangs, so the time is always spent.
    const { call } = await open(one({ body: { sse: { end: 'hang', events: [{ comment: 'x' }] } } }), '2026-07-28', 2000);
    expect(await call()).toMatchObject({ status: 200, body: ': x\n\n', transportError: { kind: 'timeout' } });
  });

  it('reports a reset before the status and mid-stream', async () => {
    const before = await open(one({ start: 'reset' }), '2026-07-28');
    expect(await before.call()).toMatchObject({ status: 0, transportError: { kind: 'reset' } });
    const mid = await open(one({ body: { sse: { end: 'reset', events: [{ comment: 'x' }] } } }), '2026-07-28');
    expect(await mid.call()).toMatchObject({ status: 200, body: ': x\n\n', transportError: { kind: 'reset' } });
  });

  it('reports a refused connection on the call without throwing (2026-07-28: no session to set up)', async () => {
    const port = await findClosedPort();
    const session = await openHarnessSession({ url: `http://127.0.0.1:${port}/mcp`, protocolVersion: '2026-07-28', timeoutMs: NO_WAIT_TIMEOUT_MS });
    opened.push({ session });
    const response = await session.call(buildToolCallRequest({ case: one({}), protocolVersion: '2026-07-28', exchangeIndex: 0 }));
    expect(response).toEqual({ status: 0, headers: {}, contentType: undefined, body: '', bodyBytes: new Uint8Array(0), transportError: { kind: 'refused', message: 'connection refused' } });
  });

  it('refuses to open a session whose initialize got no answer: the call would measure the harness, not the case', async () => {
    const port = await findClosedPort();
    const opening = openHarnessSession({ url: `http://127.0.0.1:${port}/mcp`, protocolVersion: '2025-11-25', timeoutMs: NO_WAIT_TIMEOUT_MS });
    await expect(opening).rejects.toThrow(HarnessSetupError);
    await expect(opening).rejects.toThrow('the harness could not set up its session (initialize: connection refused): the cell was not measured');
  });

  it('decodes gzip, then UTF-8 as Response.text() does: one BOM dropped from body, kept in bodyBytes', async () => {
    const { call } = await open(makeCase([{ bom: true, contentEncoding: 'gzip', body: { json: SUCCESS_JSON } }]), '2026-07-28');
    const response = await call();
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.body.startsWith('{"jsonrpc":"2.0","id":1,')).toBe(true);
    expect(response.bodyBytes).toBeInstanceOf(Uint8Array);
    expect([...response.bodyBytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x7b]);
    expect(new TextDecoder().decode(response.bodyBytes)).toBe(response.body);
  });
});

describe('openHarnessSession on the legacy versions (a correct client of each)', () => {
  it.each([
    ['2025-03-26', undefined, { roots: {}, sampling: {} }],
    ['2025-06-18', '2025-06-18', { elicitation: {}, roots: {}, sampling: {} }],
  ] as const)('%s: initializes with its version, MCP-Protocol-Version %s, capabilities of that version', async (version, header, capabilities) => {
    const { server, session, call } = await open(one({ body: { json: SUCCESS_JSON } }), version);
    expect(JSON.parse((await call()).body)).toMatchObject({ id: 1, result: { isError: false } });
    const requests = server.recording().exchanges.map((exchange) => exchange.request);
    expect(requests.map((request) => request.rpc?.method)).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    expect(requests[0]!.rpc?.params).toMatchObject({ protocolVersion: version, capabilities });
    expect(requests[2]!.headers['mcp-session-id']).toBe(session.sessionId);
    // T0618 § Protocol Version Header: from 2025-06-18 on; a 2025-03-26 client has no such header.
    expect(requests[2]!.headers['mcp-protocol-version']).toBe(header);
  });

  it('2025-03-26: answers each server request of a batched SSE event in its own POST, -32601 for elicitation', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 's1', method: 'roots/list' },
      { jsonrpc: '2.0', id: 's2', method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } },
    ];
    const sse = { events: [{ data: batch, awaitReply: true }, { data: { jsonrpc: '2.0', result: { content: [] } }, response: true }] };
    const { server, call } = await open(one({ body: { sse } }), '2025-03-26');
    await call();
    const replies = server.recording().exchanges.map((exchange) => exchange.request.rpc).filter((rpc) => rpc?.isResponse);
    expect(replies.map((rpc) => rpc?.id).sort()).toEqual(['s1', 's2']);
    const bodies = server.recording().exchanges.filter((exchange) => exchange.request.rpc?.isResponse).map((exchange) => JSON.parse(exchange.request.body) as Record<string, unknown>);
    expect(bodies.find((body) => body.id === 's1')).toMatchObject({ result: { roots: [] } });
    expect(bodies.find((body) => body.id === 's2')).toMatchObject({ error: { code: -32601 } });
  });
});

/** A loopback port nothing listens on (a server's port, closed again). */
async function findClosedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
