// The preload a command-line client runs with (cli-wire-preload.mjs): it reports each tools/call POST,
// its status and the JSON-RPC errors the server sent for its ids, and changes nothing the client sees.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const preload = new URL('./cli-wire-preload.mjs', import.meta.url);
const { WIRE_PREFIX } = (await import('./cli-wire-preload.mjs' as string)) as { WIRE_PREFIX: string };

let server: Server;
let url: string;
beforeAll(async () => {
  // A JSON error for a tools/call, an SSE stream with a notification then an error, and 200 for the rest.
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method?: string };
      if (message.method !== 'tools/call') return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      if (message.id === 1) return response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } }));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\ndata: {"jsonrpc":"2.0",\ndata: "id":2,"error":{"code":-32001,"message":"late"}}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs a script under the preload; returns its stdout and the wire events it reported on stderr. */
async function runWithPreload(script: string, env: Record<string, string> = { MEM_CLI_WIRE: '1' }) {
  const { stdout, stderr } = await run(process.execPath, ['--import', pathToFileURL(preload.pathname).href, '--input-type=module', '-e', script], { env: { ...process.env, ...env } });
  const events = stderr.split('\n').filter((line) => line.startsWith(WIRE_PREFIX)).map((line) => JSON.parse(line.slice(WIRE_PREFIX.length)) as unknown);
  return { stdout, events, otherStderr: stderr.split('\n').filter((line) => line !== '' && !line.startsWith(WIRE_PREFIX)) };
}

/** A script expression that POSTs one JSON-RPC request to the test server and reads the body. */
const post = (id: number, method: string) => `await (await fetch(${JSON.stringify(url)}, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: ${id}, method: '${method}', params: {} }) })).text()`;

describe('cli-wire-preload: the wire of a client process, reported beside what it prints', () => {
  it('reports a tools/call POST, its status and the JSON-RPC error the server sent for its id; the client reads the body unchanged', async () => {
    const { stdout, events } = await runWithPreload(`process.stdout.write(${post(1, 'tools/call')});`);
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } });
    expect(events).toEqual([{ sent: 1 }, { status: 400 }, { peerError: { code: -32602, message: 'bad params' } }]);
  });

  it("reads an SSE stream's events, data split over lines included, and ignores requests that are not tools/call", async () => {
    const { events } = await runWithPreload(`${post(7, 'tools/list')}; ${post(2, 'tools/call')};`);
    expect(events).toEqual([{ sent: 1 }, { status: 200 }, { peerError: { code: -32001, message: 'late' } }]);
  });

  it('reports a fetch that failed before a status as status 0', async () => {
    const script = `try { await fetch('http://127.0.0.1:1/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} }) }); } catch {}`;
    const { events } = await runWithPreload(script);
    expect(events).toEqual([{ sent: 1 }, { status: 0 }]);
  });

  it('wraps nothing without MEM_CLI_WIRE=1 (the adapter imports it for the prefix)', async () => {
    const { events, otherStderr } = await runWithPreload(`${post(1, 'tools/call')};`, { MEM_CLI_WIRE: '' });
    expect(events).toEqual([]);
    expect(otherStderr).toEqual([]);
  });
});
