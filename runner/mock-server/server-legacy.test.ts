// The mock server as a server of 2025-03-26 or 2025-06-18 (WIRE-FACTS-LEGACY): it initializes
// with the cell's version whatever the client offers, keeps sessions, echoes a readable id in
// its own errors, accepts 2025-03-26 batches of notifications and responses, and nothing else
// batched; 2025-06-18 refuses every array.
import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { sendRaw } from './raw-http.js';
import { startMockServer, type MockServer } from './server.js';
import { makeCase, SUCCESS_JSON } from './test-cases.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(version: ProtocolVersion): Promise<MockServer> {
  const server = await startMockServer({ case: makeCase([{ body: { json: SUCCESS_JSON } }], { versions: [version] }), protocolVersion: version });
  servers.push(server);
  return server;
}

// A client offering its newest version, as SDKs do.
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const NOTIFICATION = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'synthetic_tool' } });

async function initialize(server: MockServer): Promise<{ sessionId: string; version: unknown }> {
  const raw = await sendRaw(server.url, { body: INITIALIZE });
  const line = raw.headerLines.find((header) => header.startsWith('MCP-Session-Id: '))!;
  return { sessionId: line.slice('MCP-Session-Id: '.length), version: (JSON.parse(raw.body.toString()) as { result: { protocolVersion: unknown } }).result.protocolVersion };
}

describe.each(['2025-03-26', '2025-06-18'] as const)('mock server as a %s server', (version) => {
  it('answers an offer of a newer version with its own, issues a session id and then requires it', async () => {
    const server = await start(version);
    const { sessionId, version: answered } = await initialize(server);
    expect(answered).toBe(version);
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    const ok = await sendRaw(server.url, { body: call(3), headers: { 'Mcp-Session-Id': sessionId } });
    expect(JSON.parse(ok.body.toString())).toMatchObject({ id: 3, result: { content: [{ type: 'text' }] } });
  });

  it('echoes the readable id of a request it refuses for its session (every error carries the id before 2025-11-25)', async () => {
    const server = await start(version);
    await initialize(server);
    const missing = await sendRaw(server.url, { body: call(5) });
    expect(missing.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(missing.body.toString())).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32600 } });
    const unknown = await sendRaw(server.url, { body: call(6), headers: { 'Mcp-Session-Id': 'nope' } });
    expect(unknown.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(unknown.body.toString())).toMatchObject({ id: 6 });
  });

  it(version === '2025-03-26' ? 'accepts a batch of notifications and responses (202) and answers a batch holding a request' : 'refuses every array: batching was removed', async () => {
    const server = await start(version);
    const { sessionId } = await initialize(server);
    const headers = { 'Mcp-Session-Id': sessionId };
    const accepted = await sendRaw(server.url, { body: JSON.stringify([NOTIFICATION, { jsonrpc: '2.0', id: 's1', result: { roots: [] } }]), headers });
    const withRequest = await sendRaw(server.url, { body: JSON.stringify([NOTIFICATION, JSON.parse(call(9))]), headers });
    if (version === '2025-03-26') {
      expect(accepted.statusLine).toBe('HTTP/1.1 202 Accepted');
      expect(accepted.body.length).toBe(0);
      expect(withRequest.statusLine).toBe('HTTP/1.1 200 OK');
      expect(JSON.parse(withRequest.body.toString())).toMatchObject([{ jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text' }] } }]);
    } else {
      expect(withRequest.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(accepted.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(accepted.body.toString()).toContain('one JSON-RPC message per POST');
    }
  });
});

describe('MCP-Protocol-Version after initialization (T0618/T25 § Protocol Version Header)', () => {
  it.each(['2025-06-18', '2025-11-25'] as const)('a %s server refuses a wrong or unsupported value with 400 and accepts its own or none', async (version) => {
    const server = await start(version);
    const { sessionId } = await initialize(server);
    const send = (id: number, headers: Record<string, string>) => sendRaw(server.url, { body: call(id), headers: { 'Mcp-Session-Id': sessionId, ...headers } });
    for (const wrong of ['2099-01-01', '2025-03-26', version === '2025-06-18' ? '2025-11-25' : '2025-06-18']) {
      const refused = await send(4, { 'MCP-Protocol-Version': wrong });
      expect(refused.statusLine, wrong).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(refused.body.toString())).toMatchObject({ id: 4, error: { code: -32600, message: `Bad Request: unsupported protocol version "${wrong}" (this session speaks ${version})` } });
    }
    // Refused requests consume no script step: the right value then gets the scripted answer.
    const right = await send(5, { 'MCP-Protocol-Version': version });
    expect(JSON.parse(right.body.toString())).toMatchObject({ id: 5, result: { content: [{ type: 'text' }] } });
    // Absent is not invalid: the server knows the version from the session (LEGACY 1.14–1.16).
    const absent = await send(6, {});
    expect(absent.statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('a 2025-03-26 server has no such header and reads none', async () => {
    const server = await start('2025-03-26');
    const { sessionId } = await initialize(server);
    const any = await sendRaw(server.url, { body: call(3), headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2099-01-01' } });
    expect(any.statusLine).toBe('HTTP/1.1 200 OK');
  });
});

describe('a 2025-03-26 batch holding requests (T0326 § Sending Messages to the Server, items 3–5; JR § 6)', () => {
  async function session(testCase = makeCase([{ body: { json: SUCCESS_JSON } }], { versions: ['2025-03-26'] })) {
    const server = await startMockServer({ case: testCase, protocolVersion: '2025-03-26' });
    servers.push(server);
    const { sessionId } = await initialize(server);
    // An array is sent as a batch, an object as a lone message.
    return (message: unknown) => sendRaw(server.url, { body: JSON.stringify(message), headers: { 'Mcp-Session-Id': sessionId } });
  }

  it('answers every request by its id in one JSON array, in the order sent, skipping notifications', async () => {
    const send = await session();
    const answered = await send([
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
      NOTIFICATION,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'resources/list' },
      JSON.parse(call(4)),
    ]);
    expect(answered.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answered.headerLines).toContain('Content-Type: application/json');
    expect(JSON.parse(answered.body.toString())).toEqual([
      { jsonrpc: '2.0', id: 'p', result: {} },
      { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'synthetic_tool', inputSchema: expect.any(Object) }] } },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: 4, result: SUCCESS_JSON.result },
    ]);
  });

  it('refuses initialize in a batch, and a tools/call whose scripted answer is not one plain JSON message, without using the script step', async () => {
    const sse = makeCase([{ body: { sse: { events: [{ data: SUCCESS_JSON, response: true }] } } }, { body: { json: SUCCESS_JSON } }], { versions: ['2025-03-26'] });
    const send = await session(sse);
    const init = await send([JSON.parse(INITIALIZE)]);
    expect(init.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(init.body.toString()).toContain('initialize MUST NOT be part of a JSON-RPC batch');
    const refused = await send([JSON.parse(call(5))]);
    expect(refused.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(refused.body.toString()).toContain('send tools/call in a POST of its own');
    // The first step is still there for the call sent alone; the second, plain JSON, can be batched.
    const alone = await send(JSON.parse(call(6)));
    expect(alone.headerLines).toContain('Content-Type: text/event-stream');
    const batched = await send([JSON.parse(call(7))]);
    expect(JSON.parse(batched.body.toString())).toMatchObject([{ id: 7, result: SUCCESS_JSON.result }]);
  });
});
