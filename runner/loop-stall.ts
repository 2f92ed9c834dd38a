// How long this process's event loop could not run, and deadlines that do not count that time.
//
// The mock server, the harness and every deadline the runner keeps share one event loop. When the
// machine is overloaded (or the loop is busy), the loop can stall for seconds; when it runs again,
// expired timers run before the sockets are read. A deadline would then fire although the answer
// it waits for was already sent, and a correct target would be judged as having timed out. Here
// the loop's stalls are measured by a ticker, and a stall-aware deadline adds the stalled time to
// its wait before it gives up.

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
let lastTick = 0;
let ticker: NodeJS.Timeout | undefined;
let watchers = 0;
/** Long stalls, oldest first. */
const longStalls: LoopStall[] = [];

function onTick(): void {
  const now = performance.now();
  const stall = overshoot(now);
  stalledMs += stall;
  if (stall > 0) {
    longStalls.push({ startedAt: now - stall, endedAt: now });
    if (longStalls.length > REMEMBERED_STALLS) longStalls.shift();
  }
  lastTick = now;
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
  /** Milliseconds added to the wait so far because the loop stalled. */
  readonly creditedMs: number;
}

/**
 * Like setTimeout(onExpire, ms), but when it fires it first adds the time the loop stalled since it
 * was set (and since the last time it checked), then waits again; it gives up once `ms` of time
 * the loop could run have passed, or the added time reaches `maxCreditMs` (default: `ms`, so the
 * wait at most doubles and a loop that never recovers still ends), and then one more turn of the
 * loop, so what arrived meanwhile is read before the deadline fires. Without a watcher
 * (watchLoopStalls) it is a plain timeout. For the runner's own waits on work in this process or
 * its threads (the harness, a classifier's worker, the cell budget); a client process keeps its
 * own deadlines, so the runner's kill timers for it stay plain (run-cell.ts judges such a cell
 * unmeasured after a long stall instead).
 */
export function setStallAwareTimeout(onExpire: () => void, ms: number, maxCreditMs = ms): StallAwareTimeout {
  let seen = readStalledMs();
  let credited = 0;
  let lastTurn = false;
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    const now = readStalledMs();
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
