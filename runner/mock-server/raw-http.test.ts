// sendRaw's wait does not count a stall of this thread: an answer that came during the stall is
// read, not reported as a response still 'open'.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { stallLoop } from '../../test/race-answer-against-deadline.js';
import { sendRaw } from './raw-http.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function startServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('sendRaw', () => {
  it('reads an answer given at once although this thread stalled past its wait', async () => {
    const url = await startServer((req, res) => req.resume().on('end', () => res.end('{"ok":true}')));
    const pending = sendRaw(url, { body: '{}' }, 300);
    // A loaded machine stalls the thread for longer than the wait (1-2.5 s seen in full-suite runs).
    stallLoop(500);
    const response = await pending;
    expect(response).toMatchObject({ statusLine: 'HTTP/1.1 200 OK', ending: 'end' });
    expect(response.body.toString()).toBe('{"ok":true}');
  });

  it('still reports a response the server never ends as open after its wait', async () => {
    const url = await startServer((req, res) => req.resume().on('end', () => res.writeHead(200).flushHeaders()));
    const started = performance.now();
    const response = await sendRaw(url, { body: '{}' }, 300);
    expect(response).toMatchObject({ statusLine: 'HTTP/1.1 200 OK', ending: 'open' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(299);
  });
});
