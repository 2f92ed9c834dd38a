// Finds and kills the processes a client started that left its process group (setsid, a
// daemonising double fork): the runner puts a marker variable in every client's environment,
// children inherit it, and /proc/<pid>/environ shows it. Linux only; elsewhere nothing is found.
// What this cannot reach: a descendant that cleared or rewrote its environment (env -i).
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/** The variable naming the run: `<run token>` on its own, so one scan finds all of a run's processes. */
export const RUN_MARK_VARIABLE = 'MCP_MATRIX_RUN_MARK';
/** The variable naming the cell: `<run token>.<cell token>`. */
export const CELL_MARK_VARIABLE = 'MCP_MATRIX_CELL_MARK';

/** A fresh random token for a run or a cell. */
export function createMarkToken(): string {
  return randomBytes(9).toString('base64url');
}

/**
 * Pids of live (non-zombie) processes other than this one whose environment holds NAME=VALUE.
 * The reads are asynchronous: on a loaded machine one /proc/<pid>/environ read can take tens of
 * ms (it waits on the other process's memory lock), which must not stall the cells in flight.
 */
export async function findMarkedProcesses(name: string, value: string): Promise<number[]> {
  // environ is NUL-separated: the NULs around the needle make the match whole-variable.
  const needle = `\0${name}=${value}\0`;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const pids = entries.filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  const found = await Promise.all(
    pids.map(async (pid) => {
      try {
        const environ = `\0${await readFile(`/proc/${pid}/environ`, 'latin1')}\0`;
        return environ.includes(needle) && !(await isZombie(pid)) ? [Number(pid)] : [];
      } catch {
        return []; // Gone already, or not ours to read.
      }
    }),
  );
  return found.flat();
}

/**
 * SIGKILLs every process carrying NAME=VALUE, scanning again until none is found (a marked
 * process may fork while it is being killed). Returns how many were killed.
 */
export async function killMarkedProcesses(name: string, value: string, maxRounds = 5): Promise<number> {
  let killed = 0;
  for (let round = 0; round < maxRounds; round++) {
    const pids = await findMarkedProcesses(name, value);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // ESRCH: it ended by itself.
      }
    }
  }
  return killed;
}

async function isZombie(pid: string): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}
