// Finds and kills the processes a client started that left its process group (setsid, a
// daemonising double fork): the runner puts a marker variable in every client's environment,
// children inherit it, and /proc/<pid>/environ shows it. Linux only; elsewhere nothing is found.
// What this cannot reach: a descendant that cleared or rewrote its environment (env -i).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable naming the run: `<run token>` on its own, so one scan finds all of a run's processes. */
export const RUN_MARK_VARIABLE = 'MCP_MATRIX_RUN_MARK';
/** The variable naming the cell: `<run token>.<cell token>`. */
export const CELL_MARK_VARIABLE = 'MCP_MATRIX_CELL_MARK';

/** A fresh random token for a run or a cell. */
export function createMarkToken(): string {
  return randomBytes(9).toString('base64url');
}

/** Pids of live (non-zombie) processes other than this one whose environment holds NAME=VALUE. */
export function findMarkedProcesses(name: string, value: string): number[] {
  // environ is NUL-separated: the NULs around the needle make the match whole-variable.
  const needle = `\0${name}=${value}\0`;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = `\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}\0`;
      if (environ.includes(needle) && !isZombie(entry)) found.push(Number(entry));
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}

/**
 * SIGKILLs every process carrying NAME=VALUE, scanning again until none is found (a marked
 * process may fork while it is being killed). Returns how many were killed.
 */
export function killMarkedProcesses(name: string, value: string, maxRounds = 5): number {
  let killed = 0;
  for (let round = 0; round < maxRounds; round++) {
    const pids = findMarkedProcesses(name, value);
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

function isZombie(pid: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}
