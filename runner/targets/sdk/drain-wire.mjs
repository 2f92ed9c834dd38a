// The drain window: after the library concluded a cell's last call (or was aborted), the cell's
// client stays open until its wire has been quiet for a while, so a late re-send (a reconnect, a
// retry the library starts after it gave the host its answer) reaches the mock server and is
// judged with the cell. Plain ESM, shipped as-is.
//
// Quiet is counted in this process's running time, not wall time: the window advances in small
// steps and a step that came late (the process stalled, as on a loaded machine) counts as at most
// two steps, so a stall cannot use up the window before a starved library got to send. One small
// module, so a stall measurement of its own can replace the step counting later.

/** The window: this much quiet (no POST started or settled, no send pending) ends it; `maxMs` bounds it. */
export const DRAIN_WINDOW = Object.freeze({ quietMs: 300, stepMs: 20, maxMs: 3000, maxWallFactor: 4 });

/**
 * Waits until the cell's wire (`log.postActivity`, bumped on every POST started or settled, and
 * `log.pendingSends`) has been quiet for `quietMs` of running time, or `maxMs` of running time
 * (at most `maxWallFactor` × `maxMs` of wall time) have passed. Resolves with what it waited.
 */
export async function drainWire(log, window = DRAIN_WINDOW) {
  const started = performance.now();
  let quiet = 0;
  let spent = 0;
  let seen = log.postActivity;
  while (spent < window.maxMs && performance.now() - started < window.maxMs * window.maxWallFactor) {
    const before = performance.now();
    await new Promise((resolve) => setTimeout(resolve, window.stepMs));
    const step = Math.min(performance.now() - before, window.stepMs * 2);
    spent += step;
    if (log.postActivity !== seen || log.pendingSends.size > 0) {
      seen = log.postActivity;
      quiet = 0;
      continue;
    }
    quiet += step;
    if (quiet >= window.quietMs) return { quietMs: Math.round(quiet), spentMs: Math.round(spent) };
  }
  return { quietMs: Math.round(quiet), spentMs: Math.round(spent), bounded: true };
}
