// `--out` never destroys what the tool did not write (issue 11, item 1): every refusal exits 2,
// names the path and why, before the run starts, and leaves every byte in place.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPORT_MARKER_FILE } from '../../reports/report-folder/index.js';
import { runCli } from '../run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'mem-out-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// The commands' modules are loaded once here, so no single test pays for it on a loaded machine.
beforeAll(async () => {
  await Promise.all([import('../../runner/commands/run-command.js'), import('../../runner/commands/merge-command.js'), import('../../reports/write-run-reports.js')]);
}, 120_000);

const RUN = ['run', '--target', 'naive', '--case', 'content-not-array', '--mode', 'direct', '--no-schemas', '--no-baseline', '--quiet'];

/** Every file under `dir` with its bytes (symlinks as their target text), to prove nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) out[path] = `-> ${readlinkSync(path)}`;
    else if (entry.isFile()) out[path] = readFileSync(path, 'utf8');
    else if (entry.isDirectory()) out[path] = '<dir>';
  }
  return out;
}

/** A folder that looks like a user's project: a git repository with notes. */
function makeUserRepo(name: string): string {
  const repo = join(root, name);
  mkdirSync(join(repo, 'notes'), { recursive: true });
  writeFileSync(join(repo, 'notes', 'todo.md'), '- keep this\n');
  writeFileSync(join(repo, 'file.txt'), 'precious\n');
  execFileSync('git', ['init', '-q', repo]);
  return repo;
}

