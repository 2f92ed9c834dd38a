// A lock file beside the report folder, so two writers to one --out take turns instead of
// renaming folders under each other (which ended in ENOTEMPTY, or in one report lost). `run`
// takes it before its first cell and holds it until its reports are written (issue 28 item 5).
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { lstat, unlink } from 'node:fs/promises';
import { OutputFolderError } from '../../runner/util/errors.js';
import { isSystemError } from './describe-fs-error.js';
import { readSmallFile } from './read-small-file.js';

export interface FolderLockOptions {
  /** How the folder appears in messages. */
  shownAs: string;
  /** How long to wait for another writer. @default 120000 */
  waitMs?: number;
  /** Stops the wait: the lock is not taken, and the error says the wait was interrupted. */
  signal?: AbortSignal;
  /** Called once when the lock is held by another live process and the wait begins (for a progress line). */
  onWait?: (holder: string) => void;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

const POLL_MS = 100;
const LOCK_MAX_BYTES = 1024;

/**
 * Takes the lock at `lockPath` (waiting while a live process holds it; a lock whose process is
 * gone is broken) and returns the function that releases it. The lock is created with its
 * content in one step (a hard link to a finished file), so no reader sees it empty. Something at
 * `lockPath` that is not a lock file of ours (a FIFO, a symlink, a folder, a file of other text)
 * is refused at once with its path, never waited on. No stop leaves a file behind: the draft
 * exists only inside one synchronous attempt, and a process that exits while it holds the lock
 * (a second Ctrl-C, the stop deadline) removes it on the way out.
 */
export async function acquireFolderLock(lockPath: string, options: FolderLockOptions): Promise<() => Promise<void>> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const text = JSON.stringify(owner);
  const draft = `${lockPath}.${owner.token}`;
  const deadline = Date.now() + (options.waitMs ?? 120_000);
  let waiting = false;
  for (;;) {
    if (options.signal?.aborted) throw interrupted(lockPath, options);
    if (await tryLink(draft, lockPath, text)) break;
    const held = await readOwner(lockPath);
    if (held === 'not-a-lock') throw await refuseNotALock(lockPath, options);
    if (held !== 'gone' && (await isStale(held, lockPath))) {
      // Re-read right before removing: another writer may have broken it and taken it already.
      const again = await readOwner(lockPath);
      if (typeof again === 'object' && again.token === held.token) await unlink(lockPath).catch(() => undefined);
      continue;
    }
    if (held !== 'gone' && !waiting) {
      waiting = true;
      options.onWait?.(describeHolder(held, owner));
    }
    if (Date.now() > deadline) {
      const who = held === 'gone' ? 'another process' : describeHolder(held, owner);
      throw new OutputFolderError(
        'unwritable',
        `--out ${JSON.stringify(options.shownAs)}: ${who} has held this report folder's lock for too long (lock ${lockPath}): it is running with the same --out, or writing it; wait for it to finish, ` +
          `or give each run its own --out. If no such process runs any more, delete the lock file.`,
      );
    }
    await sleep(POLL_MS, options.signal);
  }
  heldLocks.set(lockPath, owner.token);
  return async () => {
    heldLocks.delete(lockPath);
    const current = await readOwner(lockPath);
    if (typeof current === 'object' && current.token === owner.token) await unlink(lockPath).catch(() => undefined);
  };

  // One attempt: the draft is written, hard-linked into place and removed again, synchronously, so
  // no signal handler (which runs between tasks) can end the process while the draft exists.
  async function tryLink(draftPath: string, lock: string, content: string): Promise<boolean> {
    try {
      writeFileSync(draftPath, content, { flag: 'wx' });
      linkSync(draftPath, lock);
      return true;
    } catch (error) {
      if (isSystemError(error) && error.code === 'EEXIST') return false;
      throw error;
    } finally {
      tryUnlink(draftPath);
    }
  }
}

