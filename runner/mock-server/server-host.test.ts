import { afterEach, describe, expect, it } from 'vitest';
import { sendRaw } from './raw-http.js';
import { createMockServerHost, startMockServer, type MockServerHost } from './server.js';
import { makeCase, SUCCESS_JSON } from './test-cases.js';

const hosts: MockServerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const call = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } });
const post = (id: number) => ({ body: call(id), headers: { 'MCP-Protocol-Version': '2026-07-28' } });

describe('mock server host (one listener, one case at a time)', () => {
  it('a re-armed case starts from a fresh script and recording, and writes the same bytes as its own server', async () => {
    const host = await createMockServerHost();
    hosts.push(host);
    const first = host.open({ case: makeCase([{ body: { json: SUCCESS_JSON } }]), protocolVersion: '2026-07-28' });
    await sendRaw(first.url, post(1));
    await first.close();
    const testCase = makeCase([{ status: 500, body: { raw: 'boom' } }]);
    const second = host.open({ case: testCase, protocolVersion: '2026-07-28' });
    expect(second.url).toBe(first.url);
    const reused = await sendRaw(second.url, post(2));
    expect(second.recording().exchanges.map((exchange) => exchange.seq)).toEqual([0]);
    expect(first.recording().exchanges).toHaveLength(1);
    await second.close();

    const own = await startMockServer({ case: testCase, protocolVersion: '2026-07-28' });
    const alone = await sendRaw(own.url, post(2));
    await own.close();
    expect(reused.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(reused.headerLines).toEqual(alone.headerLines);
    expect(reused.body.toString()).toBe(alone.body.toString());
  });

  it('drops a connection that arrives while no case is armed, and refuses a second open', async () => {
    const host = await createMockServerHost();
    hosts.push(host);
    const armed = host.open({ case: makeCase([{ body: { json: SUCCESS_JSON } }]), protocolVersion: '2026-07-28' });
    expect(() => host.open({ case: makeCase([]), protocolVersion: '2026-07-28' })).toThrow(/still open/);
    await armed.close();
    const straggler = await sendRaw(armed.url, post(3), 500);
    expect(straggler.bytes.length).toBe(0);
    expect(armed.recording().exchanges).toHaveLength(0);
  });
});
