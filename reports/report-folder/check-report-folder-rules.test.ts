// The rules of `--out` (check-report-folder.ts), one test each, on real temporary folders: what may
// be replaced (absent, empty, a report folder this tool wrote and nothing else), what is refused and
// how the refusal names it (issue 29 item 1: every rule a mutant broke without a failing test).
// A folder holding only dotfiles (a `.git/`, an `.env`) is someone's data, not an empty folder.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputFolderError } from '../../runner/util/errors.js';
import { checkReportFolder } from './check-report-folder.js';
import { createReportMarker, REPORT_MARKER_FILE } from './report-marker.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mem-out-rules-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
mkdirSync(home);
const options = { cwd: root, home };
let made = 0;
/** A new folder under root holding `files` (a name ending in `/` is a folder). */
const folder = (files: string[] = []) => {
  const dir = join(root, `f${++made}`);
  mkdirSync(dir);
  for (const file of files) {
    if (file.endsWith('/')) mkdirSync(join(dir, file));
    else writeFileSync(join(dir, file), 'x');
  }
  return dir;
};
/** The message `check` was refused with; fails the test when it was not refused. */
const messageOf = async (check: Promise<unknown>): Promise<string> => {
  const outcome = await check.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(outcome).toBeInstanceOf(OutputFolderError);
  return (outcome as Error).message;
};
const refusal = (dir: string, why: string, shown = dir) => `--out ${JSON.stringify(shown)}: ${why}; nothing was written or removed`;

describe('a folder holding only dotfiles is not empty', () => {
  it.each([
    ['.env', (dir: string) => writeFileSync(join(dir, '.env'), 'TOKEN=secret\n')],
    ['.git', (dir: string) => mkdirSync(join(dir, '.git', 'objects'), { recursive: true })],
    ['.DS_Store', (dir: string) => writeFileSync(join(dir, '.DS_Store'), '')],
  ])('refuses a folder whose only entry is %s, naming it, and leaves it in place', async (name, plant) => {
    const dir = join(root, `only${name}`);
    mkdirSync(dir);
    plant(dir);
    const check = checkReportFolder(dir, options);
    await expect(check).rejects.toThrow(OutputFolderError);
    await expect(check).rejects.toThrow(name);
    expect(readdirSync(dir)).toEqual([name]);
  });

  it('takes a folder with no entry at all as empty', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir);
    await expect(checkReportFolder(dir, options)).resolves.toEqual({ target: dir, state: 'empty', mountpoint: false });
  });
});

describe('what may be replaced', () => {
  it('takes a path that does not exist as absent, resolved against the given working directory', async () => {
    await expect(checkReportFolder('new-report', options)).resolves.toEqual({ target: join(root, 'new-report'), state: 'absent', mountpoint: false });
  });

  it('takes a path whose missing folders go several levels up as absent, under the real path of its nearest existing ancestor', async () => {
    const real = folder();
    const link = join(root, `link${made}`);
    symlinkSync(real, link);
    await expect(checkReportFolder(join(link, 'a', 'b', 'c'), options)).resolves.toEqual({ target: join(real, 'a', 'b', 'c'), state: 'absent', mountpoint: false });
  });

  it('takes a folder holding the marker and only the files the marker lists as a report', async () => {
    const dir = folder(['a.txt']);
    writeFileSync(join(dir, REPORT_MARKER_FILE), createReportMarker(['a.txt']));
    await expect(checkReportFolder(dir, options)).resolves.toEqual({ target: dir, state: 'report', mountpoint: false });
  });

  it('follows a symbolic link at --out to the folder it names, which is what gets written', async () => {
    const real = folder();
    const link = join(root, `link${made}`);
    symlinkSync(real, link);
    await expect(checkReportFolder(link, options)).resolves.toEqual({ target: real, state: 'empty', mountpoint: false });
  });
});

