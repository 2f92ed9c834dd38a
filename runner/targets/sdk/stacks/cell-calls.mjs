// The part of a cell every adapter runs alike: the cell's explicit calls one after another, each
// observed before any mapping (observe-call.mjs) and mapped by the contract (map-observation.mjs),
// under the host's last-resort abort; the drain window; a close that may not hold the answer.
// Plain ESM, shipped as-is.
import { drainWire } from '../drain-wire.mjs';
import { readCallContext, startCall } from '../cell-log.mjs';
import { mapObservation } from '../map-observation.mjs';
import { observeReturned, observeThrown } from '../observe-call.mjs';

/** After the host's last-resort abort, how long a call may take to settle before it counts as hung. */
export const HUNG_GRACE_MS = 2000;

/**
 * Runs `call(index, hostSignal)` `cell.calls` times. Each call keeps the deadlines the adapter gave
 * the library; `hostSignal` is the host's last resort, aborted after `cell.callBudgetMs` (the same
 * budget per case whatever the stack): an observation that settled only after it says
 * `hostAborted`, one that never settled is `hung`. Returns the observations and what each maps to.
 */
export async function observeCalls({ cell, kind, log, classes, call }) {
  const calls = [];
  const results = [];
  for (let index = 0; index < cell.calls; index++) {
    startCall(log);
    const observation = await observeCall((signal) => call(index, signal), classes, cell.callBudgetMs ?? cell.timeoutMs * 3);
    calls.push(observation);
    results.push(mapObservation(kind, observation, readCallContext(log, cell.protocolVersion)));
  }
  return { calls, results };
}

/** One call observed under the host's last-resort abort (`budgetMs`). */
export async function observeCall(run, classes, budgetMs) {
  const host = new AbortController();
  const started = performance.now();
  let timer = setTimeout(() => host.abort(new Error(`the host's last-resort abort after ${budgetMs} ms`)), budgetMs);
  const settled = Promise.resolve()
    .then(() => run(host.signal))
    .then(
      (value) => observeReturned(value),
      (error) => ({ threw: observeThrown(error, classes) }),
    );
  const hung = new Promise((resolve) => {
    host.signal.addEventListener('abort', () => {
      timer = setTimeout(() => resolve({ hung: { afterMs: Math.round(performance.now() - started) } }), HUNG_GRACE_MS);
    });
  });
  try {
    const observation = await Promise.race([settled, hung]);
    return host.signal.aborted && 'threw' in observation ? { ...observation, hostAborted: true } : observation;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `run(signal)` under a whole-call deadline of `ms` joined with the host's last-resort signal:
 * the deadline is a library option for a library that offers no per-request one (ai-sdk's
 * `abortSignal`). A timer of our own, cleared when the call settles: an AbortSignal.timeout inside
 * AbortSignal.any may be collected before it fires, and then the call ran on to the last resort.
 */
export async function withCallDeadline(ms, hostSignal, run) {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DOMException(`the host's deadline of ${ms} ms for the call passed`, 'TimeoutError')), ms);
  const onHostAbort = () => deadline.abort(hostSignal.reason);
  hostSignal.addEventListener('abort', onHostAbort, { once: true });
  try {
    return await run(deadline.signal);
  } finally {
    clearTimeout(timer);
    hostSignal.removeEventListener('abort', onHostAbort);
  }
}

/** The answer of a cell whose calls ran: after the drain window, with the cell's observation record. */
export async function answerCell(cell, log, observed, elapsedMs, notes = log.notes) {
  await drainWire(log);
  return { id: cell.id, results: observed.results, observed: { calls: observed.calls, toolCallsSent: log.toolCallsSent }, notes, durationMs: elapsedMs() };
}

/** Closes a client, waiting `limitMs` at most: a close that hangs must not hold the cell's answer. */
export async function closeWithin(close, limitMs = 500) {
  const closing = Promise.resolve()
    .then(close)
    .catch(() => {});
  await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, limitMs).unref())]);
}
