// Whether a cell's outcome may stand although the machine was loaded: an outcome a deadline
// produced (NO_RESPONSE, STREAM_INCOMPLETE, a client killed at its time limit, a timeout) counts
// only when no process that timed the cell was starved past the threshold while it ran. Pure
// functions over the measurements each process made (runner/starvation/, worker.mjs).
import type { ProcessStarvation, TargetOutcome, TimedProcess } from '../vocabulary/types.js';

/**
 * A process is starved when it lost this share of the per-exchange timeout (or STARVED_MIN_MS,
 * whichever is more). A quarter: the case table's scripted delays stay under half the timeout, so
 * a client that lost less than a quarter of it still had a quarter to spare for the answer.
 */
export const STARVED_SHARE_OF_TIMEOUT = 0.25;
export const STARVED_MIN_MS = 250;
/**
 * Time lost in many short waits counts only when it is at least this share of the time the process
 * was watched: every wake-up of a process on a loaded machine waits for a CPU (on 2 cores beside 12
 * busy loops, an idle Node process with a 20 ms ticker waited 14 % of the time, one that wanted half
 * a core 84 %; quiet, 0.2 % and 10 %), and at load 20-30 an idle Node process also stands still for
 * 100-300 ms now and then; either slows a process without keeping it from its answers. More than
 * half the time is a process that could not keep up.
 */
export const SUSTAINED_SHARE_OF_WINDOW = 0.5;

/** The time lost that makes a process starved, for a per-exchange timeout. */
export function getStarvedThresholdMs(timeoutMs: number): number {
  return Math.max(timeoutMs * STARVED_SHARE_OF_TIMEOUT, STARVED_MIN_MS);
}

export interface StarvedOptions {
  /**
   * The process played the client's part in the cell (a worker, a client process, the runner's own
   * harness for a classifier): its starvation over the whole cell counts, not only while the
   * server had an answer to send. @default true, except for the runner
   */
  asClient?: boolean;
}

/**
 * Whether a process was starved past the threshold.
 * - As the mock server (the runner): its event loop stood still that long while the server had an
 *   answer of the cell to send (stalledWhileDueMs): the answer went out that much late.
 * - As a client, a Node process (a worker, the runner's harness) measures its event loop: one stall
 *   that long (its expired timers then run before the answers that came meanwhile), or that much
 *   stalled time in all when it was more than half the time watched (a loop that could not keep up).
 *   A loop that turns every few tens of ms, however loaded the machine, reads its answers in time.
 * - A client process group is judged on its CPU wait, when that was also more than half the time.
 */
export function isStarved(process: ProcessStarvation, timeoutMs: number, options: StarvedOptions = {}): boolean {
  const threshold = getStarvedThresholdMs(timeoutMs);
  if ((process.stalledWhileDueMs ?? 0) >= threshold) return true;
  if (!(options.asClient ?? process.process !== 'runner')) return false;
  const sustained = (lost: number) => lost >= threshold && lost >= process.windowMs * SUSTAINED_SHARE_OF_WINDOW;
  if (process.stalledMs !== undefined || process.longestStallMs !== undefined) return (process.longestStallMs ?? 0) >= threshold || sustained(process.stalledMs ?? 0);
  return sustained(process.cpuWaitMs ?? 0);
}

/** Whether anything about the process's starvation was measured (its event loop, or schedstat). */
export function isMeasured(process: ProcessStarvation): boolean {
  return process.cpuWaitMs !== undefined || process.stalledMs !== undefined;
}

/**
 * Whether a deadline may have produced the outcome: a verdict of NO_RESPONSE or STREAM_INCOMPLETE
 * (the client's own timer, or a reset: not told apart, so both count), a call the client concluded
 * nothing about (a client that gave up in its setup says so: a persistent client at load 20-30
 * concluded nothing after its own initialize timed out), a client killed at its time limit, or an
 * error of a deadline of the runner's.
 */
export function isDeadlineBound(outcome: TargetOutcome): boolean {
  if (outcome.errorKind === 'timeout' || outcome.errorKind === 'starved' || outcome.run?.timedOut === true) return true;
  return outcome.verdicts.some((verdict) => verdict === null || verdict.outcome === 'NO_RESPONSE' || verdict.outcome === 'STREAM_INCOMPLETE');
}

/** The processes rounded to whole ms, and marked `starved` where they were (`runnerAsClient`: a classifier's harness runs in the runner). */
export function markStarved(processes: readonly ProcessStarvation[], timeoutMs: number, runnerAsClient = false): ProcessStarvation[] {
  return processes.map((process) => {
    const rounded: ProcessStarvation = { process: process.process, windowMs: Math.round(process.windowMs) };
    for (const key of ['cpuWaitMs', 'stalledMs', 'longestStallMs', 'stalledWhileDueMs'] as const) {
      const value = process[key];
      if (value !== undefined) rounded[key] = Math.round(value);
    }
    const asClient = process.process !== 'runner' || runnerAsClient;
    return isStarved(process, timeoutMs, { asClient }) ? { ...rounded, starved: true } : rounded;
  });
}

const PROCESS_NAMES: Record<TimedProcess, string> = {
  runner: 'the runner (its mock server and harness)',
  worker: 'the SDK worker',
  client: 'the client process',
};

/** One process's starvation in words: "the SDK worker: waited 1,234 ms for a CPU and its event loop stood still 800 ms (the longest stall 600 ms), in 2,100 ms". */
export function describeStarvation(process: ProcessStarvation): string {
  const parts: string[] = [];
  if (process.cpuWaitMs !== undefined) parts.push(`waited ${formatMs(process.cpuWaitMs)} for a CPU`);
  if (process.stalledMs !== undefined) {
    const due = process.stalledWhileDueMs ? `, ${formatMs(process.stalledWhileDueMs)} of it while an answer was due` : '';
    parts.push(`its event loop stood still ${formatMs(process.stalledMs)}${process.longestStallMs ? ` (the longest stall ${formatMs(process.longestStallMs)}${due})` : due}`);
  }
  return `${PROCESS_NAMES[process.process]}: ${parts.join(' and ') || 'nothing measured'}, in ${formatMs(process.windowMs)}`;
}

/** The error of a cell whose deadline-produced outcome cannot count: which process, by how much, and what to do. */
export function describeStarvedCell(starved: readonly ProcessStarvation[], timeoutMs: number): string {
  return (
    `not measured: a deadline produced the outcome while ${starved.map(describeStarvation).join('; ')} ` +
    `(the threshold is a quarter of the ${formatMs(timeoutMs)} timeout, at least ${formatMs(STARVED_MIN_MS)}: ${formatMs(getStarvedThresholdMs(timeoutMs))}), so the machine's load, not the target, may have decided it; ` +
    `${describeRemedy()}`
  );
}

/**
 * The error of a cell whose target failed (an adapter's setup that gave up, a client that broke off)
 * while a process that timed it was starved: the load may have caused the failure, so it is not yet
 * the target's; the target's own words are kept.
 */
export function describeStarvedError(error: string, starved: readonly ProcessStarvation[], timeoutMs: number): string {
  return (
    `not measured: the target failed while ${starved.map(describeStarvation).join('; ')} ` +
    `(the threshold is ${formatMs(getStarvedThresholdMs(timeoutMs))}), so the machine's load may have caused it; ${describeRemedy()}. The target said: ${error}`
  );
}

/** What to do about cells a loaded machine kept from being measured. */
export function describeRemedy(): string {
  return 'run again on a less loaded machine, or with a lower --concurrency (e.g. --concurrency 2) or a higher --timeout';
}

function formatMs(ms: number): string {
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}