describe('--out refuses what it did not write, before running, and touches nothing', () => {
  const repo = makeUserRepo('repo');
  mkdirSync(join(repo, 'sub'));
  const home = join(root, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.bashrc'), 'export X=1\n');
  const userLink = join(root, 'link-to-notes');
  symlinkSync(join(repo, 'notes'), userLink);
  const dangling = join(root, 'dangling-link');
  symlinkSync(join(root, 'nowhere'), dangling);
  const fifo = join(root, 'fifo');
  execFileSync('mkfifo', [fifo]);

  test.each([
    ['`.` inside a git repository', '.', repo, /is the current directory/],
    ['`..` (the parent of the working directory)', '..', join(repo, 'sub'), /current directory or one of its ancestors/],
    ['"" (an unset variable)', '', repo, /empty path would mean the current directory/],
    ['a folder of user files (`notes/`)', 'notes/', repo, /holds files this tool did not write \(todo\.md\)/],
    ['a regular file', 'file.txt', repo, /is a file, not a folder/],
    ['the home directory', home, repo, /is the home directory/],
    ['/', '/', repo, /root of the file system/],
    ['a symlink to a user folder', userLink, repo, /holds files this tool did not write/],
    ['a dangling symlink', dangling, repo, /is a symbolic link whose target does not exist/],
    ['a named pipe (never opened, so nothing blocks)', fifo, repo, /is a named pipe, not a folder/],
  ])('%s: exit 2, the path and the reason named, nothing run, nothing touched', async (_title, out, cwd, reason) => {
    const before = snapshot(root);
    const result = await runCli([...RUN, '--out', out], { cwd, env: { ...process.env, CI: 'true', HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toContain(`--out ${JSON.stringify(out)}`);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    // Refused before the run: no TAP was printed.
    expect(result.stdout).toBe('');
    expect(snapshot(root)).toEqual(before);
    expect(existsSync(join(repo, '.git', 'HEAD'))).toBe(true);
    expect(lstatSync(userLink).isSymbolicLink()).toBe(true);
  });

  test('merge refuses a folder of user files the same way', async () => {
    const before = snapshot(root);
    const result = await runCli(['merge', join(root, 'no-such-shard'), '--out', 'notes', '--quiet'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--out "notes": .*holds files this tool did not write/);
    expect(snapshot(root)).toEqual(before);
  });
});

describe('--out replaces what it may replace', () => {
  test('an absent folder, then its own report folder again: written, with the marker, no leftovers', async () => {
    const dir = join(root, 'own');
    mkdirSync(dir);
    for (let round = 0; round < 2; round++) {
      const result = await runCli([...RUN, '--out', 'report'], { cwd: dir });
      expect(result.code, result.stderr).toBe(1);
      expect(readdirSync(join(dir, 'report')).sort()).toEqual(
        [REPORT_MARKER_FILE, 'SHA256SUMS', 'matrix.html', 'receipts.json', 'results.full.json.gz', 'results.json', 'results.junit.xml', 'results.tap', 'summary.json', 'summary.md'].sort(),
      );
      expect(readdirSync(dir)).toEqual(['report']);
    }
    // The marker is covered by the receipts like every other file.
    expect(readFileSync(join(dir, 'report', 'SHA256SUMS'), 'utf8')).toContain(REPORT_MARKER_FILE);
  });

  test('an empty folder is replaced', async () => {
    const dir = join(root, 'empty-out');
    mkdirSync(dir);
    const result = await runCli([...RUN, '--out', dir], { cwd: root });
    expect(result.code, result.stderr).toBe(1);
    expect(existsSync(join(dir, 'results.json'))).toBe(true);
  });

  test('a symlink to its own report folder: written at the target, the link left as it was', async () => {
    const target = join(root, 'real-report');
    expect((await runCli([...RUN, '--out', target], { cwd: root })).code).toBe(1);
    const link = join(root, 'report-link');
    symlinkSync(target, link);
    const before = statSync(join(target, 'results.json')).mtimeMs;
    const result = await runCli([...RUN, '--out', link], { cwd: root });
    expect(result.code, result.stderr).toBe(1);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(lstatSync(target).isDirectory()).toBe(true);
    expect(existsSync(join(target, REPORT_MARKER_FILE))).toBe(true);
    expect(statSync(join(target, 'results.json')).mtimeMs).toBeGreaterThanOrEqual(before);
    expect(readdirSync(root).filter((name) => /\.(tmp|new|old)-/.test(name))).toEqual([]);
  });
});

// Issue 28 item 6: `run --out rep`, then `echo notes > rep/NOTES.md; mkdir rep/mydata`, then `run
// --out rep` exited 0 and both were gone. The tool knows the files it wrote (its marker lists them).
describe('--out never deletes files the tool did not write inside its own report folder', () => {
  test('a file and a folder added to a report folder: exit 2 naming them, before the run, nothing touched', async () => {
    const dir = join(root, 'user-files');
    mkdirSync(dir);
    expect((await runCli([...RUN, '--out', 'rep'], { cwd: dir })).code).toBe(1);
    writeFileSync(join(dir, 'rep', 'NOTES.md'), 'notes\n');
    mkdirSync(join(dir, 'rep', 'mydata'));
    writeFileSync(join(dir, 'rep', 'mydata', 'keep.csv'), '1,2\n');
    const before = snapshot(dir);
    const result = await runCli([...RUN, '--out', 'rep'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^mcp-error-matrix run: --out "rep": .*rep is a report folder of mcp-error-matrix, but it also holds files this tool did not write \((NOTES\.md, mydata\/|mydata\/, NOTES\.md)\), which replacing the folder would delete; move them out of the folder, or choose another --out; nothing was written or removed\n$/);
    expect(snapshot(dir)).toEqual(before);
  });

  test('one of its own files replaced by a folder of the user\'s is not its own any more', async () => {
    const dir = join(root, 'user-folder-in-place');
    mkdirSync(dir);
    expect((await runCli([...RUN, '--out', 'rep'], { cwd: dir })).code).toBe(1);
    rmSync(join(dir, 'rep', 'summary.md'));
    mkdirSync(join(dir, 'rep', 'summary.md'));
    writeFileSync(join(dir, 'rep', 'summary.md', 'mine.txt'), 'mine\n');
    const result = await runCli([...RUN, '--out', 'rep'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds files this tool did not write \(summary\.md\/\)/);
    expect(readFileSync(join(dir, 'rep', 'summary.md', 'mine.txt'), 'utf8')).toBe('mine\n');
  });

  test('a report folder of an earlier version (its marker lists no files) is known by its receipts: replaced, unless it holds more', async () => {
    const dir = join(root, 'earlier-marker');
    mkdirSync(dir);
    expect((await runCli([...RUN, '--out', 'rep'], { cwd: dir })).code).toBe(1);
    const marker = join(dir, 'rep', REPORT_MARKER_FILE);
    const { files: _files, ...earlier } = JSON.parse(readFileSync(marker, 'utf8')) as { files?: string[] };
    writeFileSync(marker, `${JSON.stringify(earlier)}\n`);
    expect((await runCli([...RUN, '--out', 'rep'], { cwd: dir })).code).toBe(1);
    expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({ files: expect.arrayContaining(['results.json', 'receipts.json', 'SHA256SUMS']) });
    writeFileSync(marker, `${JSON.stringify(earlier)}\n`);
    writeFileSync(join(dir, 'rep', 'NOTES.md'), 'notes\n');
    const refused = await runCli([...RUN, '--out', 'rep'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/holds files this tool did not write \(NOTES\.md\)/);
  });

  test('merge refuses such a folder too', async () => {
    const dir = join(root, 'user-files-merge');
    mkdirSync(dir);
    expect((await runCli([...RUN, '--out', 'rep'], { cwd: dir })).code).toBe(1);
    writeFileSync(join(dir, 'rep', 'NOTES.md'), 'notes\n');
    const result = await runCli(['merge', 'no-such-shard', '--out', 'rep', '--quiet'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds files this tool did not write \(NOTES\.md\)/);
    expect(readFileSync(join(dir, 'rep', 'NOTES.md'), 'utf8')).toBe('notes\n');
  });
});

// Issue 28 item 5, through the CLI: a lock that is not a lock is refused before the first cell.
describe('--out whose lock path holds something else', () => {
  test('a named pipe at .rep.lock: exit 2 at once naming it, no cell run, no token file left', async () => {
    const dir = join(root, 'fifo-lock');
    mkdirSync(dir);
    execFileSync('mkfifo', [join(dir, '.rep.lock')]);
    const result = await runCli([...RUN, '--out', 'rep'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`mcp-error-matrix run: --out "rep": ${join(realpathSync(dir), '.rep.lock')} is a named pipe, not this tool's lock file (a small JSON file naming the process that holds it); remove it or choose another --out; nothing was written or removed\n`);
    expect(readdirSync(dir)).toEqual(['.rep.lock']);
  });
});
