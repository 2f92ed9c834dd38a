// The report folder swap is crash-safe and serialised (issue 11, item 2): a writer killed at any
// step leaves the old or the new complete report, which the next write puts back in place;
// leftovers never pile up; concurrent writers take turns.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { OutputFolderError } from '../../runner/util/errors.js';
import { ensureDist } from '../../test/build-dist.js';
import { recoverReportFolder } from './recover-report-folder.js';
import { REPORT_MARKER_FILE } from './report-marker.js';
import { acquireFolderLock } from './folder-lock.js';
import { writeReportFolder, type ReportWriteStep } from './write.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CRASH_WRITER = resolve(ROOT, 'test/fixtures/hostile/crash-writer.mjs');
const root = mkdtempSync(join(tmpdir(), 'mem-write-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The crash writer runs the compiled dist/: built here when missing or older than a source, so the
// process tests neither skip for want of a build nor test code older than the sources.
ensureDist();

const writeLabelled = (out: string, label: string) =>
  writeReportFolder(out, [
    { name: 'a.txt', content: label },
    { name: 'b.txt', content: label },
  ]);

/** The label of the complete report at `dir` (both files agree, the marker is there), or why not. */
function readReport(dir: string): string {
  if (!existsSync(dir)) return '<missing>';
  const a = readFileSync(join(dir, 'a.txt'), 'utf8');
  const b = readFileSync(join(dir, 'b.txt'), 'utf8');
  if (a !== b || !existsSync(join(dir, REPORT_MARKER_FILE))) return '<mixed or unmarked>';
  return a;
}

/** What the swap left beside `out`: kinds of leftover folders, and whether the lock file is there. */
function listLeftovers(out: string): string[] {
  return readdirSync(join(out, '..'))
    .filter((name) => name.startsWith('.report.'))
    .map((name) => name.replace(/-\d+-[0-9a-f]{8}$/, ''))
    .sort();
}

function crashAt(out: string, step: ReportWriteStep | 'none', label: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CRASH_WRITER, out, step, label], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, stdout, stderr })));
}

// Each test spawns node processes and waits for them to exit (no sleeps): the limit is for a
// loaded machine (a full suite at load 30 took 22 s for one), not a timing assumption.
describe('a writer killed at each step of the swap (the compiled dist/)', { timeout: 60_000 }, () => {
  test.each([
    // step, what is at the folder right after the kill, what lies beside it
    ['staged', 'old', ['.report.lock', '.report.tmp'], 'old'],
    ['ready', 'old', ['.report.lock', '.report.new'], 'old'],
    // Between the two renames: the only moment the folder is missing. Both reports are complete
    // beside it, and recovery puts the new one in place.
    ['retired', '<missing>', ['.report.lock', '.report.new', '.report.old'], 'new'],
    ['swapped', 'new', ['.report.lock', '.report.old'], 'new'],
  ] as const)('killed at "%s": the folder holds %s, and the next write recovers it and leaves nothing behind', async (step, atCrash, leftovers, recovered) => {
    const out = join(root, `crash-${step}`, 'report');
    mkdirSync(join(out, '..'));
    await writeLabelled(out, 'old');
    const crashed = await crashAt(out, step, 'new');
    expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
    expect(readReport(out)).toBe(atCrash);
    expect(listLeftovers(out)).toEqual(leftovers);
    // Recovery alone (what every write does first, under the lock) restores a complete report.
    await recoverReportFolder(out);
    expect(readReport(out)).toBe(recovered);
    expect(listLeftovers(out).filter((name) => name !== '.report.lock')).toEqual([]);
    // The next write breaks the dead writer's lock (no waiting) and leaves nothing beside the folder.
    await writeLabelled(out, 'next');
    expect(readReport(out)).toBe('next');
    expect(listLeftovers(out)).toEqual([]);
  });

  test('staging folders of several killed writers do not pile up', async () => {
    const out = join(root, 'pile', 'report');
    mkdirSync(join(out, '..'));
    await writeLabelled(out, 'old');
    for (const label of ['one', 'two', 'three']) {
      expect((await crashAt(out, 'staged', label)).signal).toBe('SIGKILL');
      // Each writer removed its predecessor's staging folder before writing its own.
      expect(listLeftovers(out)).toEqual(['.report.lock', '.report.tmp']);
      expect(readReport(out)).toBe('old');
    }
    await writeLabelled(out, 'next');
    expect(readReport(out)).toBe('next');
    expect(listLeftovers(out)).toEqual([]);
  });
});

