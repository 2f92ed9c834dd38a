import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, util as undiciUtil } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { raceAnswerAgainstDeadline, raceTwoStepAnswerAgainstDeadline } from '../../test/race-answer-against-deadline.js';
import { isWatchingLoopStalls, watchLoopStalls } from '../starvation/loop-stall.js';
import { createPostDeadlines } from './post-deadlines.js';
import { normalizeResponseHeaders } from './exchange-response.js';
import { pairRawHeaders, postMessage } from './post-message.js';

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

const post = (deadlines: ReturnType<typeof createPostDeadlines>, timeoutMs: number) => postMessage({ dispatcher: pool!, path: '/mcp', headers: {}, body: '{}', deadlines, timeoutMs });

describe('postMessage', () => {
  it("adds one abort listener per session to the session's signal, none per POST, and removes it at close", async () => {
    pool = new Pool(await startSlowServer(50), { connections: 20 });
    const cell = new AbortController();
    const deadlines = createPostDeadlines(2000, cell.signal);
    const posts = Array.from({ length: 20 }, () => post(deadlines, 2000));
    expect(getEventListeners(cell.signal, 'abort')).toHaveLength(1);
    const responses = await Promise.all(posts);
    expect(responses.map((response) => response.body)).toEqual(Array(20).fill('{"ok":true}'));
    deadlines.close();
    expect(getEventListeners(cell.signal, 'abort')).toHaveLength(0);
  });

  it('still stops a POST when the run signal aborts, as a timeout', async () => {
    pool = new Pool(await startSlowServer(60_000));
    const run = new AbortController();
    // The POST's own deadline is 20 s: stopped well before it, the abort stopped it. (A 1 s bound
    // after the abort failed on a 1.1 s stall of this thread, which a loaded machine makes.)
    const deadlines = createPostDeadlines(20_000, run.signal);
    const pending = post(deadlines, 20_000);
    setTimeout(() => run.abort(), 30);
    const started = performance.now();
    const response = await pending;
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(response.transportError?.kind).toBe('timeout');
    deadlines.close();
  });

  it("times each POST out at its own deadline, not at an earlier POST's", async () => {
    pool = new Pool(await startSlowServer(60_000), { connections: 2 });
    const timeoutMs = 300;
    const deadlines = createPostDeadlines(timeoutMs);
    const firstStarted = performance.now();
    let firstEnded = 0;
    const first = post(deadlines, timeoutMs).then((response) => ((firstEnded = performance.now()), response));
    // The second starts once the first has been waiting a while, so their deadlines differ by as much.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const secondStarted = performance.now();
    let secondEnded = 0;
    const second = post(deadlines, timeoutMs).then((response) => ((secondEnded = performance.now()), response));
    const firstResponse = await first;
    expect(secondEnded).toBe(0);
    const secondResponse = await second;
    for (const response of [firstResponse, secondResponse]) expect(response.transportError).toEqual({ kind: 'timeout', message: `no complete response within ${timeoutMs} ms` });
    // Never before its own deadline (a millisecond of timer rounding allowed).
    expect(firstEnded - firstStarted).toBeGreaterThanOrEqual(timeoutMs - 1);
    expect(secondEnded - secondStarted).toBeGreaterThanOrEqual(timeoutMs - 1);
    deadlines.close();
  });

  it('gives a POST started after an earlier one ended its whole budget', async () => {
    pool = new Pool(await startSlowServer(0));
    const timeoutMs = 400;
    const deadlines = createPostDeadlines(timeoutMs);
    expect((await post(deadlines, timeoutMs)).body).toBe('{"ok":true}');
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Answered after 300 ms: inside its own budget, though past the first POST's deadline.
    server!.removeAllListeners('request');
    server!.on('request', (req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end('late but in time'), 300));
    });
    const response = await post(deadlines, timeoutMs);
    expect(response).toMatchObject({ status: 200, body: 'late but in time' });
    expect(response.transportError).toBeUndefined();
    deadlines.close();
  });
});

