// How long this process's event loop could not run, and deadlines that do not count that time.
//
// The mock server, the harness and every deadline the runner keeps share one event loop. When the
// machine is overloaded (or the loop is busy), the loop can stall for seconds; when it runs again,
// expired timers run before the sockets are read. A deadline would then fire although the answer
// it waits for was already sent, and a correct target would be judged as having timed out. Here
// the loop's stalls are measured by a ticker, and a stall-aware deadline adds the stalled time to
// its wait before it gives up. Where Linux counts it (runner/starvation/schedstat.ts), the time
// the loop's thread waited for a CPU is added too: on a machine with more runnable processes than
// cores a process loses its time in many short waits, none of them a stall.
import { hasCpuWaitCounter, OWN_SCHEDSTAT, readCpuWaitMs } from './schedstat.js';

/** The ticker's period. */
const TICK_MS = 20;
/**
 * A tick this late or later is a stall. Shorter lateness (timer granularity, garbage collection, a
 * busy 2-core machine sharing the CPU) is left out: counted, it added up over every long wait and
 * stretched waits that time out on purpose; a deadline still gives the loop one more turn.
 */
const STALL_MIN_MS = 100;
/** How many stalls are remembered one by one (for readStallsSince): the newest. */
const REMEMBERED_STALLS = 512;

let stalledMs = 0;
let lostMs = 0;
/** The thread's schedstat counter at the last tick (undefined where Linux does not count it). */
let cpuWaitMs: number | undefined;
let cpuWaitSum = 0;
let lastTick = 0;
let ticker: NodeJS.Timeout | undefined;
let watchers = 0;
/** Long stalls, oldest first. */
const longStalls: LoopStall[] = [];

function onTick(): void {
  const now = performance.now();
  const late = now - lastTick - TICK_MS;
  const stall = countAsStall(late);
  stalledMs += stall;
  // The time lost in this period: the stall, or the CPU wait when that was longer (a stall is
  // mostly CPU wait on an overloaded machine, so the two are not added).
  const waited = readCpuWaitDelta();
  cpuWaitSum += waited;
  lostMs += Math.max(stall, waited);
  if (stall > 0) {
    longStalls.push({ startedAt: now - stall, endedAt: now });
    if (longStalls.length > REMEMBERED_STALLS) longStalls.shift();
  }
  lastTick = now;
}

/** The CPU wait of this thread since the last call (0 where it is not counted). */
function readCpuWaitDelta(): number {
  if (cpuWaitMs === undefined) return 0;
  const now = readOwnCpuWait() ?? cpuWaitMs;
  const delta = now - cpuWaitMs;
  cpuWaitMs = now;
  return delta;
}

let readOwnCpuWait = (): number | undefined => (hasCpuWaitCounter() ? readCpuWaitMs(OWN_SCHEDSTAT) : undefined);

/**
 * Test hook: where the ticker reads this thread's CPU-wait counter (ms); without an argument, back
 * to schedstat. Takes effect when the ticker next starts.
 */
export function setCpuWaitReaderForTest(reader?: () => number | undefined): void {
  readOwnCpuWait = reader ?? (() => (hasCpuWaitCounter() ? readCpuWaitMs(OWN_SCHEDSTAT) : undefined));
}

/** How late the next tick is at `now`, when that is a stall; else 0. */
function overshoot(now: number): number {
  return countAsStall(now - lastTick - TICK_MS);
}

/** A tick's lateness counted as a stall: all of it from STALL_MIN_MS on, none below. */
export function countAsStall(lateMs: number): number {
  return lateMs >= STALL_MIN_MS ? lateMs : 0;
}

/**
 * Milliseconds the loop has stalled since the first watcher started, including a stall still
 * under way (one the ticker has not run after yet). Only differences between two reads mean
 * anything; 0 while nobody watches.
 */
export function readStalledMs(): number {
  return ticker === undefined ? stalledMs : stalledMs + overshoot(performance.now());
}

/**
 * Milliseconds this thread lost since the first watcher started: per ticker period, the loop's
 * stall or the time it waited for a CPU, whichever is longer, a stall still under way included.
 * What stall-aware deadlines credit. Only differences between two reads mean anything.
 */
