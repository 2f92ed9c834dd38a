// The git commit of a checkout, read from its .git files without running git: `.git` (a folder, or
// a worktree's `gitdir:` file), HEAD, then the ref it names (loose, or in packed-refs). Every read
// is bounded; anything unexpected gives undefined (the commit is then omitted, never guessed).
import { isAbsolute, join, resolve } from 'node:path';
import { readUserText } from '../io/read-user-file.js';

/** .git files, HEAD and loose refs are a line; packed-refs of a large repository can be a few MiB. */
const SMALL_FILE_MAX_BYTES = 4 * 1024;
const PACKED_REFS_MAX_BYTES = 8 * 1024 * 1024;
const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const REF = /^refs\/[A-Za-z0-9._/-]+$/;

/** The commit checked out at `dir` (the folder holding `.git`), or undefined when it cannot be read. */
export async function readGitCommit(dir: string): Promise<string | undefined> {
  try {
    const gitDir = await findGitDir(dir);
    if (gitDir === undefined) return undefined;
    const head = (await readSmall(join(gitDir, 'HEAD'))).trim();
    if (COMMIT.test(head)) return head;
    const ref = /^ref: (\S+)$/.exec(head)?.[1];
    if (ref === undefined || !REF.test(ref) || ref.split('/').includes('..')) return undefined;
    const commonDir = await readCommonDir(gitDir);
    for (const base of [...new Set([gitDir, commonDir])]) {
      const loose = await readSmall(join(base, ref)).catch(() => undefined);
      if (loose !== undefined && COMMIT.test(loose.trim())) return loose.trim();
    }
    const packed = await readUserText(join(commonDir, 'packed-refs'), { maxBytes: PACKED_REFS_MAX_BYTES, what: 'packed-refs' }).catch(() => '');
    for (const line of packed.split('\n')) {
      const [sha, name] = line.trim().split(' ');
      if (name === ref && sha !== undefined && COMMIT.test(sha)) return sha;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

async function findGitDir(dir: string): Promise<string | undefined> {
  const dotGit = join(dir, '.git');
  const asFile = await readSmall(dotGit).catch(() => undefined);
  if (asFile === undefined) return (await readSmall(join(dotGit, 'HEAD')).catch(() => undefined)) === undefined ? undefined : dotGit;
  const target = /^gitdir: (.+)$/m.exec(asFile)?.[1]?.trim();
  return target === undefined ? undefined : isAbsolute(target) ? target : resolve(dir, target);
}

/** A worktree's shared folder (refs, packed-refs) is named by its `commondir` file. */
async function readCommonDir(gitDir: string): Promise<string> {
  const common = await readSmall(join(gitDir, 'commondir')).catch(() => undefined);
  if (common === undefined) return gitDir;
  const path = common.trim();
  return isAbsolute(path) ? path : resolve(gitDir, path);
}

function readSmall(path: string): Promise<string> {
  return readUserText(path, { maxBytes: SMALL_FILE_MAX_BYTES, what: 'git file' });
}
