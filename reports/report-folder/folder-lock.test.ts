// The lock beside a report folder (folder-lock.ts): two writers take turns; only a lock whose
// process is gone on this host is broken. A lock of another host can never be judged from here,
// so it is waited for, never broken (issue 29: a planted bug breaking it survived every test).
// No timing is asserted: `waitMs: 0` only makes a held lock give up at its first look.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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

  it('names the held lock in full when the wait ends, as an unwritable folder, not a refusal', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, holder(1, `not-${hostname()}`));
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 })).rejects.toMatchObject({
      code: 'MEM_OUT_UNWRITABLE',
      message:
        `--out "report": process 1 on not-${hostname()} has held this report folder's lock for too long (lock ${lock}): it is running with the same --out, or writing it; wait for it to finish, ` +
        'or give each run its own --out. If no such process runs any more, delete the lock file.',
    });
  });

  it("never breaks another host's lock even when a process of that pid is gone here", async () => {
    const lock = lockIn(makeTempDir('lock-'));
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const text = holder(gone, `not-${hostname()}`);
    writeFileSync(lock, text);
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 })).rejects.toThrow(`process ${gone} on not-${hostname()} has held`);
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  // When this process started, in ms since the epoch; Node's clock starts after the kernel's, so the real start is no later.
  const startedNoLaterThan = () => Date.now() - process.uptime() * 1000;

  it('breaks the lock of a live pid of this host whose process started after the lock was written (the pid was reused)', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, holder(process.pid, hostname()));
    const written = (startedNoLaterThan() - 60_000) / 1000;
    utimesSync(lock, written, written);
    const release = await acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).not.toMatchObject({ token: 'held0000' });
    await release();
  });

  it('keeps the lock of a live pid of this host written up to two seconds before its process started (clock-tick slack)', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, holder(process.pid, hostname()));
    const written = (startedNoLaterThan() - 1000) / 1000;
    utimesSync(lock, written, written);
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 })).rejects.toThrow(`process ${process.pid} has held`);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ token: 'held0000' });
  });

  it('tells onWait once who holds the lock, however many times it looks again', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, holder(process.pid, hostname()));
    const told: string[] = [];
    // 250 ms of wait is at least two looks 100 ms apart; the rule holds for any number of looks.
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 250, onWait: (who) => told.push(who) })).rejects.toThrow('for too long');
    expect(told).toEqual([`process ${process.pid}`]);
  });

  it('stops waiting when its signal is aborted, saying it was interrupted and leaving the lock', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, holder(process.pid, hostname()));
    await expect(acquireFolderLock(lock, { shownAs: 'report', signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'MEM_OUT_UNWRITABLE',
      message: `--out "report": interrupted while waiting for the report folder's lock (${lock}); nothing was written`,
    });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ token: 'held0000' });
  });

  it('stops a wait under way when its signal is aborted', async () => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, holder(process.pid, hostname()));
    const stop = new AbortController();
    await expect(acquireFolderLock(lock, { shownAs: 'report', signal: stop.signal, onWait: () => setImmediate(() => stop.abort()) })).rejects.toThrow('interrupted while waiting');
  });

  it('fails with the file-system error, not a wait, when the lock cannot be created (its folder is missing)', async () => {
    const lock = join(makeTempDir('lock-'), 'missing', '.report.lock');
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([
    ['a pid that is not a number', { pid: '1', host: 'h', token: 't' }],
    ['a host that is not text', { pid: 1, host: 5, token: 't' }],
    ['no token', { pid: 1, host: 'h' }],
  ])('refuses at once a JSON file at the lock path with %s, as not its lock', async (_what, content) => {
    const lock = lockIn(makeTempDir('lock-'));
    writeFileSync(lock, JSON.stringify(content));
    await expect(acquireFolderLock(lock, { shownAs: 'report', waitMs: 0 })).rejects.toMatchObject({
      code: 'MEM_OUT_REFUSED',
      message: `--out "report": ${lock} is a file that is not a lock this tool wrote, not this tool's lock file (a small JSON file naming the process that holds it); remove it or choose another --out; nothing was written or removed`,
    });
  });

  it('refuses a folder or a socket at the lock path, naming what it is', async () => {
    const dir = makeTempDir('lock-');
    mkdirSync(join(dir, '.folder.lock'));
    await expect(acquireFolderLock(join(dir, '.folder.lock'), { shownAs: 'r', waitMs: 0 })).rejects.toThrow(`${join(dir, '.folder.lock')} is a folder, not`);
    const server = createServer();
    const socket = join(dir, '.socket.lock');
    await new Promise<void>((done) => server.listen(socket, done));
    try {
      await expect(acquireFolderLock(socket, { shownAs: 'r', waitMs: 0 })).rejects.toThrow(`${socket} is a socket, not`);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('refuses a device at the lock path, naming it a device (where this user may create one)', async (context) => {
    const lock = lockIn(makeTempDir('lock-'));
    if (spawnSync('mknod', [lock, 'c', '1', '3']).status !== 0) context.skip();
    await expect(acquireFolderLock(lock, { shownAs: 'r', waitMs: 0 })).rejects.toThrow(`${lock} is a device, not`);
  });
});