describe('concurrent writers to one folder', () => {
  test('take turns: every write succeeds, the folder holds one complete report, nothing is left behind', async () => {
    const out = join(root, 'concurrent', 'report');
    const labels = ['w1', 'w2', 'w3', 'w4', 'w5'];
    const results = await Promise.allSettled(labels.map((label) => writeLabelled(out, label)));
    expect(results.map((result) => result.status)).toEqual(labels.map(() => 'fulfilled'));
    expect(labels).toContain(readReport(out));
    expect(listLeftovers(out)).toEqual([]);
  });
});

describe('concurrent writer processes to one folder (the compiled dist/)', { timeout: 60_000 }, () => {
  test('take turns: both finish, the folder holds one complete report, never ENOTEMPTY, nothing left behind', async () => {
    const out = join(root, 'two-processes', 'report');
    const [one, two] = await Promise.all([crashAt(out, 'none', 'one'), crashAt(out, 'none', 'two')]);
    for (const writer of [one, two]) {
      expect(writer.code, writer.stderr).toBe(0);
      expect(writer.stdout).toBe('finished without crashing\n');
    }
    expect(['one', 'two']).toContain(readReport(out));
    expect(listLeftovers(out)).toEqual([]);
  });
});

describe('leftovers that are not ours', () => {
  test('a folder named like a leftover but without the marker is never touched', async () => {
    const out = join(root, 'foreign', 'report');
    await writeLabelled(out, 'old');
    const foreign = join(root, 'foreign', '.report.old-123-0badc0de');
    mkdirSync(foreign);
    rmSync(out, { recursive: true });
    await recoverReportFolder(out);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(out)).toBe(false);
  });
});