describe('POST deadlines and loop stalls', () => {
  it("do not count a stall of this process's loop: an answer sent before the deadline is read, not timed out", async () => {
    // The two controls below race with nothing measuring stalls in this thread. Test files share
    // their worker thread, and a cell an earlier file left running measures them for as long as it
    // runs: the POST deadlines then credit the stall and the control read 'answer' (a fresh clone's
    // npm test, whose files ran in another order). Wait for the thread to be quiet first.
    await waitUntilNothingWatchesStalls();
    // A plain timer loses: the stalled loop runs it before it reads the socket.
    expect(await raceAnswerAgainstDeadline((onExpire, ms) => setTimeout(onExpire, ms))).toEqual(['deadline']);
    // The deadlines give the loop one more turn before they stop a POST, watched or not.
    expect(await raceAnswerAgainstDeadline((onExpire, ms) => createPostDeadlines(ms).watch(onExpire))).toEqual(['answer']);
    // When the stall kept the server from reading the question, only adding the stalled time helps.
    expect(await raceTwoStepAnswerAgainstDeadline((onExpire, ms) => createPostDeadlines(ms).watch(onExpire))).toEqual(['deadline']);
    const stopWatching = watchLoopStalls();
    try {
      expect(await raceTwoStepAnswerAgainstDeadline((onExpire, ms) => createPostDeadlines(ms).watch(onExpire))).toEqual(['answer']);
    } finally {
      stopWatching();
    }
  });

  it('race the unwatched control only once a run left going in this thread has stopped measuring stalls', async () => {
    // What a cell left running by an earlier test file does to the control: it reads 'answer'.
    const leftover = watchLoopStalls();
    const unwatched = (onExpire: () => void, ms: number) => createPostDeadlines(ms).watch(onExpire);
    try {
      expect(await raceTwoStepAnswerAgainstDeadline(unwatched)).toEqual(['answer']);
    } finally {
      setTimeout(leftover, 200);
    }
    // The wait outlasts it, and the control then reads 'deadline'.
    await waitUntilNothingWatchesStalls();
    expect(isWatchingLoopStalls()).toBe(false);
    expect(await raceTwoStepAnswerAgainstDeadline(unwatched)).toEqual(['deadline']);
  });

  it('read the answer after a stall of the loop although the machine then takes the CPU for 250 ms more', async () => {
    // On a loaded machine the thread can wait for a core after its own stall. That wait is counted
    // as a stall too, but the credit is capped at the deadline's length, so the race must leave room
    // for it: with 80 ms between the answer and the capped deadline, the test above read 'deadline'
    // in runs at load 8.
    const stopWatching = watchLoopStalls();
    try {
      const watched = (onExpire: () => void, ms: number) => createPostDeadlines(ms).watch(onExpire);
      expect(await raceTwoStepAnswerAgainstDeadline(watched, { machineStallMs: 250 })).toEqual(['answer']);
    } finally {
      stopWatching();
    }
  });
});

describe('pairRawHeaders', () => {
  it("gives the headers undici's parseHeaders gives, duplicates, case and latin1 bytes included", () => {
    const raw = [
      ['Content-Type', 'application/json'],
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['X-Latin', 'caf\u00e9'],
      ['WWW-Authenticate', 'Bearer realm="x"'],
      ['Connection', 'keep-alive'],
    ].flatMap(([name, value]) => [Buffer.from(name!, 'latin1'), Buffer.from(value!, 'latin1')]);
    const ours = normalizeResponseHeaders(pairRawHeaders(raw));
    expect(ours).toEqual(normalizeResponseHeaders(Object.entries(undiciUtil.parseHeaders(raw))));
    expect(ours).toEqual({ 'content-type': 'application/json', 'set-cookie': 'a=1, b=2', 'x-latin': 'caf\u00e9', 'www-authenticate': 'Bearer realm="x"' });
  });
});

/** Resolves once nothing in this thread has measured loop stalls for 300 ms on end; fails after 60 s. */
async function waitUntilNothingWatchesStalls(): Promise<void> {
  const giveUpAt = performance.now() + 60_000;
  let quietSince = performance.now();
  for (;;) {
    const now = performance.now();
    if (isWatchingLoopStalls()) quietSince = now;
    else if (now - quietSince >= 300) return;
    if (now > giveUpAt) throw new Error('something in this worker thread (a run an earlier test file left going?) has measured loop stalls for 60 s: the unwatched controls cannot run');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
