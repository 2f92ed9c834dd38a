import { afterEach, describe, expect, it, vi } from 'vitest';
import { stallLoop } from '../../test/race-answer-against-deadline.js';
import type { Case } from '../cases/case-types.js';
import { sendRaw } from './raw-http.js';
import { startMockServer, type MockServer } from './server.js';
import { makeCase, SUCCESS_JSON } from './test-cases.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(testCase: Case): Promise<MockServer> {
  const server = await startMockServer({ case: testCase, protocolVersion: '2025-11-25' });
  servers.push(server);
  return server;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});
const call = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'synthetic_tool' } });

async function initialize(server: MockServer): Promise<string> {
  const raw = await sendRaw(server.url, { body: INITIALIZE });
  const line = raw.headerLines.find((header) => header.startsWith('MCP-Session-Id: '));
  return line!.slice('MCP-Session-Id: '.length);
}

describe('mock server lifecycle (2025-11-25)', () => {
  it('answers initialize with an InitializeResult and an MCP-Session-Id header', async () => {
    const server = await start(makeCase([{}], { server: { initializeVersion: '2025-06-18' } }));
    const raw = await sendRaw(server.url, { body: INITIALIZE });
    expect(raw.headerLines[0]).toBe('Content-Type: application/json');
    expect(raw.headerLines[1]).toMatch(/^MCP-Session-Id: [\x21-\x7e]+$/);
    expect(JSON.parse(raw.body.toString())).toEqual({
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'mcp-error-matrix-mock', version: '0.1.0' } },
    });
  });

  it('refuses requests without a session id (400) or with an unknown one (404), accepts a valid one', async () => {
    const server = await start(makeCase([{ body: { json: SUCCESS_JSON } }]));
    const sessionId = await initialize(server);
    expect((await sendRaw(server.url, { body: call(1) })).statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect((await sendRaw(server.url, { body: call(1), headers: { 'Mcp-Session-Id': 'nope' } })).statusLine).toBe('HTTP/1.1 404 Not Found');
    const initialized = await sendRaw(server.url, { body: '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers: { 'Mcp-Session-Id': sessionId } });
    expect(initialized.statusLine).toBe('HTTP/1.1 202 Accepted');
    expect(initialized.body.length).toBe(0);
    const ok = await sendRaw(server.url, { body: call(1), headers: { 'Mcp-Session-Id': sessionId } });
    expect(ok.body.toString()).toContain('"id":1,');
    // Refused requests did not consume the script.
    expect(server.recording().exchanges.map((exchange) => exchange.request.scriptStep)).toEqual([undefined, undefined, undefined, undefined, 0]);
  });

  it('issues no session id when sessionId is false and then needs none', async () => {
    const server = await start(makeCase([{ body: { json: SUCCESS_JSON } }], { server: { sessionId: false } }));
    const init = await sendRaw(server.url, { body: INITIALIZE });
    expect(init.headerLines.some((line) => /^mcp-session-id/i.test(line))).toBe(false);
    expect((await sendRaw(server.url, { body: call(1) })).statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('forgets the session after expireSessionAfterCalls tools/call requests', async () => {
    const server = await start(makeCase([{ body: { json: SUCCESS_JSON } }], { server: { expireSessionAfterCalls: 1 } }));
    const sessionId = await initialize(server);
    expect((await sendRaw(server.url, { body: call(1), headers: { 'Mcp-Session-Id': sessionId } })).statusLine).toBe('HTTP/1.1 200 OK');
    expect((await sendRaw(server.url, { body: call(2), headers: { 'Mcp-Session-Id': sessionId } })).statusLine).toBe('HTTP/1.1 404 Not Found');
    const fresh = await initialize(server);
    expect(fresh).not.toBe(sessionId);
    expect((await sendRaw(server.url, { body: call(3), headers: { 'Mcp-Session-Id': fresh } })).statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('answers a client JSON-RPC response with 202 and an empty body', async () => {
    const server = await start(makeCase([{}]));
    const sessionId = await initialize(server);
    const raw = await sendRaw(server.url, { body: '{"jsonrpc":"2.0","id":"srv-1","result":{}}', headers: { 'Mcp-Session-Id': sessionId } });
    expect(raw.statusLine).toBe('HTTP/1.1 202 Accepted');
    expect(server.recording().exchanges[1]!.request.rpc).toMatchObject({ isResponse: true, id: 'srv-1' });
  });

  it('answers GET with 405 and DELETE with 200 by default', async () => {
    const server = await start(makeCase([{}]));
    const sessionId = await initialize(server);
    expect((await sendRaw(server.url, { method: 'GET', headers: { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream' } })).statusLine).toBe(
      'HTTP/1.1 405 Method Not Allowed',
    );
    expect((await sendRaw(server.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId } })).statusLine).toBe('HTTP/1.1 200 OK');
    expect((await sendRaw(server.url, { body: call(1), headers: { 'Mcp-Session-Id': sessionId } })).statusLine).toBe('HTTP/1.1 404 Not Found');
  });

  it('resumes a broken stream on GET with Last-Event-ID, replaying the later events', async () => {
    const testCase = makeCase(
      [
        {
          body: {
            sse: {
              end: 'close',
              events: [
                { id: 'e0', dataRaw: '' },
                { id: 'e1', retry: 50, data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } } },
                { id: 'e2', response: true, data: SUCCESS_JSON },
              ],
            },
          },
        },
      ],
      { server: { get: 'resume' } },
    );
    const server = await start(testCase);
    const sessionId = await initialize(server);
    await sendRaw(server.url, { body: call(4), headers: { 'Mcp-Session-Id': sessionId } });
    const resumed = await sendRaw(server.url, { method: 'GET', headers: { 'Mcp-Session-Id': sessionId, 'Last-Event-ID': 'e1' } });
    expect(resumed.statusLine).toBe('HTTP/1.1 200 OK');
    expect(resumed.body.toString()).toBe(`id: e2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 4, result: SUCCESS_JSON.result })}\n\n`);
  });

  it('keeps resumeOnly events off the POST stream and replays them byte for byte on the resuming GET', async () => {
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } };
    const testCase = makeCase(
      [{ body: { sse: { events: [{ id: 'e1', retry: 300, data: progress }, { id: 'e2', response: true, resumeOnly: true, data: SUCCESS_JSON }] } } }],
      { server: { get: 'resume' } },
    );
    const server = await start(testCase);
    const sessionId = await initialize(server);
    const post = await sendRaw(server.url, { body: call(7), headers: { 'Mcp-Session-Id': sessionId } });
    expect(post.body.toString()).toBe(`id: e1\nretry: 300\ndata: ${JSON.stringify(progress)}\n\n`);
    // A GET without a matching Last-Event-ID replays nothing (it opens a quiet standalone stream).
    const unknown = await sendRaw(server.url, { method: 'GET', headers: { 'Mcp-Session-Id': sessionId, 'Last-Event-ID': 'e9' } }, 100);
    expect(unknown).toMatchObject({ statusLine: 'HTTP/1.1 200 OK', ending: 'open' });
    expect(unknown.body.length).toBe(0);
    const resumed = await sendRaw(server.url, { method: 'GET', headers: { 'Mcp-Session-Id': sessionId, 'Last-Event-ID': 'e1' } });
    expect(resumed).toMatchObject({ statusLine: 'HTTP/1.1 200 OK', ending: 'end' });
    expect(resumed.headerLines).toContain('Content-Type: text/event-stream');
    expect(resumed.body.toString()).toBe(`id: e2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 7, result: SUCCESS_JSON.result })}\n\n`);
    const exchanges = server.recording().exchanges;
    const get = exchanges.at(-1)!;
    expect(get.request).toMatchObject({ method: 'GET', headers: { 'last-event-id': 'e1' } });
    expect(get.response).toMatchObject({ status: 200, ending: 'complete', body: resumed.body.toString() });
    expect(exchanges[1]!.response!.events).toHaveLength(1);
  });

  it('holds a stream at an awaitReply event until the client POSTs the matching response', async () => {
    const elicit = { jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } };
    const server = await start(makeCase([{ body: { sse: { events: [{ data: elicit, awaitReply: true }, { response: true, data: SUCCESS_JSON }] } } }]));
    const sessionId = await initialize(server);
    // 10 s, not 1 s: the stream stays open until the reply below, which a loaded machine delays.
    const stream = sendRaw(server.url, { body: call(1), headers: { 'Mcp-Session-Id': sessionId } }, 10_000);
    // Waits for the first event, not a fixed 150 ms: after a stall of this thread (one is made here
    // on purpose) the timer ran before the server had read the request ('reading response' of undefined).
    setImmediate(() => stallLoop(300));
    await vi.waitFor(() => expect(server.recording().exchanges[1]?.response?.events).toHaveLength(1), { timeout: 10_000, interval: 10 });
    // Then long enough for a server that did not hold the stream to send the second event.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const beforeReply = server.recording().exchanges[1]!.response!;
    expect(beforeReply.events).toHaveLength(1);
    const reply = await sendRaw(server.url, { body: '{"jsonrpc":"2.0","id":"srv-1","result":{"action":"accept","content":{}}}', headers: { 'Mcp-Session-Id': sessionId } });
    expect(reply.statusLine).toBe('HTTP/1.1 202 Accepted');
    const raw = await stream;
    const events = raw.body.toString().split('\n\n');
    expect(events[0]).toBe(`data: ${JSON.stringify(elicit)}`);
    expect(events[1]).toContain('"id":1,');
    const recorded = server.recording().exchanges;
    expect(recorded[1]!.response!.events![1]!.at).toBeGreaterThanOrEqual(recorded[2]!.at);
  });
});
