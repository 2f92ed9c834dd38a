// @ts-check
// The peak resident memory of a whole process tree (the process and every descendant, summed),
// sampled from Linux /proc every `intervalMs`: a worker per client version lives outside the
// runner's own resourceUsage(), so only the tree's sum says what the machine had to hold.
import { readdirSync, readFileSync } from 'node:fs';

const PAGE_KB = 4;

/** RSS (KiB) of `root` and all its live descendants, or NaN without /proc. */
export function readTreeRssKb(root) {
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return { kb: NaN, processes: 0 };
  }
  const procs = new Map();
  for (const pid of entries) {
    try {
      // Fields after the command name (which may hold spaces) start at the last ')'.
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(pid), { parent: Number(fields[1]), rssKb: Number(fields[21]) * PAGE_KB });
    } catch {
      // The process ended while being read.
    }
  }
  const mine = procs.get(root);
  if (!mine) return { kb: 0, processes: 0 };
  let kb = mine.rssKb;
  let processes = 1;
  const stack = [root];
  while (stack.length) {
    const parent = stack.pop();
    for (const [pid, proc] of procs) {
      if (proc.parent !== parent) continue;
      kb += proc.rssKb;
      processes += 1;
      stack.push(pid);
    }
  }
  return { kb, processes };
}

/** Samples the tree under `pid` until stopped; returns the peak (MB) and the most processes seen at once. */
export function sampleTreeRss(pid, intervalMs = 250) {
  let peakKb = 0;
  let peakProcesses = 0;
  let samples = 0;
  const take = () => {
    const { kb, processes } = readTreeRssKb(pid);
    if (!Number.isFinite(kb)) return;
    samples += 1;
    if (kb > peakKb) peakKb = kb;
    if (processes > peakProcesses) peakProcesses = processes;
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return { peakMb: peakKb / 1024, peakProcesses, samples };
    },
  };
}