/** Locks this process holds (path → token): removed if the process exits first. */
const heldLocks = new Map<string, string>();
process.once('exit', () => {
  for (const [lockPath, token] of heldLocks) {
    try {
      if ((JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockOwner>).token === token) tryUnlink(lockPath);
    } catch {
      // Gone, or not ours any more.
    }
  }
});

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** The lock's owner; 'gone' when there is no lock (released meanwhile); 'not-a-lock' when something else is there. */
async function readOwner(lockPath: string): Promise<LockOwner | 'gone' | 'not-a-lock'> {
  const stats = await lstat(lockPath).catch(() => undefined);
  if (stats === undefined) return 'gone';
  if (!stats.isFile()) return 'not-a-lock';
  const text = await readSmallFile(lockPath, LOCK_MAX_BYTES);
  if (text === undefined) return (await lstat(lockPath).catch(() => undefined)) === undefined ? 'gone' : 'not-a-lock';
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string') return owner as LockOwner;
  } catch {
    // Not JSON: not a lock this tool wrote (ours are complete from the moment they exist).
  }
  return 'not-a-lock';
}

async function refuseNotALock(lockPath: string, options: FolderLockOptions): Promise<OutputFolderError> {
  const stats = await lstat(lockPath).catch(() => undefined);
  const kind = !stats
    ? 'something that vanished'
    : stats.isSymbolicLink()
      ? 'a symbolic link'
      : stats.isFIFO()
        ? 'a named pipe'
        : stats.isDirectory()
          ? 'a folder'
          : stats.isSocket()
            ? 'a socket'
            : stats.isFile()
              ? 'a file that is not a lock this tool wrote'
              : 'a device';
  return new OutputFolderError(
    'refused',
    `--out ${JSON.stringify(options.shownAs)}: ${lockPath} is ${kind}, not this tool's lock file (a small JSON file naming the process that holds it); ` +
      'remove it or choose another --out; nothing was written or removed',
  );
}

function interrupted(lockPath: string, options: FolderLockOptions): OutputFolderError {
  return new OutputFolderError('unwritable', `--out ${JSON.stringify(options.shownAs)}: interrupted while waiting for the report folder's lock (${lockPath}); nothing was written`);
}

function describeHolder(held: LockOwner, self: LockOwner): string {
  return `process ${held.pid}${held.host === self.host ? '' : ` on ${held.host}`}`;
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A lock is stale when its process, on this host, no longer exists, or when the process now
 * holding that pid started after the lock was taken (the pid was reused; Linux's /proc tells).
 */
async function isStale(owner: LockOwner, lockPath: string): Promise<boolean> {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user; still check when it started.
    if (!isSystemError(error) || error.code !== 'EPERM') return isSystemError(error) && error.code === 'ESRCH';
  }
  const [startedMs, locked] = await Promise.all([getProcessStartMs(owner.pid), lstat(lockPath).catch(() => undefined)]);
  // Two seconds of slack for clock-tick rounding: a lock is written after its process starts, never before.
  return startedMs !== undefined && locked !== undefined && startedMs > locked.mtimeMs + 2000;
}

/** When a process started (ms since the epoch), from /proc on Linux; undefined elsewhere. */
async function getProcessStartMs(pid: number): Promise<number | undefined> {
  const [stat, system] = await Promise.all([readSmallFile(`/proc/${pid}/stat`, 4096), readSmallFile('/proc/stat', 1 << 20)]);
  // Field 22 (starttime, in clock ticks after boot) counts from the field after the command's ')'.
  const ticks = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const bootSeconds = Number(/^btime (\d+)$/m.exec(system ?? '')?.[1]);
  // USER_HZ is 100 on every Linux architecture Node runs on.
  return Number.isFinite(ticks) && Number.isFinite(bootSeconds) && bootSeconds > 0 ? bootSeconds * 1000 + ticks * 10 : undefined;
}
