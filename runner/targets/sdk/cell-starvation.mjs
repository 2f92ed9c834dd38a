// How starved an SDK or stack worker was while it ran a cell, measured by the worker itself, and a
// wait counted in time the worker could run. Plain ESM, shipped as-is (worker.mjs imports it).
//
// A worker runs many cells at once in one event loop. On an overloaded machine (or with cells
// whose library work is CPU-bound) the loop runs late or not at all for a while; when it runs
// again, the library's expired timers run before the answers that came meanwhile are read, and a
// correct client "times out". The runner cannot see that from outside, so each cell's answer says
// how long this loop stood still (a 20 ms ticker; stalls of 100 ms or more), its longest stall, and, where Linux counts it
// (/proc/thread-self/schedstat, second field, ns), how long the loop's thread waited for a CPU. The
// runner decides what counts as starved (runner/starvation/judge-starvation.ts).
import { readFileSync } from 'node:fs';

const TICK_MS = 20;
/** A tick this late or later is a stall (the runner's loop-stall.ts uses the same). */
const STALL_MIN_MS = 100;
const OWN_SCHEDSTAT = '/proc/thread-self/schedstat';

let ticker;
let lastTick = 0;
let stalledMs = 0;
let users = 0;
/** Meters open now; each keeps its own longest stall. */
const open = new Set();

function onTick() {
  const now = performance.now();
  const late = now - lastTick - TICK_MS;
  if (late >= STALL_MIN_MS) {
    stalledMs += late;
    for (const meter of open) meter.longest = Math.max(meter.longest, late);
  }
  lastTick = now;
}

/** How long the loop has stood still right now (a stall still under way), when that is a stall. */
function ongoingStall() {
  if (ticker === undefined) return 0;
  const late = performance.now() - lastTick - TICK_MS;
  return late >= STALL_MIN_MS ? late : 0;
}

function watch() {
  users++;
  if (ticker === undefined) {
    lastTick = performance.now();
    ticker = setInterval(onTick, TICK_MS);
    ticker.unref();
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--users === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}

/** This thread's CPU-wait counter in ms, or undefined where Linux does not count it. */
export function readOwnCpuWaitMs() {
  try {
    const waitNs = Number(readFileSync(OWN_SCHEDSTAT, 'latin1').trim().split(/\s+/)[1]);
    return Number.isFinite(waitNs) ? waitNs / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts measuring one cell; `stop()` gives what the answer's `starvation` field carries:
 * `{process: 'worker', windowMs, stalledMs, longestStallMs?, cpuWaitMs?}`.
 */
export function startCellMeter() {
  const unwatch = watch();
  const meter = { longest: 0 };
  open.add(meter);
  const startedAt = performance.now();
  const stalled = stalledMs;
  const cpuWait = readOwnCpuWaitMs();
  return {
    stop() {
      const ongoing = ongoingStall();
      const longest = Math.max(meter.longest, ongoing);
      const cpuWaitNow = cpuWait === undefined ? undefined : readOwnCpuWaitMs();
      open.delete(meter);
      unwatch();
      return {
        process: 'worker',
        windowMs: Math.round(performance.now() - startedAt),
        stalledMs: Math.round(stalledMs + ongoing - stalled),
        ...(longest > 0 ? { longestStallMs: Math.round(longest) } : {}),
        ...(cpuWaitNow === undefined ? {} : { cpuWaitMs: Math.round(cpuWaitNow - cpuWait) }),
      };
    },
  };
}

/**
 * Waits `ms` of time this process could run: when the time is up it adds what the loop lost
 * meanwhile (its stalls, or its wait for a CPU where Linux counts it, whichever is longer) and
 * waits again, up to `maxCreditMs` added (default `ms`: the wait at most doubles), then gives the
 * loop one more turn so what arrived meanwhile is read first. For a quiet time after a client
 * concludes (a drain window in which a late re-send still reaches the wire): on a starved machine
 * a plain timer would end it before the library got to run.
 */
export function waitQuietly(ms, { maxCreditMs = ms } = {}) {
  const unwatch = watch();
  let seenStalls = stalledMs;
  let seenCpu = readOwnCpuWaitMs();
  let credited = 0;
  return new Promise((resolve) => {
    const check = (lastTurn) => {
      const stalls = stalledMs + ongoingStall() - seenStalls;
      const cpuNow = seenCpu === undefined ? undefined : readOwnCpuWaitMs();
      const cpu = cpuNow === undefined ? 0 : cpuNow - seenCpu;
      seenStalls += stalls;
      if (cpuNow !== undefined) seenCpu = cpuNow;
      const owed = Math.min(Math.max(stalls, cpu), maxCreditMs - credited);
      if (owed >= 1) {
        credited += owed;
        return void setTimeout(() => check(false), Math.ceil(owed));
      }
      if (!lastTurn) return void setTimeout(() => check(true), 1);
      unwatch();
      resolve(credited);
    };
    setTimeout(() => check(false), ms);
  });
}

const blocker = new Int32Array(new SharedArrayBuffer(4));

/** Test hook: keeps this thread's event loop from running for `ms`, as an overloaded machine does. */
export function blockLoopForTest(ms) {
  const end = performance.now() + ms;
  for (let left = ms; left > 0; left = end - performance.now()) Atomics.wait(blocker, 0, 0, left);
}
