// A lock file beside the report folder, so two writers to one --out take turns instead of
// renaming folders under each other (which ended in ENOTEMPTY, or in one report lost).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, lstat, unlink, writeFile } from 'node:fs/promises';
import { OutputFolderError } from '../runner/errors.js';
import { isSystemError } from './describe-fs-error.js';
import { readSmallFile } from './read-small-file.js';

export interface FolderLockOptions {
  /** How the folder appears in messages. */
  shownAs: string;
  /** How long to wait for another writer. @default 120000 */
  waitMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

const POLL_MS = 100;

/**
 * Takes the lock at `lockPath` (waiting while a live process holds it; a lock whose process is
 * gone is broken) and returns the function that releases it. The lock is created with its
 * content in one step (a hard link to a finished file), so no reader sees it empty.
 */
export async function acquireFolderLock(lockPath: string, options: FolderLockOptions): Promise<() => Promise<void>> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const text = JSON.stringify(owner);
  const draft = `${lockPath}.${owner.token}`;
  await writeFile(draft, text, { flag: 'wx' });
  const deadline = Date.now() + (options.waitMs ?? 120_000);
  try {
    for (;;) {
      try {
        await link(draft, lockPath);
        break;
      } catch (error) {
        if (!isSystemError(error) || error.code !== 'EEXIST') throw error;
      }
      const held = await readOwner(lockPath);
      if (held && (await isStale(held, lockPath))) {
        // Re-read right before removing: another writer may have broken it and taken it already.
        const again = await readOwner(lockPath);
        if (again?.token === held.token) await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) {
        const who = held ? `process ${held.pid}${held.host === owner.host ? '' : ` on ${held.host}`}` : 'another process';
        throw new OutputFolderError(
          'unwritable',
          `--out ${JSON.stringify(options.shownAs)}: ${who} has been writing this report folder for too long (lock ${lockPath}); wait for it to finish, ` +
            `or give each run its own --out. If no such process runs any more, delete the lock file.`,
        );
      }
      await new Promise((wait) => setTimeout(wait, POLL_MS));
    }
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  return async () => {
    if ((await readOwner(lockPath))?.token === owner.token) await unlink(lockPath).catch(() => undefined);
  };
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const parsed: unknown = JSON.parse((await readSmallFile(lockPath, 1024)) ?? '');
    const owner = parsed as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string') return owner as LockOwner;
  } catch {
    // Vanished (released), or not a lock we wrote: wait for it like any other holder.
  }
  return undefined;
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
