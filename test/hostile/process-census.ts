// Counting processes from /proc, for orphan checks: a marker variable in a process's
// environment identifies everything a test started (children inherit it).
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live processes whose environment holds NAME=VALUE (Linux /proc; none elsewhere). */
export function findMarkedProcesses(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
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
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      // A zombie has an empty environ and holds nothing; it is not counted as left running.
      if (environ.includes(needle) && !isZombie(entry)) found.push(Number(entry));
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}

/** How many live processes carry the marker. */
export function countMarkedProcesses(name: string, value: string): number {
  return findMarkedProcesses(name, value).length;
}

/** Whether a pid is a live (non-zombie) process. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !isZombie(String(pid));
}

function isZombie(pid: string): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}
