// Decides whether `--out P` may be written, before anything is touched (and again under the
// folder lock, right before the swap). A folder is replaced only if it is absent, empty, or a
// report folder this tool wrote (it holds the marker, and nothing the tool did not write beside
// it); everything else is refused, and the
// empty string, the working directory or any ancestor of it, the home directory (or an
// ancestor) and `/` are always refused.
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { OutputFolderError } from '../../runner/util/errors.js';
import { describeWriteError, isSystemError } from './describe-fs-error.js';
import { findForeignEntries } from './find-foreign-entries.js';
import { hasReportMarker, REPORT_MARKER_FILE } from './report-marker.js';

export interface CheckReportFolderOptions {
  /** The directory `given` is relative to (the CLI's cwd). The process's own cwd is protected too. */
  cwd: string;
  /** @default os.homedir() and $HOME */
  home?: string | undefined;
  /** How the path appears in messages. @default given */
  shownAs?: string;
}

export interface ReportFolderPlan {
  /** The real path the report goes to: a symlinked --out resolved to its target. */
  target: string;
  /** What is there now. */
  state: 'absent' | 'empty' | 'report';
  /** A mountpoint is written into (file by file), never renamed. */
  mountpoint: boolean;
}

/** Checks `--out given`; returns where to write, or throws an OutputFolderError (nothing touched). */
export async function checkReportFolder(given: string, options: CheckReportFolderOptions): Promise<ReportFolderPlan> {
  const shown = options.shownAs ?? given;
  const refuse = (why: string) => new OutputFolderError('refused', `--out ${JSON.stringify(shown)}: ${why}; nothing was written or removed`);
  if (given.trim() === '') throw refuse('an empty path would mean the current directory (an unset variable?); name a report folder, e.g. --out report');
  try {
    const absolute = resolve(options.cwd, given);
    const target = await resolveTarget(absolute, refuse);
    await refuseProtected(target, options, refuse);
    const stats = await lstat(target).catch((error: unknown) => (isSystemError(error) && error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (!stats) return { target, state: 'absent', mountpoint: false };
    if (!stats.isDirectory()) throw refuse(`${target} is ${describeKind(stats)}, not a folder; --out replaces a folder as a whole, so choose a folder name, e.g. --out report`);
    const mountpoint = (await stat(dirname(target))).dev !== stats.dev;
    const entries = await listFirstEntries(target, 4);
    if (entries.length === 0) return { target, state: 'empty', mountpoint };
    if (await hasReportMarker(target)) {
      // Its own report, but someone else's files beside it are never replaced with it (issue 28 item 6).
      const foreign = await findForeignEntries(target);
      if (foreign.length === 0) return { target, state: 'report', mountpoint };
      throw refuse(
        `${target} is a report folder of mcp-error-matrix, but it also holds files this tool did not write (${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', …' : ''}), ` +
          'which replacing the folder would delete; move them out of the folder, or choose another --out',
      );
    }
    const sample = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
    throw refuse(
      `${target} holds files this tool did not write (${sample}); --out replaces only a folder that is absent, empty, or a report folder ` +
        `written by mcp-error-matrix (it holds ${REPORT_MARKER_FILE}): choose a new folder name, e.g. --out ${join(given, 'report')} ` +
        `(a report written by an older mcp-error-matrix has no marker: delete it by hand once)`,
    );
  } catch (error) {
    throw describeWriteError(error, shown);
  }
}

/** Up to `count` entry names of `dir`: a folder of a million files is not listed whole to learn it is not empty. */
async function listFirstEntries(dir: string, count: number): Promise<string[]> {
  const handle = await opendir(dir);
  const names: string[] = [];
  try {
    for (let entry = await handle.read(); entry && names.length < count; entry = await handle.read()) names.push(entry.name);
  } finally {
    await handle.close();
  }
  return names;
}

/** The real path of `absolute`: a symlink is followed to its target (a dangling one is refused). */
async function resolveTarget(absolute: string, refuse: (why: string) => Error): Promise<string> {
  const link = await lstat(absolute).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    try {
      return await realpath(absolute);
    } catch (error) {
      const problem = isSystemError(error) && error.code === 'ELOOP' ? 'that loops' : 'whose target does not exist';
      throw refuse(`${absolute} is a symbolic link ${problem}; create the target folder or give --out a real folder`);
    }
  }
  if (link) return realpath(absolute);
  // Absent: resolve the nearest existing ancestor (its path may hold symlinks) and append the rest.
  let existing = dirname(absolute);
  const rest = [basename(absolute)];
  while (!(await lstat(existing).catch(() => undefined))) {
    if (dirname(existing) === existing) break;
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  return join(await realpath(existing), ...rest);
}

/** Refuses `/`, the working directories and their ancestors, the home directory and its ancestors. */
async function refuseProtected(target: string, options: CheckReportFolderOptions, refuse: (why: string) => Error): Promise<void> {
  if (parse(target).root === target) throw refuse(`${target} is the root of the file system`);
  const real = async (path: string) => realpath(path).catch(() => resolve(path));
  const cwds = new Set([resolve(options.cwd), await real(options.cwd), resolve(process.cwd()), await real(process.cwd())]);
  for (const cwd of cwds) if (isSameOrAncestor(target, cwd)) throw refuse(`${target} is the current directory${target === cwd ? '' : ' or one of its ancestors'}, which would be replaced as a whole`);
  const homes = [options.home, homedir(), process.env['HOME']].filter((home): home is string => typeof home === 'string' && home !== '');
  for (const home of homes) {
    for (const candidate of new Set([resolve(home), await real(home)])) {
      if (isSameOrAncestor(target, candidate)) throw refuse(`${target} is the home directory${target === candidate ? '' : ' or one of its ancestors'}`);
    }
  }
}

function isSameOrAncestor(ancestor: string, path: string): boolean {
  const rel = relative(ancestor, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function describeKind(stats: { isFile(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stats.isFile()) return 'a file';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular folder';
}
