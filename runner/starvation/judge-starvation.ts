// Whether a cell's outcome may stand although the machine was loaded: an outcome a deadline
// produced (NO_RESPONSE, STREAM_INCOMPLETE, a client killed at its time limit, a timeout) counts
// only when no process that timed the cell was starved past the threshold while it ran. Pure
// functions over the measurements each process made (runner/starvation/, worker.mjs).
import type { ProcessStarvation, TargetOutcome, TimedProcess } from '../types.js';

/**
 * A process is starved when it lost this share of the per-exchange timeout (or STARVED_MIN_MS,
 * whichever is more). A quarter: the case table's scripted delays stay under half the timeout, so
 * a client that lost less than a quarter of it still had a quarter to spare for the answer.
 */
export const STARVED_SHARE_OF_TIMEOUT = 0.25;
export const STARVED_MIN_MS = 250;
/**
 * A client process group is judged on its CPU wait alone (it may not be written in Node), and that
 * counts only when it is also at least this share of the time the group was watched: every wake-up
 * of a process on a loaded machine waits for a CPU (on 2 cores beside 12 busy loops, an idle Node
 * process with a 20 ms ticker waited 14 % of the time, one that wanted half a core 84 %; quiet,
 * 0.2 % and 10 %), which slows a process without keeping it from its answers.
 */
export const SUSTAINED_SHARE_OF_WINDOW = 0.5;

/** The time lost that makes a process starved, for a per-exchange timeout. */
export function getStarvedThresholdMs(timeoutMs: number): number {
  return Math.max(timeoutMs * STARVED_SHARE_OF_TIMEOUT, STARVED_MIN_MS);
}

/**
 * Whether a process was starved past the threshold. A Node process (the runner, a worker) measures
 * its event loop: what counts is the time the loop stood still in stalls of 100 ms or more, since
 * then its expired timers run before the answers that came meanwhile; a loop that turns every few
 * tens of ms, however loaded the machine, reads them in time (at load 23-34 on 2 cores, an SDK
 * worker running one cell waited for a CPU more than half the time, in waits of a few tens of ms,
 * and concluded what it concludes alone). A client process group is judged on its CPU wait, when
 * that was also more than half the time watched.
 */
export function isStarved(process: ProcessStarvation, timeoutMs: number): boolean {
  const threshold = getStarvedThresholdMs(timeoutMs);
  if (process.stalledMs !== undefined || process.longestStallMs !== undefined) return Math.max(process.stalledMs ?? 0, process.longestStallMs ?? 0) >= threshold;
  const waited = process.cpuWaitMs ?? 0;
  return waited >= threshold && waited >= process.windowMs * SUSTAINED_SHARE_OF_WINDOW;
}

/** Whether anything about the process's starvation was measured (its event loop, or schedstat). */
export function isMeasured(process: ProcessStarvation): boolean {
  return process.cpuWaitMs !== undefined || process.stalledMs !== undefined;
}

/**
 * Whether a deadline produced the outcome: a verdict of NO_RESPONSE or STREAM_INCOMPLETE (the
 * client's own timer, or a reset: not told apart, so both count), a client killed at its time
 * limit, or an error of a deadline of the runner's.
 */
export function isDeadlineBound(outcome: TargetOutcome): boolean {
  if (outcome.errorKind === 'timeout' || outcome.errorKind === 'starved' || outcome.run?.timedOut === true) return true;
  return outcome.verdicts.some((verdict) => verdict?.outcome === 'NO_RESPONSE' || verdict?.outcome === 'STREAM_INCOMPLETE');
}

/** The processes rounded to whole ms, and marked `starved` where they were. */
export function markStarved(processes: readonly ProcessStarvation[], timeoutMs: number): ProcessStarvation[] {
  return processes.map((process) => {
    const rounded: ProcessStarvation = { process: process.process, windowMs: Math.round(process.windowMs) };
    for (const key of ['cpuWaitMs', 'stalledMs', 'longestStallMs'] as const) {
      const value = process[key];
      if (value !== undefined) rounded[key] = Math.round(value);
    }
    return isStarved(process, timeoutMs) ? { ...rounded, starved: true } : rounded;
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
  if (process.stalledMs !== undefined) parts.push(`its event loop stood still ${formatMs(process.stalledMs)}${process.longestStallMs ? ` (the longest stall ${formatMs(process.longestStallMs)})` : ''}`);
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

/** What to do about cells a loaded machine kept from being measured. */
export function describeRemedy(): string {
  return 'run again on a less loaded machine, or with a lower --concurrency (e.g. --concurrency 2) or a higher --timeout';
}

function formatMs(ms: number): string {
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}
