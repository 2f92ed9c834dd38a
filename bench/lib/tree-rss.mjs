// @ts-check
// Peak RSS of a whole process tree (a process and every descendant), sampled from /proc: the
// runner, its worker threads (inside its own RSS) and any client processes it starts.
import { readdirSync, readFileSync } from 'node:fs';

const PAGE_KB = 4;

/** RSS (KiB) of `root` and all its live descendants now; NaN without /proc. */
export function readTreeRssKb(root) {
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return NaN;
  }
  const parents = new Map();
  const rss = new Map();
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(pid), Number(fields[1]));
      // statm's second field: resident pages.
      rss.set(Number(pid), Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_KB);
    } catch {
      // Ended while being read.
    }
  }
  let total = 0;
  const stack = [root];
  const seen = new Set();
  while (stack.length > 0) {
    const pid = stack.pop();
    if (seen.has(pid)) continue;
    seen.add(pid);
    total += rss.get(pid) ?? 0;
    for (const [child, parent] of parents) if (parent === pid) stack.push(child);
  }
  return total;
}

/** Samples the tree of `root` every `intervalMs` until stopped; stop() returns the peak in MB. */
export function watchTreeRss(root, intervalMs = 100) {
  let peakKb = 0;
  const sample = () => {
    const kb = readTreeRssKb(root);
    if (Number.isFinite(kb)) peakKb = Math.max(peakKb, kb);
  };
  const timer = setInterval(sample, intervalMs);
  sample();
  return {
    stop: () => {
      clearInterval(timer);
      return peakKb / 1024;
    },
  };
}
