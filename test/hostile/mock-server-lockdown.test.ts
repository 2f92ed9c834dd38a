import fc from 'fast-check';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, test } from 'vitest';
import { setStallAwareTimeout, watchLoopStalls } from '../../runner/starvation/loop-stall.js';
import { sendRaw } from '../../runner/mock-server/raw-http.js';
import { MAX_BODY_BYTES } from '../../runner/mock-server/record-request.js';
import { isLoopbackOrigin } from '../../runner/mock-server/lockdown.js';
import { startMockServer, type MockServer } from '../../runner/mock-server/server.js';
import { makeCase, SUCCESS_JSON } from '../../runner/mock-server/test-cases.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(): Promise<MockServer> {
  const server = await startMockServer({ case: makeCase([{ body: { json: SUCCESS_JSON } }], { afterScript: 'repeat-last' }), protocolVersion: '2026-07-28' });
  servers.push(server);
  return server;
}

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } });
const HEADERS = { 'MCP-Protocol-Version': '2026-07-28', Accept: 'application/json, text/event-stream' };

/** The server still answers a correct tools/call with the scripted success. */
async function expectServing(server: MockServer): Promise<void> {
  const raw = await sendRaw(server.url, { body: CALL, headers: HEADERS }, 2000);
  expect(raw.statusLine).toBe('HTTP/1.1 200 OK');
  expect(JSON.parse(raw.body.toString())).toMatchObject({ id: 1, result: { isError: false } });
}

/** Writes raw bytes on a fresh socket (optionally half-closing), collects what comes back. */
function sendBytes(url: string, chunks: (string | Buffer)[], options: { end?: boolean; gapMs?: number; maxMs?: number } = {}): Promise<{ text: string; ending: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let settled = false;
    const settle = (ending: string) => {
      if (settled) return;
      settled = true;
      timer.clear();
      stopWatching();
      socket.destroy();
      resolve({ text: Buffer.concat(received).toString('latin1'), ending });
    };
    // Stall-aware, as sendRaw: a stall of this thread is not counted against the wait.
    const stopWatching = watchLoopStalls();
    const timer = setStallAwareTimeout(() => settle('open'), options.maxMs ?? 1000);
    socket.on('data', (bytes: Buffer) => received.push(bytes));
    socket.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? 'error'));
    socket.on('close', () => settle('closed'));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (options.gapMs) await new Promise((wait) => setTimeout(wait, options.gapMs));
      }
      if (options.end && !socket.destroyed) socket.end();
    });
  });
}