describe('what is refused', () => {
  it.each(['', '   '])('refuses an empty path (%j), which would mean the current directory', async (given) => {
    await expect(checkReportFolder(given, options)).rejects.toThrow(
      refusal(given, 'an empty path would mean the current directory (an unset variable?); name a report folder, e.g. --out report'),
    );
  });

  it('says a refusal is a refusal (MEM_OUT_REFUSED), not a folder it could not write', async () => {
    await expect(checkReportFolder(folder(['mine.txt']), options)).rejects.toMatchObject({ code: 'MEM_OUT_REFUSED' });
  });

  it('still checks, and protects the path, when the home directory given does not exist', async () => {
    const missingHome = join(root, 'no-such-home');
    await expect(checkReportFolder(join(root, 'elsewhere'), { ...options, home: missingHome })).resolves.toMatchObject({ state: 'absent' });
    await expect(checkReportFolder(missingHome, { ...options, home: missingHome })).rejects.toThrow(`${missingHome} is the home directory`);
  });

  it('names the path as shown to the user when shownAs is given', async () => {
    await expect(checkReportFolder('', { ...options, shownAs: '$OUT' })).rejects.toThrow('--out "$OUT": an empty path');
  });

  it('refuses a folder the tool did not write, naming three of its entries and how to choose another folder', async () => {
    const dir = folder(['a', 'b', 'c']);
    const error = await checkReportFolder(dir, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputFolderError);
    const message = (error as Error).message;
    const sample = /holds files this tool did not write \(([^)]*)\)/.exec(message)?.[1];
    expect(sample?.split(', ').sort()).toEqual(['a', 'b', 'c']);
    expect(message).toBe(
      refusal(
        dir,
        `${dir} holds files this tool did not write (${sample}); --out replaces only a folder that is absent, empty, or a report folder ` +
          `written by mcp-error-matrix (it holds ${REPORT_MARKER_FILE}): choose a new folder name, e.g. --out ${join(dir, 'report')} ` +
          '(a report written by an older mcp-error-matrix has no marker: delete it by hand once)',
      ),
    );
    expect(readdirSync(dir).sort()).toEqual(['a', 'b', 'c']);
  });

  it('names at most three entries of a folder the tool did not write, then an ellipsis', async () => {
    const dir = folder(['a', 'b', 'c', 'd', 'e']);
    const message = await messageOf(checkReportFolder(dir, options));
    const sample = /holds files this tool did not write \(([^)]*)\)/.exec(message)?.[1] ?? '';
    expect(sample).toMatch(/^[a-e], [a-e], [a-e], …$/);
    expect(new Set(sample.split(', ')).size).toBe(4);
  });

  it('refuses a report folder holding a file the tool did not write, naming it, and leaves both in place', async () => {
    const dir = folder(['a.txt', 'NOTES.md']);
    writeFileSync(join(dir, REPORT_MARKER_FILE), createReportMarker(['a.txt']));
    await expect(checkReportFolder(dir, options)).rejects.toThrow(
      refusal(
        dir,
        `${dir} is a report folder of mcp-error-matrix, but it also holds files this tool did not write (NOTES.md), ` +
          'which replacing the folder would delete; move them out of the folder, or choose another --out',
      ),
    );
    expect(readdirSync(dir).sort()).toEqual([REPORT_MARKER_FILE, 'NOTES.md', 'a.txt'].sort());
  });

  it('names five foreign entries of a report folder when it holds five, and five then an ellipsis when it holds more', async () => {
    const five = folder(['1', '2', '3', '4', '5']);
    writeFileSync(join(five, REPORT_MARKER_FILE), createReportMarker([]));
    const fiveMessage = await messageOf(checkReportFolder(five, options));
    expect(/did not write \(([^)]*)\)/.exec(fiveMessage)?.[1]?.split(', ').sort()).toEqual(['1', '2', '3', '4', '5']);
    const seven = folder(['1', '2', '3', '4', '5', '6', '7']);
    writeFileSync(join(seven, REPORT_MARKER_FILE), createReportMarker([]));
    const sevenMessage = await messageOf(checkReportFolder(seven, options));
    const named = /did not write \(([^)]*)\)/.exec(sevenMessage)?.[1]?.split(', ') ?? [];
    expect(named).toHaveLength(6);
    expect(named.at(-1)).toBe('…');
  });

  it('refuses a regular file at --out, naming it a file, and leaves it', async () => {
    const file = join(folder(), 'report');
    writeFileSync(file, 'mine');
    await expect(checkReportFolder(file, options)).rejects.toThrow(
      refusal(file, `${file} is a file, not a folder; --out replaces a folder as a whole, so choose a folder name, e.g. --out report`),
    );
  });

  it('refuses a named pipe at --out without opening it', async () => {
    const fifo = join(folder(), 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await expect(checkReportFolder(fifo, options)).rejects.toThrow(`${fifo} is a named pipe, not a folder`);
  });

  it('refuses a socket at --out', async () => {
    const socket = join(folder(), 'sock');
    const server = createServer();
    await new Promise<void>((done) => server.listen(socket, done));
    try {
      await expect(checkReportFolder(socket, options)).rejects.toThrow(`${socket} is a socket, not a folder`);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('refuses a device at --out', async () => {
    await expect(checkReportFolder('/dev/null', options)).rejects.toThrow('/dev/null is a device, not a folder');
  });

  it('refuses a path under a regular file as unwritable, never as absent', async () => {
    const file = join(folder(), 'file');
    writeFileSync(file, 'mine');
    await expect(checkReportFolder(join(file, 'report'), options)).rejects.toThrow('a part of the path is a file, not a folder [ENOTDIR]');
  });

  it('refuses a symbolic link whose target does not exist, naming it', async () => {
    const link = join(folder(), 'dangling');
    symlinkSync(join(root, 'nowhere'), link);
    await expect(checkReportFolder(link, options)).rejects.toThrow(
      refusal(link, `${link} is a symbolic link whose target does not exist; create the target folder or give --out a real folder`),
    );
  });

  it('refuses a symbolic link that loops, naming the loop', async () => {
    const dir = folder();
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    await expect(checkReportFolder(join(dir, 'a'), options)).rejects.toThrow(`${join(dir, 'a')} is a symbolic link that loops;`);
  });
});

describe('the folders that are never replaced', () => {
  it('refuses the root of the file system', async () => {
    await expect(checkReportFolder('/', options)).rejects.toThrow(refusal('/', '/ is the root of the file system'));
  });

  it('refuses `.`, the working directory given, as the current directory', async () => {
    const cwd = folder();
    await expect(checkReportFolder('.', { ...options, cwd })).rejects.toThrow(
      refusal('.', `${cwd} is the current directory, which would be replaced as a whole`),
    );
  });

  it('refuses an ancestor of the working directory given', async () => {
    const parent = folder(['inner/']);
    await expect(checkReportFolder('..', { ...options, cwd: join(parent, 'inner') })).rejects.toThrow(
      refusal('..', `${parent} is the current directory or one of its ancestors, which would be replaced as a whole`),
    );
  });

  it('refuses the real folder of a working directory given through a symbolic link', async () => {
    const real = folder();
    const link = join(root, `cwdlink${made}`);
    symlinkSync(real, link);
    await expect(checkReportFolder(real, { ...options, cwd: link })).rejects.toThrow(`${real} is the current directory,`);
  });

  it("refuses the process's own working directory even when another cwd is given", async () => {
    await expect(checkReportFolder(process.cwd(), options)).rejects.toThrow(`${realpathSync(process.cwd())} is the current directory`);
  });

  it('allows a folder inside the working directory, or beside it with a name that starts the same', async () => {
    const cwd = folder(['inside/']);
    await expect(checkReportFolder('inside', { ...options, cwd })).resolves.toMatchObject({ state: 'empty' });
    await expect(checkReportFolder(`${cwd}x`, { ...options, cwd })).resolves.toMatchObject({ state: 'absent' });
  });

  it('refuses the home directory given, and an ancestor of it', async () => {
    const own = folder(['h/']);
    await expect(checkReportFolder(join(own, 'h'), { ...options, home: join(own, 'h') })).rejects.toThrow(
      refusal(join(own, 'h'), `${join(own, 'h')} is the home directory`),
    );
    await expect(checkReportFolder(own, { ...options, home: join(own, 'h') })).rejects.toThrow(
      refusal(own, `${own} is the home directory or one of its ancestors`),
    );
  });

  it('refuses the real folder of a home directory given through a symbolic link', async () => {
    const real = folder();
    const link = join(root, `homelink${made}`);
    symlinkSync(real, link);
    await expect(checkReportFolder(real, { ...options, home: link })).rejects.toThrow(`${real} is the home directory`);
  });

  it('refuses $HOME when no home is given', async () => {
    const saved = process.env['HOME'];
    const fakeHome = folder();
    process.env['HOME'] = fakeHome;
    try {
      await expect(checkReportFolder(fakeHome, { cwd: root })).rejects.toThrow(`${fakeHome} is the home directory`);
      await expect(checkReportFolder(join(fakeHome, 'report'), { cwd: root })).resolves.toMatchObject({ state: 'absent' });
    } finally {
      if (saved === undefined) delete process.env['HOME'];
      else process.env['HOME'] = saved;
    }
  });
});
