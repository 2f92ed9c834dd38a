import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { sendRaw } from './raw-http.js';
import { startMockServer } from './server.js';
import { startSharedMockServer, type SharedMockServer } from './shared-server.js';
import { makeCase, SUCCESS_JSON } from './test-cases.js';

const servers: SharedMockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function start(): Promise<SharedMockServer> {
  const server = await startSharedMockServer();
  servers.push(server);
  return server;
}

const call = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } });
const post = (id: number) => ({ body: call(id), headers: { 'MCP-Protocol-Version': '2026-07-28' } });
const paths = (server: { recording(): { exchanges: { request: { path: string; body: string } }[] } }) =>
  server.recording().exchanges.map((exchange) => `${exchange.request.path} ${exchange.request.body}`);

describe('shared mock server (one listener, one path per open case)', () => {
  it('keeps each open case to its own requests, recorded under the path its own server would see', async () => {
    const shared = await start();
    const first = shared.open({ case: makeCase([{ body: { json: SUCCESS_JSON } }]), protocolVersion: '2026-07-28' });
    const second = shared.open({ case: makeCase([{ status: 500, body: { raw: 'boom' } }]), protocolVersion: '2026-07-28' });
    expect(new URL(first.url).origin).toBe(shared.origin);
    expect(first.url).not.toBe(second.url);
    expect(new URL(first.url).pathname).toMatch(/^\/cell\/[A-Za-z0-9_-]+\/mcp$/);
    const [a, b] = await Promise.all([sendRaw(first.url, post(1)), sendRaw(second.url, post(2))]);
    expect(a.statusLine).toBe('HTTP/1.1 200 OK');
    expect(b.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(paths(first)).toEqual([`/mcp ${call(1)}`]);
    expect(paths(second)).toEqual([`/mcp ${call(2)}`]);
    expect(first.recording().url).toBe(first.url);
  });

  it('writes the same bytes for a case as its own server does, a wrong endpoint under the cell included', async () => {
    const testCase = makeCase([{ status: 500, body: { raw: 'boom' } }]);
    const shared = await start();
    const cell = shared.open({ case: testCase, protocolVersion: '2026-07-28' });
    const own = await startMockServer({ case: testCase, protocolVersion: '2026-07-28' });
    try {
      const prefix = new URL(cell.url).pathname.replace(/\/mcp$/, '');
      for (const [path, request] of [['/mcp', post(3)], ['/elsewhere', post(4)]] as const) {
        const onShared = await sendRaw(cell.url, { ...request, path: prefix + path });
        const onOwn = await sendRaw(own.url, { ...request, path });
        expect(onShared.statusLine).toBe(onOwn.statusLine);
        expect(onShared.headerLines).toEqual(onOwn.headerLines);
        expect(onShared.body.toString()).toBe(onOwn.body.toString());
      }
      expect(cell.recording().exchanges.map((exchange) => [exchange.request.path, exchange.response?.status])).toEqual(
        own.recording().exchanges.map((exchange) => [exchange.request.path, exchange.response?.status]),
      );
    } finally {
      await own.close();
    }
  });

  it('answers a request for a closed or never-issued path with a 404 that says so, recorded in no case', async () => {
    const shared = await start();
    const finished = shared.open({ case: makeCase([{ body: { json: SUCCESS_JSON } }]), protocolVersion: '2026-07-28' });
    const open = shared.open({ case: makeCase([{ body: { json: SUCCESS_JSON } }]), protocolVersion: '2026-07-28' });
    await finished.close();
    const late = await sendRaw(finished.url, post(5));
    const guessed = await sendRaw(`${shared.origin}/cell/not-issued/mcp`, post(6));
    const bare = await sendRaw(`${shared.origin}/mcp`, post(7));
    for (const raw of [late, guessed, bare]) {
      expect(raw.statusLine).toBe('HTTP/1.1 404 Not Found');
      expect(raw.body.toString()).toMatch(/^mcp-error-matrix: no case is open at \/\S+ \(its cell has finished, or the path was never issued\)\n$/);
    }
    expect(finished.recording().exchanges).toEqual([]);
    expect(open.recording().exchanges).toEqual([]);
  });

  it("closing a case cuts its own hanging response and leaves another case's keep-alive connection open", async () => {
    const shared = await start();
    const pool = new Pool(shared.origin, { connections: 1 });
    try {
      const calm = shared.open({ case: makeCase([{ body: { json: SUCCESS_JSON } }], { afterScript: 'baseline' }), protocolVersion: '2026-07-28' });
      const hanging = shared.open({ case: makeCase([{ start: 'hang' }]), protocolVersion: '2026-07-28' });
      const request = (url: string, id: number) => pool.request({ path: new URL(url).pathname, method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28' }, body: call(id) });
      const sockets: unknown[] = [];
      pool.on('connect', (_origin, targets) => sockets.push(targets));
      await (await request(calm.url, 1)).body.text();
      const hang = sendRaw(hanging.url, post(2), 5000);
      // Waits on the request reaching the case (a second or more on a loaded machine), not a fixed time.
      await expect.poll(() => hanging.recording().exchanges.length, { timeout: 20_000 }).toBe(1);
      await hanging.close();
      expect((await hang).ending).not.toBe('open');
      await (await request(calm.url, 3)).body.text();
      // Both calls of the calm case went over the one connection the pool opened.
      expect(sockets).toHaveLength(1);
      expect(calm.recording().exchanges.map((exchange) => exchange.response?.status)).toEqual([200, 200]);
      expect(hanging.recording().exchanges.map((exchange) => exchange.response?.ending)).toEqual(['client_closed']);
    } finally {
      await pool.destroy();
    }
  });
});
