// A cell whose harness could not set up its session (initialize got no answer in time: a loaded
// machine, a dead server) was not measured: it is an error of that cell, never a verdict judged
// against the case. Before, the call went out without a session id, the mock server refused it
// with 400, and the reference was judged to have concluded HTTP_ERROR 400: a false failure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../cases/load-cases.js';
import { classifyReference } from '../classify/reference.js';
import { createClassifierTarget } from './classifier-target.js';
import { SETUP_PATIENCE } from '../harness/harness-session.js';

let server: Server;
let url: string;
let calls = 0;

beforeAll(async () => {
  // Never answers initialize; answers anything else at once, as the mock server refuses a call without a session.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (body.includes('"initialize"')) return;
      calls++;
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request: missing MCP-Session-Id"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a classifier cell whose session setup failed', () => {
  it('is an error naming the setup step, with no verdict and no call sent', async () => {
    const item = (await loadCases()).find((loaded) => loaded.case.id === 'baseline')!.case;
    const target = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
    const outcome = await target.run({ case: item, protocolVersion: '2025-06-18', mode: 'http', serverUrl: url, timeoutMs: 300, signal: new AbortController().signal });
    // The harness's own setup waits SETUP_PATIENCE times the per-exchange timeout.
    expect(outcome.error).toBe(`the harness could not set up its session (initialize: no complete response within ${300 * SETUP_PATIENCE} ms): the cell was not measured`);
    expect(outcome.verdicts).toEqual([]);
    expect(calls).toBe(0);
  });
});

describe('a classifier cell whose harness timed out on an answer the script gives at once', () => {
  it('is an error (the runner was too busy), never a NO_RESPONSE verdict judged against the case', async () => {
    // 2026-07-28 has no session setup; this server never answers the call, as a runner too busy to serve it would not.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const item = (await loadCases()).find((loaded) => loaded.case.id === 'baseline')!.case;
      const target = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
      const outcome = await target.run({ case: item, protocolVersion: '2026-07-28', mode: 'http', serverUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`, timeoutMs: 200, signal: new AbortController().signal });
      expect(outcome.error).toBe('exchange 1: the harness got no complete response within 200 ms, although the script answers sooner: the runner was too busy (an overloaded machine), so the cell was not measured');
      expect(outcome.verdicts).toEqual([]);
      // A script that hangs is what a timeout measures: that cell is judged.
      const hang = (await loadCases()).find((loaded) => loaded.case.id === 'no-response-hang')!.case;
      const judged = await target.run({ case: hang, protocolVersion: '2026-07-28', mode: 'http', serverUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`, timeoutMs: 200, signal: new AbortController().signal });
      expect(judged.error).toBeUndefined();
      expect(judged.verdicts).toMatchObject([{ outcome: 'NO_RESPONSE' }]);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
