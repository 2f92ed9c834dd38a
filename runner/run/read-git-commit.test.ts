// The checkout's commit for receipts, read from .git files without a git binary: loose refs,
// packed-refs, a detached HEAD, a worktree's `gitdir:` file; anything else is omitted, not guessed.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getPackageRoot } from '../util/package-paths.js';
import { readGitCommit } from './read-git-commit.js';

let dir: string;
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-git-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeGit(files: Record<string, string>, at = join(dir, '.git')): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(at, name, '..'), { recursive: true });
    await writeFile(join(at, name), text);
  }
}

describe('readGitCommit', () => {
  it('follows HEAD to a loose ref', async () => {
    await writeGit({ HEAD: 'ref: refs/heads/main\n', 'refs/heads/main': `${A}\n` });
    expect(await readGitCommit(dir)).toBe(A);
  });

  it('finds a ref in packed-refs, and a detached HEAD as it is', async () => {
    await writeGit({ HEAD: 'ref: refs/heads/main\n', 'packed-refs': `# pack-refs with: peeled\n${B} refs/heads/other\n${A} refs/heads/main\n` });
    expect(await readGitCommit(dir)).toBe(A);
    await writeGit({ HEAD: `${B}\n` });
    expect(await readGitCommit(dir)).toBe(B);
  });

  it('reads a worktree: a .git file naming its gitdir, whose commondir holds the refs', async () => {
    const main = join(dir, 'main', '.git');
    await writeGit({ 'refs/heads/feature': `${B}\n`, 'worktrees/wt/HEAD': 'ref: refs/heads/feature\n', 'worktrees/wt/commondir': '../..\n' }, main);
    await mkdir(join(dir, 'wt'));
    await writeFile(join(dir, 'wt', '.git'), `gitdir: ${join(main, 'worktrees', 'wt')}\n`);
    expect(await readGitCommit(join(dir, 'wt'))).toBe(B);
  });

  it('agrees with git on a real repository with packed refs, and on this checkout when it is one', async () => {
    // git without the machine's configuration (a global commit.gpgsign or hooks would change what happens).
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['init', '-q', dir], { env });
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x'], { env });
    execFileSync('git', ['-C', dir, 'pack-refs', '--all'], { env });
    expect(await readGitCommit(dir)).toBe(execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', env }).trim());
    const ours = (() => {
      try {
        return execFileSync('git', ['-C', getPackageRoot(), 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      } catch {
        return undefined; // not a checkout (an installed package): nothing to compare
      }
    })();
    if (ours !== undefined) expect(await readGitCommit(getPackageRoot())).toBe(ours);
  });

  it.each([
    ['no .git at all', {}],
    ['a ref that does not exist', { HEAD: 'ref: refs/heads/gone\n' }],
    ['a ref climbing out of .git', { HEAD: 'ref: refs/../../../etc/passwd\n' }],
    ['a HEAD that is not a commit', { HEAD: 'hello\n' }],
    ['a loose ref that is not a commit', { HEAD: 'ref: refs/heads/main\n', 'refs/heads/main': 'zz\n' }],
    ['a HEAD over its size cap', { HEAD: `${A}\n${'x'.repeat(10_000)}` }],
  ])('omits the commit for %s', async (_name, files) => {
    await writeGit(files);
    expect(await readGitCommit(dir)).toBeUndefined();
  });
});
