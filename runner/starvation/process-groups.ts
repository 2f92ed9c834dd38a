// CPU starvation of the client processes the runner starts, and of everything they start: each
// client runs as the leader of a process group of its own (spawn-client.ts, persistent-process.ts),
// so its processes are the members of that group. One shared scan of /proc (every SAMPLE_MS while a
// group is tracked) finds new members and reads each member's schedstat; a member's counter is
// also read when a cell's window opens and closes. A process that exits keeps the last value read
// (Node reaps a child before it reports the exit), so a client's last interval may be missed: a
// lower bound. Linux only; elsewhere a tracked group measures nothing and says so (no cpuWaitMs).
import { readdir, readFile } from 'node:fs/promises';
import type { ProcessStarvation } from '../vocabulary/types.js';
import { getSchedstatPath, hasCpuWaitCounter, readCpuWaitMs } from './schedstat.js';

/** How often the shared scan runs while a group is tracked. */
export const SAMPLE_MS = 250;

/** Where process facts come from: /proc, or a test's fake. */
export interface ProcessSource {
  /** Whether CPU wait can be read at all. */
  available(): boolean;
  listPids(): Promise<number[]>;
  /** The process group of a process, or undefined when it is gone. */
  readGroup(pid: number): Promise<number | undefined>;
  /** Its CPU-wait counter in ms (schedstat), or undefined when it is gone. */
  readCpuWaitMs(pid: number): number | undefined;
}

export const PROC_SOURCE: ProcessSource = {
  available: hasCpuWaitCounter,
  async listPids() {
    try {
      return (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry)).map(Number);
    } catch {
      return [];
    }
  },
  async readGroup(pid) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
      // After the command name (in parentheses, which may hold anything): state, ppid, pgrp.
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      return Number.isInteger(pgrp) ? pgrp : undefined;
    } catch {
      return undefined;
    }
  },
  readCpuWaitMs: (pid) => readCpuWaitMs(getSchedstatPath(pid)),
};

/** A window over a tracked group: its members' counters when it opened. */
export interface GroupMark {
  readonly openedAt: number;
  readonly counters: ReadonlyMap<number, number>;
}

export interface TrackedGroup {
  /** Opens a window (a cell): the members' counters now. */
  mark(): GroupMark;
  /** The group's starvation since `mark`: the CPU wait of its most starved member. */
  since(mark: GroupMark): ProcessStarvation;
  /** Stops tracking (the group's processes are gone, or no longer watched). */
  release(): void;
}

interface Group {
  /** The latest counter read per member. */
  counters: Map<number, number>;
  users: number;
}

/** Tracks process groups for one source: one scan for all of them. */
export function createGroupTracker(source: ProcessSource = PROC_SOURCE) {
  const groups = new Map<number, Group>();
  /** The group of every process seen in the last scan, so each scan reads /proc/<pid>/stat only of new processes. */
  const groupOf = new Map<number, number | undefined>();
  let timer: NodeJS.Timeout | undefined;
  let scanning = false;

  const refresh = (group: Group): void => {
    for (const pid of group.counters.keys()) {
      const value = source.readCpuWaitMs(pid);
      if (value !== undefined) group.counters.set(pid, value);
    }
  };

  const scan = async (): Promise<void> => {
    if (scanning) return;
    scanning = true;
    try {
      const pids = await source.listPids();
      const present = new Set(pids);
      for (const pid of groupOf.keys()) if (!present.has(pid)) groupOf.delete(pid);
      for (const pid of pids) {
        if (!groupOf.has(pid)) groupOf.set(pid, await source.readGroup(pid));
        const group = groups.get(groupOf.get(pid) ?? -1);
        if (!group) continue;
        const value = source.readCpuWaitMs(pid);
        // A member first seen now was started after the group began to be tracked: it waited from 0.
        if (value !== undefined) group.counters.set(pid, value);
      }
    } finally {
      scanning = false;
    }
  };

  const stopTimerIfIdle = (): void => {
    if (groups.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
      groupOf.clear();
    }
  };

  /** Starts tracking the group led by `pgid` (a process the runner just started, detached). */
  const track = (pgid: number): TrackedGroup => {
    const measured = source.available();
    let group = groups.get(pgid);
    if (!group) {
      group = { counters: new Map(), users: 0 };
      const leader = measured ? source.readCpuWaitMs(pgid) : undefined;
      if (leader !== undefined) group.counters.set(pgid, leader);
      groups.set(pgid, group);
    }
    group.users++;
    if (measured && timer === undefined) {
      timer = setInterval(() => void scan(), SAMPLE_MS);
      timer.unref();
    }
    const own = group;
    let released = false;
    return {
      mark() {
        refresh(own);
        return { openedAt: performance.now(), counters: new Map(own.counters) };
      },
      since(mark) {
        const windowMs = performance.now() - mark.openedAt;
        if (!measured) return { process: 'client', windowMs };
        refresh(own);
        let worst = 0;
        for (const [pid, value] of own.counters) worst = Math.max(worst, value - (mark.counters.get(pid) ?? 0));
        return { process: 'client', windowMs, cpuWaitMs: worst };
      },
      release() {
        if (released) return;
        released = true;
        if (--own.users === 0) groups.delete(pgid);
        stopTimerIfIdle();
      },
    };
  };

  return { track, scan };
}

/** The runner's tracker over /proc. */
export const processGroups = createGroupTracker();
