// Runs one client command line in its own process group: output captured with a size cap,
// a time limit and the run's abort signal both kill the whole tree, and nothing it started
// outlives the cell: processes that left the group (setsid) are found by the cell's marker
// variable, and pipes still held by something unreachable are let go of.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { setStallAwareTimeout } from '../../starvation/loop-stall.js';
import { processGroups } from '../../starvation/process-groups.js';
import type { ProcessStarvation } from '../../vocabulary/types.js';
import { createOutputCapture } from './output-capture.js';
import { CELL_MARK_VARIABLE, createMarkToken, killMarkedProcesses, RUN_MARK_VARIABLE } from './process-marks.js';

export interface SpawnClientOptions {
  /** The full shell command line (already including the server URL). */
  command: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Bytes of each stream kept from the start (the end is kept too). @default 1 MiB */
  maxOutputBytes?: number;
  /** The run's marker token (RUN_MARK_VARIABLE), so the run can kill what its cells left. @default one per process */
  runMark?: string;
}

export interface ClientProcessResult {
  exitCode: number | null;
  /** The signal that ended the process, e.g. SIGSEGV; null when it exited by itself. */
  signal: string | null;
  timedOut: boolean;
  /** Ended by the run's abort signal. */
  aborted: boolean;
  /** Ended by a signal the runner did not send (directly, or as a shell's 128+N exit status). */
  crashed: boolean;
  stdout: string;
  stderr: string;
  /** Either stream exceeded the capture cap and was cut. */
  outputTruncated: boolean;
  /** The complete last line of stdout, even when the middle was cut. */
  lastStdoutLine: string;
  durationMs: number;
  /** The process could not be started at all. */
  spawnError?: string;
  /** How starved the client's processes were while it ran (runner/starvation/process-groups.ts). */
  starvation?: ProcessStarvation;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

// SIGKILL is delivered asynchronously: the cell waits (briefly) until the group is really gone,
// so that no process of a finished cell is still alive when its result is reported.
const GROUP_EXIT_WAIT_MS = 1000;
// After the client exits, its pipes close once every holder is gone. Holders outside the group
// are looked for by marker after CLOSE_GRACE_MS; what still holds them (a descendant that
// cleared its environment) after PIPE_RELEASE_MS more is cut off: the runner stops reading.
const CLOSE_GRACE_MS = 100;
const PIPE_RELEASE_MS = 1000;
const PROCESS_RUN_MARK = createMarkToken();

/** Runs the command through `/bin/sh -c` (cmd.exe on Windows), detached as a process-group leader. */
export function spawnClient(options: SpawnClientOptions): Promise<ClientProcessResult> {
  const started = performance.now();
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout = createOutputCapture(cap);
  const stderr = createOutputCapture(cap);
  return new Promise((resolve) => {
    let killedBy: 'timeout' | 'abort' | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: string | undefined;
    // detached: the shell becomes the leader of a new process group, so one kill(-pid)
    // reaches the client and everything it started (npx → node → ...).
    const runMark = options.runMark ?? PROCESS_RUN_MARK;
    const cellMark = `${runMark}.${createMarkToken()}`;
    const env = { ...options.env, [RUN_MARK_VARIABLE]: runMark, [CELL_MARK_VARIABLE]: cellMark };
    const child = spawn(options.command, { shell: true, detached: true, cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // The client leads a process group of its own: its members' CPU wait is its starvation.
    const group = child.pid === undefined ? undefined : processGroups.track(child.pid);
    const window = group?.mark();
    let starvation: ProcessStarvation | undefined;
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const killTree = async (): Promise<void> => {
      killGroup();
      await killMarkedProcesses(CELL_MARK_VARIABLE, cellMark);
    };
    let closed = false;
    const releaseTimers: NodeJS.Timeout[] = [];
    const stop = (reason: 'timeout' | 'abort'): void => {
      if (exit !== undefined) return;
      killedBy ??= reason;
      void killTree();
    };
    // Stall-aware: a client that exited while this loop stalled is not taken for one killed at its limit.
    const timer = setStallAwareTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = (): void => stop('abort');
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (group && window) starvation = group.since(window);
      // A client that left a background child behind would hold the pipes open forever:
      // the group goes with its leader, then whatever escaped it, then the pipes themselves.
      killGroup();
      releaseTimers.push(
        setTimeout(() => {
          if (closed) return;
          void killMarkedProcesses(CELL_MARK_VARIABLE, cellMark);
          releaseTimers.push(setTimeout(() => closed || releasePipes(child.stdout, child.stderr), PIPE_RELEASE_MS));
        }, CLOSE_GRACE_MS),
      );
    });
    child.on('close', async (code, signal) => {
      closed = true;
      releaseTimers.forEach(clearTimeout);
      timer.clear();
      if (group && window) starvation ??= group.since(window);
      group?.release();
      options.signal.removeEventListener('abort', onAbort);
      await killTree();
      if (child.pid !== undefined) await waitForGroupExit(child.pid, GROUP_EXIT_WAIT_MS);
      const final = exit ?? { code, signal };
      const crashed = killedBy === undefined && isCrash(final.code, final.signal);
      const out = stdout.finish();
      const err = stderr.finish();
      resolve({
        exitCode: final.code,
        signal: final.signal,
        timedOut: killedBy === 'timeout',
        aborted: killedBy === 'abort',
        crashed,
        stdout: out.text,
        stderr: err.text,
        outputTruncated: out.truncatedBytes + err.truncatedBytes > 0,
        lastStdoutLine: out.lastLine,
        durationMs: Math.round(performance.now() - started),
        ...(spawnError === undefined ? {} : { spawnError }),
        ...(starvation === undefined ? {} : { starvation }),
      });
    });
  });
}

// Destroying the read ends lets 'close' fire; a writer left behind gets EPIPE, not a reader.
function releasePipes(...streams: Readable[]): void {
  for (const stream of streams) stream.destroy();
}

async function waitForGroupExit(pgid: number, maxMs: number): Promise<void> {
  const deadline = performance.now() + maxMs;
  while (performance.now() < deadline && isGroupAlive(pgid)) await new Promise((resolve) => setTimeout(resolve, 5));
}

// kill(-pgid, 0) also succeeds while dead members wait for their reaper (zombies run no code;
// some container inits reap them late), so on Linux the members' states are read from /proc.
function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (!existsSync('/proc/self/stat')) return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
    } catch {
      // The process ended while we looked.
    }
  }
  return false;
}

// A shell that runs its command as a child reports the child's death by signal N as exit
// status 128+N; 127/126 (not found / not executable) stay ordinary failures.
function isCrash(code: number | null, signal: NodeJS.Signals | null): boolean {
  if (signal !== null) return true;
  return code !== null && code > 128 && code - 128 <= 64 && Object.values(constants.signals).includes(code - 128);
}

/** The name of the signal behind a shell's 128+N exit status, for messages. */
export function describeExit(result: Pick<ClientProcessResult, 'exitCode' | 'signal'>): string {
  if (result.signal !== null) return `killed by ${result.signal}`;
  const code = result.exitCode;
  if (code !== null && code > 128) {
    const name = Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0];
    if (name) return `exit status ${code} (${name})`;
  }
  return `exit code ${String(code)}`;
}