// A mount namespace of its own lets the test mount a tmpfs without touching the machine's mounts;
// where unshare is not permitted (no CAP_SYS_ADMIN), the test cannot run.
const canMount = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs tmpfs ${JSON.stringify(tmpdir())}`], { timeout: 10_000 }).status === 0;

/** Runs a shell script in a mount namespace of its own (a tmpfs mounted there is gone afterwards); stdout and stderr together. */
async function runInMountNamespace(script: string): Promise<{ code: unknown; output: string }> {
  const child = spawn('unshare', ['-m', 'sh', '-c', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise((done) => child.on('exit', done));
  return { code, output };
}

describe('a mountpoint (the compiled dist/)', { timeout: 60_000 }, () => {
  test.skipIf(!canMount)('is written into, file by file, never renamed; a second write replaces the first', async () => {
    const mount = join(root, 'mnt');
    mkdirSync(mount);
    const writer = (label: string) => `${process.execPath} ${CRASH_WRITER} ${mount} none ${label}`;
    const script = [
      `mount -t tmpfs tmpfs ${mount}`,
      writer('one'),
      writer('two'),
      `echo "files: $(ls -A ${mount} | tr '\\n' ' ')"`,
      `echo "content: $(cat ${mount}/a.txt ${mount}/b.txt)"`,
      `echo "still a mountpoint: $([ "$(stat -c %d ${mount})" != "$(stat -c %d ${root})" ] && echo yes)"`,
      `ls -A ${root} | grep -E '^\\.mnt\\.' || true`,
    ].join(' && ');
    const { code, output } = await runInMountNamespace(script);
    expect(code, output).toBe(0);
    expect(output).toContain(`files: ${REPORT_MARKER_FILE} a.txt b.txt \n`);
    expect(output).toContain('content: twotwo\n');
    expect(output).toContain('still a mountpoint: yes\n');
    // Nothing was staged beside the mountpoint, and nothing is left inside it.
    expect(output).not.toMatch(/^\.mnt\./m);
  });

  // Issue 28 item 6: the old report's files the new one does not write again go (the marker named
  // them); a file someone else put there stops the next write instead of being overwritten or removed.
  test.skipIf(!canMount)('a second write removes the first report\'s files it does not write again, and refuses a file it did not write', async () => {
    const mount = join(root, 'mnt-files');
    mkdirSync(mount);
    const writer = (files: string, label: string) => `CRASH_WRITER_FILES=${files} ${process.execPath} ${CRASH_WRITER} ${mount} none ${label}`;
    const script = [
      `mount -t tmpfs tmpfs ${mount}`,
      writer('a.txt,b.txt', 'one'),
      writer('a.txt,c.txt', 'two'),
      `echo "files: $(ls -A ${mount} | tr '\\n' ' ')"`,
      `echo notes > ${mount}/NOTES.md`,
      `{ ${writer('a.txt', 'three')} || echo "refused: $?"; }`,
      `echo "after: $(ls -A ${mount} | tr '\\n' ' ')$(cat ${mount}/a.txt)"`,
    ].join(' && ');
    const { code, output } = await runInMountNamespace(script);
    expect(code, output).toBe(0);
    expect(output).toContain(`files: ${REPORT_MARKER_FILE} a.txt c.txt \n`);
    expect(output).toMatch(/holds files this tool did not write \(NOTES\.md\)/);
    expect(output).toContain('refused: 1\n');
    expect(output).toContain(`after: ${REPORT_MARKER_FILE} NOTES.md a.txt c.txt two\n`);
  });

  test.skipIf(!canMount)('a writer killed inside it: the next write finishes a complete staging (roll forward) or removes a partial one', async () => {
    const mount = join(root, 'mnt-crash');
    mkdirSync(mount);
    const writer = (step: string, label: string) => `${process.execPath} ${CRASH_WRITER} ${mount} ${step} ${label}`;
    const show = (tag: string) => `echo "${tag}: $(cat ${mount}/a.txt ${mount}/b.txt) | $(ls -A ${mount} | sed -E 's/-[0-9]+-[0-9a-f]{8}$//' | tr '\\n' ' ')"`;
    const script = [
      `mount -t tmpfs tmpfs ${mount}`,
      writer('none', 'one'),
      // Killed after its staging was marked complete, before any file moved.
      `{ ${writer('ready', 'two')} || true; }`,
      show('after crash'),
      // The next writer first finishes the moves (the folder holds "two" whole), then is killed while staging.
      `{ ${writer('staged', 'three')} || true; }`,
      show('after recovery'),
      writer('none', 'four'),
      show('after next write'),
    ].join(' && ');
    const { code, output } = await runInMountNamespace(script);
    expect(code, output).toBe(0);
    expect(output).toContain(`after crash: oneone | ${REPORT_MARKER_FILE} .mcp-error-matrix.new a.txt b.txt \n`);
    expect(output).toContain(`after recovery: twotwo | ${REPORT_MARKER_FILE} .mcp-error-matrix.tmp a.txt b.txt \n`);
    expect(output).toContain(`after next write: fourfour | ${REPORT_MARKER_FILE} a.txt b.txt \n`);
  });
});

describe('the lock beside the folder', () => {
  const lockOf = (out: string) => join(out, '..', '.report.lock');
  const plantLock = (out: string, pid: number, mtime?: Date) => {
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(lockOf(out), JSON.stringify({ pid, host: hostname(), token: 'planted' }));
    if (mtime) utimesSync(lockOf(out), mtime, mtime);
  };

  test('held by a live process: the writer waits, then fails with a clear message, the folder untouched', async () => {
    const out = join(root, 'lock-live', 'report');
    await writeLabelled(out, 'old');
    // pid 1 is alive and started before the lock was taken: a real holder.
    plantLock(out, 1);
    const error: unknown = await writeReportFolder(out, [{ name: 'a.txt', content: 'new' }], undefined, { lockWaitMs: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputFolderError);
    expect((error as Error).message).toMatch(/^--out ".*report": process 1 has held this report folder's lock for too long \(lock .*\.report\.lock\): it is running with the same --out, or writing it; wait for it/);
    // No attempt leaves its draft (`.report.lock.<token>`) behind.
    expect(readdirSync(join(out, '..')).sort()).toEqual(['.report.lock', 'report']);
    expect(readReport(out)).toBe('old');
    expect(readFileSync(lockOf(out), 'utf8')).toContain('planted');
  });

  test('left by a process that is gone, or whose pid now belongs to a later process: broken at once', async () => {
    const out = join(root, 'lock-stale', 'report');
    await writeLabelled(out, 'old');
    // A pid above the kernel's maximum never exists.
    plantLock(out, 2 ** 22 + 1);
    await writeReportFolder(out, [{ name: 'a.txt', content: 'one' }], undefined, { lockWaitMs: 0 });
    // pid 1 is alive, but started long after this lock was written: the pid was reused.
    plantLock(out, 1, new Date('2000-01-01T00:00:00Z'));
    await writeReportFolder(out, [{ name: 'a.txt', content: 'two' }], undefined, { lockWaitMs: 0 });
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('two');
    expect(existsSync(lockOf(out))).toBe(false);
  });
});

// Issue 28 item 5: `.r.lock` as a FIFO, a symlink or a folder used to be waited on for 120 s after
// every cell had run, then blamed on "another process", leaving a `.r.lock.<token>` behind.
describe('something at the lock path that is not a lock', () => {
  const lockOf = (out: string) => join(out, '..', '.report.lock');
  const plant: Record<string, (lock: string) => void> = {
    'a named pipe': (lock) => execFileSync('mkfifo', [lock]),
    'a symbolic link': (lock) => symlinkSync('/etc/hostname', lock),
    'a dangling symbolic link': (lock) => symlinkSync('/nowhere/at/all', lock),
    'a folder': (lock) => mkdirSync(lock),
    'a file that is not a lock this tool wrote': (lock) => writeFileSync(lock, 'hello\n'),
  };

  test.each(Object.keys(plant))('%s: refused at once (not waited on) with its path, nothing written, nothing left behind', async (kind) => {
    const out = join(root, `not-a-lock-${kind.replace(/\W+/g, '-')}`, 'report');
    await writeLabelled(out, 'old');
    plant[kind]!(lockOf(out));
    const before = readdirSync(join(out, '..')).sort();
    // A wait of ten minutes: only a refusal at once lets this test end within its timeout.
    const error: unknown = await writeReportFolder(out, [{ name: 'a.txt', content: 'new' }], undefined, { lockWaitMs: 600_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputFolderError);
    expect((error as OutputFolderError).exitCode).toBe(2);
    expect((error as Error).message).toBe(
      `--out "${out}": ${lockOf(out)} is ${kind.replace('a dangling symbolic link', 'a symbolic link')}, not this tool's lock file (a small JSON file naming the process that holds it); remove it or choose another --out; nothing was written or removed`,
    );
    expect(readReport(out)).toBe('old');
    expect(readdirSync(join(out, '..')).sort()).toEqual(before);
  }, 20_000);

  test('an abort while waiting for a live holder stops the wait at once, leaving nothing behind', async () => {
    const out = join(root, 'lock-abort', 'report');
    await writeLabelled(out, 'old');
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(lockOf(out), JSON.stringify({ pid: 1, host: hostname(), token: 'planted' }));
    const stop = new AbortController();
    const waiting = acquireFolderLock(lockOf(out), { shownAs: 'report', waitMs: 600_000, signal: stop.signal, onWait: () => stop.abort('SIGINT') });
    const error: unknown = await waiting.catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^--out "report": interrupted while waiting for the report folder's lock/);
    expect(readdirSync(join(out, '..')).sort()).toEqual(['.report.lock', 'report']);
  }, 20_000);
});
