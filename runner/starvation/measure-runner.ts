// The runner's own starvation over one cell: its event loop's stalls, the longest of them and the
// time its thread waited for a CPU, read from the counters the loop ticker keeps (loop-stall.ts),
// so a cell costs two reads of each and no system call. The ticker must run meanwhile
// (watchLoopStalls; runCell keeps it running while a target runs).
import { readCpuWaitSumMs, readStalledMs, readStallsSince, type LoopStall } from './loop-stall.js';
import type { ProcessStarvation } from '../vocabulary/types.js';
import { sumStallsWithin, type AnswerWindow } from './answer-windows.js';

export interface RunnerMeter {
  /** The runner's stalls since the meter started, oldest first (for the cell's answer windows). */
  readStalls(): LoopStall[];
  /** What the runner lost since the meter started; with the cell's answer windows, the stalls while an answer was due too. */
  stop(windows?: readonly AnswerWindow[]): ProcessStarvation;
}

/** Starts measuring the runner's starvation for one cell. */
export function startRunnerMeter(): RunnerMeter {
  const startedAt = performance.now();
  const stalled = readStalledMs();
  const cpuWait = readCpuWaitSumMs();
  return {
    readStalls: () => readStallsSince(startedAt),
    stop(windows) {
      const stalls = readStallsSince(startedAt);
      const longest = stalls.reduce((max, stall) => Math.max(max, stall.endedAt - Math.max(stall.startedAt, startedAt)), 0);
      const cpuWaitNow = readCpuWaitSumMs();
      return {
        process: 'runner',
        windowMs: performance.now() - startedAt,
        ...(cpuWait === undefined || cpuWaitNow === undefined ? {} : { cpuWaitMs: cpuWaitNow - cpuWait }),
        stalledMs: readStalledMs() - stalled,
        ...(longest > 0 ? { longestStallMs: longest } : {}),
        ...(windows ? { stalledWhileDueMs: sumStallsWithin(stalls, windows) } : {}),
      };
    },
  };
}
