// The lock beside a report folder (folder-lock.ts): two writers take turns; only a lock whose
// process is gone on this host is broken. A lock of another host can never be judged from here,
// so it is waited for, never broken (issue 29: a planted bug breaking it survived every test).
// No timing is asserted: `waitMs: 0` only makes a held lock give up at its first look.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/temp-dirs.js';
import { acquireFolderLock } from './folder-lock.js';

const lockIn = (dir: string) => join(dir, '.report.lock');
const holder = (pid: number, host: string, token = 'held0000') => JSON.stringify({ pid, host, token });

describe('the report folder lock', () => {
  const makeTempDir = useTempDirs();
  it('takes a free lock and releases it', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    const release = await acquireFolderLock(lock, { shownAs: 'report' });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await release();
    expect(existsSync(lock)).toBe(false);
  });

  it("never breaks another host's lock: it waits, then names that process and host and leaves the lock alone", async () => {
    const lock = lockIn(makeTempDir('lock-'));
    const text = holder(1, `not-${hostname()}`);
    writeFileSync(lock, text);
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 })).rejects.toThrow(
      `--out "report": process 1 on not-${hostname()} has held this report folder's lock for too long (lock ${lock})`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  it('waits for a live process of this host (its lock is newer than the process), naming it without the host', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, holder(process.pid, hostname()));
    await expect(acquireFolderLock(lock, { shownAs: 'out', waitMs: 0 })).rejects.toThrow(`--out "out": process ${process.pid} has held this report folder's lock for too long`);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ token: 'held0000' });
  });

  it('breaks the lock of a process of this host that is gone, and takes it', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    const gone = spawnSync(process.execPath, ['-e', '']).pid; // exited before we look
    writeFileSync(lock, holder(gone, hostname()));
    const release = await acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
  });

  it('releases only its own lock: one taken over since is left to its owner', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    const release = await acquireFolderLock(lock, { shownAs: 'report' });
    writeFileSync(lock, holder(process.pid, hostname(), 'someone'));
    await release();
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ token: 'someone' });
  });

  it('refuses at once a file at the lock path that is not a lock this tool wrote, naming it, and leaves it (issue 28 item 5)', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, 'not json');
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 60_000 })).rejects.toThrow(`--out "report": ${lock} is a file that is not a lock this tool wrote`);
    expect(readFileSync(lock, 'utf8')).toBe('not json');
  });
});
