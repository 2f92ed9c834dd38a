// @ts-check
// CPU seconds used so far by every descendant of this process (Linux /proc; elsewhere NaN): a
// browser's work measured as CPU time, which a loaded machine inflates far less than wall time.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** Sum of user + system CPU (ms) of all live descendants of `root`, or NaN without /proc. */
export function readDescendantCpuMs(root = process.pid) {
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return NaN;
  }
  const stats = new Map();
  for (const pid of entries) {
    try {
      // Fields after the command name (which may hold spaces) start at the last ')'.
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(pid), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while being read.
    }
  }
  let ticks = 0;
  const stack = [root];
  while (stack.length) {
    const parent = stack.pop();
    for (const [pid, stat] of stats) {
      if (stat.parent !== parent) continue;
      ticks += stat.ticks;
      stack.push(pid);
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
