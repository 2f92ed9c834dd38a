import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { postMessage } from './post-message.js';

let server: Server | undefined;
let pool: Pool | undefined;
afterEach(async () => {
  await pool?.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = pool = undefined;
});

// A server that answers every POST after `delayMs`, so many POSTs are in flight at once.
async function startSlowServer(delayMs: number): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.end('{"ok":true}'), delayMs));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('postMessage', () => {
  it('adds no abort listener to the shared run signal, however many POSTs are in flight', async () => {
    pool = new Pool(await startSlowServer(50), { connections: 20 });
    const run = new AbortController();
    const posts = Array.from({ length: 20 }, () => postMessage({ dispatcher: pool!, path: '/mcp', headers: {}, body: '{}', timeoutMs: 2000, signal: run.signal }));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    const responses = await Promise.all(posts);
    expect(responses.map((response) => response.body)).toEqual(Array(20).fill('{"ok":true}'));
  });

  it('still stops a POST when the run signal aborts, as a timeout', async () => {
    pool = new Pool(await startSlowServer(5000));
    const run = new AbortController();
    const pending = postMessage({ dispatcher: pool, path: '/mcp', headers: {}, body: '{}', timeoutMs: 2000, signal: run.signal });
    setTimeout(() => run.abort(), 30);
    const started = performance.now();
    const response = await pending;
    expect(performance.now() - started).toBeLessThan(1000);
    expect(response.transportError?.kind).toBe('timeout');
  });
});