function requestHead(body: string, extra = ''): string {
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extra}\r\n`;
}

describe('mock server lockdown', () => {
  test('listens on 127.0.0.1 only', async () => {
    const server = await start();
    const { hostname, port } = new URL(server.url);
    expect(hostname).toBe('127.0.0.1');
    const others = ['::1', ...Object.values(networkInterfaces()).flat().filter((nic) => nic && !nic.internal).map((nic) => nic!.address)];
    for (const address of others) {
      const result = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), address);
        socket.on('connect', () => (socket.destroy(), resolve('connected')));
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(result, `connecting on ${address}`).not.toBe('connected');
    }
    await expectServing(server);
  });

  test('a 10 MB body gets 413 and the server keeps serving', async () => {
    const server = await start();
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}}}`;
    expect(body.length).toBeGreaterThan(MAX_BODY_BYTES);
    const reply = await sendBytes(server.url, [requestHead(body), body], { maxMs: 3000 });
    expect(reply.text).toMatch(/^HTTP\/1\.1 413 /);
    await expectServing(server);
  });

  test('a 64 KB header gets 431 and the server keeps serving', async () => {
    const server = await start();
    const reply = await sendBytes(server.url, [requestHead(CALL, `X-Huge: ${'h'.repeat(64 * 1024)}\r\n`), CALL]);
    expect(reply.text).toMatch(/^HTTP\/1\.1 431 /);
    await expectServing(server);
  });

  test.each([
    ['https://evil.example', 403],
    ['null', 403],
    ['http://localhost.evil.example', 403],
    ['http://127.0.0.1.nip.io:8080', 403],
    ['http://localhost:6274', 200],
    ['http://127.0.0.1:3000', 200],
    ['http://[::1]:3000', 200],
  ])('Origin %s → %i', async (origin, status) => {
    const server = await start();
    const raw = await sendRaw(server.url, { body: CALL, headers: { ...HEADERS, Origin: origin } });
    expect(raw.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    if (status === 403) {
      const error = JSON.parse(raw.body.toString()) as Record<string, unknown>;
      expect(error).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      expect('id' in error).toBe(false);
      // The refusal consumed no script step: the next call still gets the scripted success.
      expect(server.recording().exchanges[0]?.request.scriptStep).toBeUndefined();
    }
    await expectServing(server);
  });

  test('isLoopbackOrigin reads the origin, not a prefix', () => {
    expect(isLoopbackOrigin('http://sub.localhost:1')).toBe(true);
    expect(isLoopbackOrigin('file:///etc/passwd')).toBe(false);
    expect(isLoopbackOrigin('http://127.0.0.1@evil.example')).toBe(false);
  });

  test('a slow connection does not block others, and is served when it completes', async () => {
    const server = await start();
    const whole = requestHead(CALL) + CALL;
    const pieces = whole.match(/[\s\S]{1,24}/g) ?? [];
    const slow = sendBytes(server.url, pieces, { gapMs: 8, maxMs: 5000 });
    await expectServing(server);
    expect((await slow).text).toMatch(/^HTTP\/1\.1 200 /);
  });

  test('half-closed and truncated connections do not stop the server', async () => {
    const server = await start();
    const halfClosed = await sendBytes(server.url, [requestHead(CALL) + CALL], { end: true });
    expect(halfClosed.text).toMatch(/^HTTP\/1\.1 200 /);
    await sendBytes(server.url, ['POST /mc'], { end: true, maxMs: 300 });
    await sendBytes(server.url, [requestHead(CALL), CALL.slice(0, 10)], { end: true, maxMs: 300 });
    await sendBytes(server.url, [requestHead(CALL), CALL.slice(0, 10)], { maxMs: 100 }); // abandoned mid-body
    await expectServing(server);
  });

  test('raw-socket fuzz: random bytes, broken request lines, bad framing; the server keeps serving', async () => {
    const server = await start();
    const line = fc.constantFrom('POST /mcp HTTP/1.1', 'GET / HTTP/1.1', 'POST /mcp HTTP/9.9', 'P\u0000ST /mcp HTTP/1.1', 'POST', '', 'POST /mcp HTTP/1.1 extra', 'BREW /mcp HTTP/1.1');
    const header = fc.oneof(
      fc.constantFrom('Content-Length: 5', 'Content-Length: -1', 'Content-Length: 99999999999', 'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip, chunked', 'Content-Length: 3\r\nContent-Length: 4', 'Host', ': x', 'X: \u0001'),
      fc.string({ maxLength: 40 }),
      fc.nat({ max: 40_000 }).map((n) => `X-Big: ${'b'.repeat(n)}`),
    );
    const request = fc.tuple(line, fc.array(header, { maxLength: 4 }), fc.string({ maxLength: 60 }), fc.constantFrom('\r\n', '\n', '\r'), fc.nat()).map(([start, headers, body, eol, cut]) => {
      const text = `${start}${eol}${headers.join(eol)}${eol}${eol}${body}`;
      return Buffer.from(text.slice(0, cut % (text.length + 1)), 'utf8');
    });
    const input = fc.oneof(request, fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)));
    const samples = fc.sample(input, { seed: 42, numRuns: 150 });
    const replies = await Promise.all(samples.map((bytes, index) => sendBytes(server.url, [bytes], { end: index % 2 === 0, maxMs: 600 })));
    // Every reply that has a status line is a well-formed one.
    for (const reply of replies) if (reply.text !== '') expect(reply.text).toMatch(/^HTTP\/1\.1 \d{3} /);
    await expectServing(server);
  });
});
