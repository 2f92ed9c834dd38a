// A cell's recording is taken once the server has seen what the target did to its connections.
// A target that gives up on a hanging response closes the connection and then settles; when the
// recording was taken right then, the server had not always read the close yet, so the same
// cell recorded `hang` in one run and `client_closed` in the next (an http-mode determinism
// failure in CI, sse-hang-after-progress@2026-07-28). These targets close and settle with no
// turn of the event loop in between: the worst case of that race, every time.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoadedCase } from '../cases/case-types.js';
import { makeCase } from '../mock-server/test-cases.js';
import type { Cell, Target } from '../vocabulary/types.js';
import { RECORDING_SETTLE_MS, runCell } from './run-cell.js';
import { createServerHosts, type ServerHosts } from './server-hosts.js';
import { readStalledMs, watchLoopStalls } from '../starvation/loop-stall.js';

const hangCase: LoadedCase = { case: makeCase([{ start: 'hang' }]), file: 'x.json', relativeFile: 'x.json', sha256: '0'.repeat(64) };
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } });

/** Sends the call on a raw connection, waits until the server holds it, then cuts it (unless told to leave it open) and concludes in the same turn. */
function makeGivingUpTarget(kind: string, leaveOpen?: Socket[]): Target {
  return {
    info: { name: `gives-up-${kind}`, kind },
    usesServer: () => true,
    run: async ({ serverUrl }) => {
      const url = new URL(serverUrl!);
      const socket: Socket = connect(Number(url.port), url.hostname);
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const head = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: ${Buffer.byteLength(CALL)}\r\n\r\n`;
      socket.write(head + CALL);
      // The script hangs: nothing comes back. Long enough for the server to read the request.
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (leaveOpen) leaveOpen.push(socket);
      else socket.destroy();
      return { verdicts: [{ outcome: 'NO_RESPONSE', layer: 'transport', detail: 'gave up' }] };
    },
  };
}

let hosts: ServerHosts | undefined;
afterEach(async () => {
  await hosts?.close();
  hosts = undefined;
});

const run = (target: Target, withHosts: boolean): Promise<Cell> => {
  if (withHosts) hosts = createServerHosts();
  return runCell({ loaded: hangCase, protocolVersion: '2026-07-28', target, mode: 'http', timeoutMs: 1000, signal: new AbortController().signal, schema: [], hosts });
};

describe("a cell's recording after the target cut a hanging response", () => {
  it.each([
    ['a classifier on the shared listener', 'classifier', true],
    ['a classifier on a server of its own', 'classifier', false],
    ['a real client', 'command', false],
  ] as const)('records client_closed every time: %s', async (_name, kind, withHosts) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const cell = await run(makeGivingUpTarget(kind), withHosts);
      await hosts?.close();
      hosts = undefined;
      const exchanges = cell.recording?.exchanges ?? [];
      expect(exchanges.map((exchange) => exchange.request.rpc?.method)).toEqual(['tools/call']);
      expect(exchanges[0]!.response).toMatchObject({ status: undefined, ending: 'client_closed' });
    }
  });

  it('waits a bounded time for a client that leaves the response open, and records it as hanging', async () => {
    const open: Socket[] = [];
    try {
      const stopWatching = watchLoopStalls();
      const started = performance.now();
      const stalledBefore = readStalledMs();
      const cell = await run(makeGivingUpTarget('command', open), false);
      const elapsed = performance.now() - started;
      // The bound is on the time this thread could run: the wait is stall-aware by design (it adds a
      // stall's length), so a loaded machine's stall added twice its length (a 3.5 s stall made in
      // the test failed 'elapsed < 4000' at 4372 ms).
      const ran = elapsed - (readStalledMs() - stalledBefore);
      stopWatching();
      expect(cell.recording?.exchanges[0]!.response).toMatchObject({ status: undefined, ending: 'hang' });
      expect(elapsed).toBeGreaterThanOrEqual(RECORDING_SETTLE_MS);
      expect(ran).toBeLessThan(RECORDING_SETTLE_MS * 8);
    } finally {
      for (const socket of open) socket.destroy();
    }
  });
});
