// The runner's own starvation over one cell: its event loop's stalls, the longest of them and the
// time its thread waited for a CPU, read from the counters the loop ticker keeps (loop-stall.ts),
// so a cell costs two reads of each and no system call. The ticker must run meanwhile
// (watchLoopStalls; runCell keeps it running while a target runs).
import { readCpuWaitSumMs, readStalledMs, readStallsSince } from '../loop-stall.js';
import type { ProcessStarvation } from '../types.js';

export interface RunnerMeter {
  /** What the runner lost since the meter started. */
  stop(): ProcessStarvation;
}

/** Starts measuring the runner's starvation for one cell. */
export function startRunnerMeter(): RunnerMeter {
  const startedAt = performance.now();
  const stalled = readStalledMs();
  const cpuWait = readCpuWaitSumMs();
  return {
    stop() {
      const longest = readStallsSince(startedAt).reduce((max, stall) => Math.max(max, stall.endedAt - Math.max(stall.startedAt, startedAt)), 0);
      const cpuWaitNow = readCpuWaitSumMs();
      return {
        process: 'runner',
        windowMs: performance.now() - startedAt,
        ...(cpuWait === undefined || cpuWaitNow === undefined ? {} : { cpuWaitMs: cpuWaitNow - cpuWait }),
        stalledMs: readStalledMs() - stalled,
        ...(longest > 0 ? { longestStallMs: longest } : {}),
      };
    },
  };
}