export function readLostMs(): number {
  return ticker === undefined ? lostMs : lostMs + overshoot(performance.now());
}

/**
 * Milliseconds this thread waited for a CPU since the first watcher started, as of the last tick
 * (so a read costs nothing); undefined where Linux does not count it. Only differences between two
 * reads mean anything.
 */
export function readCpuWaitSumMs(): number | undefined {
  return cpuWaitMs === undefined ? undefined : cpuWaitSum;
}

/** One stall of the loop, as performance.now() times. */
export interface LoopStall {
  readonly startedAt: number;
  readonly endedAt: number;
}

/**
 * The stalls that ended at or after `since` (a performance.now() time), oldest first, with a stall
 * still under way ending now; none while nobody watches.
 */
export function readStallsSince(since: number): LoopStall[] {
  let first = longStalls.length;
  while (first > 0 && longStalls[first - 1]!.endedAt >= since) first--;
  const stalls = longStalls.slice(first);
  const now = performance.now();
  const ongoing = ticker === undefined ? 0 : overshoot(now);
  if (ongoing > 0) stalls.push({ startedAt: now - ongoing, endedAt: now });
  return stalls;
}

/**
 * Starts measuring stalls (a 20 ms ticker that never keeps the process alive) until every caller
 * has called the returned stop function. Runs call it once for their whole duration.
 */
export function watchLoopStalls(): () => void {
  watchers += 1;
  if (ticker === undefined) {
    lastTick = performance.now();
    cpuWaitMs = readOwnCpuWait();
    ticker = setInterval(onTick, TICK_MS);
    ticker.unref();
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    watchers -= 1;
    if (watchers === 0 && ticker !== undefined) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}

/**
 * Whether anything in this thread measures stalls now (a run does while a cell's target runs):
 * stall-aware deadlines, the harness's POST deadlines among them, then credit stalled time.
 */
export function isWatchingLoopStalls(): boolean {
  return ticker !== undefined;
}

export interface StallAwareTimeout {
  /** Cancels the deadline; nothing fires after it. */
  clear(): void;
  /** Milliseconds added to the wait so far because the loop stalled or waited for a CPU. */
  readonly creditedMs: number;
}

/**
 * Like setTimeout(onExpire, ms), but when it fires it first adds the time this thread lost since
 * it was set (and since the last time it checked: the loop's stalls, or its wait for a CPU, see
 * readLostMs), then waits again; it gives up once `ms` of time the loop could run have passed, or
 * the added time reaches `maxCreditMs` (default: `ms`, so the wait at most doubles and a loop that
 * never recovers still ends), and then one more turn of the loop, so what arrived meanwhile is
 * read before the deadline fires. Without a watcher (watchLoopStalls) it is a plain timeout. For
 * the runner's own waits (the harness, a classifier's worker, the cell budget, the recording's
 * settle, the kill timer of a client process, so that a client that exited during a stall is not
 * taken for one killed at its limit); a client process keeps its own deadlines, and run-cell.ts
 * measures how starved it was instead (runner/starvation/).
 */
export function setStallAwareTimeout(onExpire: () => void, ms: number, maxCreditMs = ms): StallAwareTimeout {
  let seen = readLostMs();
  let credited = 0;
  let lastTurn = false;
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    const now = readLostMs();
    const stall = now - seen;
    const owed = Math.min(stall, maxCreditMs - credited);
    seen = now;
    if (owed >= 1) {
      credited += owed;
      timer = setTimeout(check, Math.ceil(owed));
      return;
    }
    // Then one more turn of the loop, once, so what arrived meanwhile (a stall past the credit, or
    // a short lateness not counted as a stall) is read before the deadline fires.
    if (!lastTurn) {
      lastTurn = true;
      timer = setTimeout(check, 1);
      return;
    }
    timer = undefined;
    onExpire();
  };
  timer = setTimeout(check, ms);
  return {
    clear() {
      clearTimeout(timer);
      timer = undefined;
    },
    get creditedMs() {
      return credited;
    },
  };
}
