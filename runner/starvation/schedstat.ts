// CPU starvation as Linux counts it: /proc/<pid>/schedstat holds, per thread, the time it ran, the
// time it spent runnable but waiting for a CPU (the second field, in ns) and how many times it ran.
// The second field is exact: it grows only while the thread wanted to run and could not, so on an
// overloaded machine it says how much of a wait a process lost, whatever the process is written in.
// Elsewhere (no /proc, or a kernel without schedstats) nothing is read and callers fall back on the
// event-loop delay a Node process measures of itself.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Reads the CPU-wait counter (ms) of one schedstat file, or undefined when there is none. */
export type CpuWaitReader = (path: string) => number | undefined;

/** The schedstat file of the calling thread (the event loop's, when called from it). */
export const OWN_SCHEDSTAT = '/proc/thread-self/schedstat';

/** The schedstat file of a process's main thread. */
export function getSchedstatPath(pid: number): string {
  return `/proc/${pid}/schedstat`;
}

/** The milliseconds a schedstat line says its thread waited for a CPU, or undefined when it is not one. */
export function parseCpuWaitMs(text: string): number | undefined {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 3) return undefined;
  const waitNs = Number(fields[1]);
  return Number.isFinite(waitNs) && waitNs >= 0 ? waitNs / 1e6 : undefined;
}

/** Reads a schedstat file synchronously (a few µs: procfs, no disk); undefined when it cannot be read. */
export const readCpuWaitMs: CpuWaitReader = (path) => {
  try {
    return parseCpuWaitMs(readFileSync(path, 'latin1'));
  } catch {
    return undefined;
  }
};

/** The same, without blocking the loop (for scans over many processes). */
export async function readCpuWaitMsAsync(path: string): Promise<number | undefined> {
  try {
    return parseCpuWaitMs(await readFile(path, 'latin1'));
  } catch {
    return undefined;
  }
}

let ownCounter: boolean | undefined;

/** Whether this machine counts CPU starvation per thread (Linux with schedstats). */
export function hasCpuWaitCounter(): boolean {
  ownCounter ??= readCpuWaitMs(OWN_SCHEDSTAT) !== undefined;
  return ownCounter;
}
