// Loads the case table: reads every case file, parses it, validates it against
// schemas/case.schema.json and the rules a schema cannot express, and fails as a whole.
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import type { globSync as globSyncType } from 'tinyglobby';
import { CaseTableError, type CaseProblem } from './case-errors.js';
import { getCaseGuard } from './case-guard.js';
import { getCheckedBundledCases, takeCheckedText, type CheckedCase } from './checked-cases.js';
import { checkCaseRules } from './case-rules.js';
import { compareTableText } from './compare-table-text.js';
import type { Case, LoadedCase } from './case-types.js';
import { findDeepNesting } from './find-deep-nesting.js';
import { listCaseFiles } from './list-case-files.js';
import { CASE_FILE_MAX_BYTES, CASE_MAX_NESTING } from '../io/input-caps.js';
import { decodeUserText, readUserFileSync, UserFileError } from '../io/read-user-file.js';
import { freezeParsedJson } from './freeze-parsed-json.js';
import { CaseTextStore, LAZY_CASES, LazyLoadedCase } from './lazy-loaded-case.js';
import { packagePath } from '../util/package-paths.js';

export interface LoadCasesOptions {
  /** Directories, files or glob patterns. @default the package's cases/ folder */
  sources?: string[];
  cwd?: string;
  /** Validate every file, even bundled ones the build already validated (the build itself). @default false */
  checkAll?: boolean;
  /** Where the bundled table and the build's list of checked files are (tests). @default the package's cases/ and this module's folder */
  bundled?: { root: string; checkedDir: string };
  /** From this many case files on, cases are kept as text and parsed when used (lazy-loaded-case.ts). @default LAZY_CASES */
  lazyFrom?: number;
}

/** Loads and validates every case file; throws CaseTableError listing every problem found. */
export async function loadCases(options: LoadCasesOptions = {}): Promise<LoadedCase[]> {
  return loadCasesSync(options);
}

/** The same, synchronously: for test collection (vitest `describe` callbacks cannot await). */
export function loadCasesSync(options: LoadCasesOptions = {}): LoadedCase[] {
  const cwd = options.cwd ?? process.cwd();
  const bundled = options.bundled?.root ?? packagePath('cases');
  const { files, problems } = findCaseFiles(options.sources ?? [bundled], cwd);
  const loaded: LoadedCase[] = [];
  // The ids, read once: a lazily loaded case would read its file again for each `case.id`.
  const ids = new Map<LoadedCase, string>();
  const checked = options.checkAll ? null : getCheckedBundledCases(...(options.bundled ? [options.bundled.checkedDir] : []));
  // A large table keeps where each validated file is, not its parsed case (lazy-loaded-case.ts).
  const store = files.length >= (options.lazyFrom ?? LAZY_CASES) ? new CaseTextStore() : undefined;
  for (const { file, root } of files) {
    const result = loadCaseFile(file, root, cwd, root === bundled ? checked : null);
    if ('problems' in result) {
      problems.push(...result.problems);
      continue;
    }
    const { loaded: parsed, text } = result;
    const place = store?.add(text);
    const item = store && place ? new LazyLoadedCase(store, place.offset, place.length, parsed.file, parsed.relativeFile, parsed.sha256) : parsed;
    ids.set(item, parsed.case.id);
    loaded.push(item);
  }
  if (store && problems.length > 0) store.close();
  problems.push(...findDuplicateIds(loaded, ids));
  if (problems.length > 0) throw new CaseTableError(problems);
  return loaded.sort((a, b) => compareTableText(ids.get(a)!, ids.get(b)!));
}

function findCaseFiles(sources: string[], cwd: string): { files: { file: string; root: string }[]; problems: CaseProblem[] } {
  const found = new Map<string, string>();
  const problems: CaseProblem[] = [];
  // Only two sources, a glob or a followed link can reach one file under two paths.
  let mayRepeat = sources.length > 1;
  for (const source of sources) {
    const absolute = resolve(cwd, source);
    if (isDirectory(absolute)) {
      const listing = listCaseFiles(absolute);
      mayRepeat ||= listing.followedLinks;
      for (const file of listing.files) found.set(resolve(file), absolute);
      for (const problem of listing.problems) problems.push({ file: relative(cwd, problem.path) || problem.path, pointer: '', message: problem.message });
    } else if (source.endsWith('.json') && !/[*?[{]/.test(source)) {
      found.set(absolute, dirname(dirname(absolute)));
    } else {
      mayRepeat = true;
      const matches = globSync(source, { cwd, absolute: true });
      for (const file of matches.filter((f) => f.endsWith('.json'))) found.set(resolve(file), dirname(dirname(resolve(file))));
    }
  }
  if (found.size === 0 && problems.length === 0) {
    throw new CaseTableError([
      { file: sources.join(', '), pointer: '', message: 'no case files (*.json) found; check the --cases path or pattern' },
    ]);
  }
  const files = [...found].map(([file, root]) => ({ file, root })).sort((a, b) => compareTableText(a.file, b.file));
  return { files: mayRepeat ? dropSecondPaths(files, cwd, problems) : files, problems };
}

/**
 * One file reached under two paths (a glob through a symlink loop, two links to one folder) is loaded
 * once: the later path is named as a problem instead of being reported as a duplicate id.
 */
function dropSecondPaths(files: { file: string; root: string }[], cwd: string, problems: CaseProblem[]): { file: string; root: string }[] {
  // The path without links wins; else the first in order.
  const kept = new Map<string, string>();
  for (const { file } of files) {
    const real = realPathOrSelf(file);
    if (!kept.has(real) || file === real) kept.set(real, file);
  }
  const shown = (path: string) => relative(cwd, path) || path;
  return files.filter(({ file }) => {
    const first = kept.get(realPathOrSelf(file))!;
    if (first === file) return true;
    problems.push({ file: shown(file), pointer: '', message: `is the same file as ${shown(first)}, reached through a symbolic link (a symlink loop or a second link to one folder); remove the link` });
    return false;
  });
}

function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

// tinyglobby, required on first use: only glob patterns need it.
function globSync(pattern: string, options: { cwd: string; absolute: true }): string[] {
  return (createRequire(import.meta.url)('tinyglobby') as { globSync: typeof globSyncType }).globSync(pattern, options);
}

/** One case file read, parsed and validated: the case, and the text it was parsed from (no byte-order mark). */
function loadCaseFile(file: string, root: string, cwd: string, checked: Map<string, CheckedCase> | null): { loaded: LoadedCase; text: string } | { problems: CaseProblem[] } {
  const relativeFile = relative(root, file).split(sep).join('/');
  const entry = checked?.get(relativeFile);
  // An unchanged bundled file comes from the build's list, its text checked against the validated SHA-256.
  const listed = takeCheckedText(entry, file);
  if (entry && listed !== undefined) {
    const parseable = listed.charCodeAt(0) === 0xfeff ? listed.slice(1) : listed;
    return { loaded: { case: freezeParsedJson(JSON.parse(parseable) as Case), file, relativeFile, sha256: entry.sha256 }, text: parseable };
  }
  const shown = relative(cwd, file) || file;
  let bytes: Buffer;
  let text: string;
  try {
    // Bounded, regular files only, strict UTF-8: a case body that needs other bytes says so with `base64`.
    bytes = readUserFileSync(file, { maxBytes: CASE_FILE_MAX_BYTES, what: 'case file' });
    text = decodeUserText(file, bytes, 'case file');
  } catch (error) {
    const message = !(error instanceof UserFileError)
      ? `cannot be read: ${(error as Error).message}`
      : error.problem === 'invalid-utf8'
        ? `${error.detail}; a body that must carry other bytes gives them in its \`base64\` field`
        : error.detail;
    return { problems: [{ file: shown, pointer: '', message }] };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { problems: [{ file: shown, pointer: '', message: `is not valid JSON: ${(error as Error).message}; fix the syntax` }] };
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // A bundled file with the very bytes the build validated (checked-cases.ts) is not checked again.
  if (entry?.sha256 === sha256) return { loaded: { case: freezeParsedJson(document as Case), file, relativeFile, sha256 }, text };
  const deep = findDeepNesting(document, CASE_MAX_NESTING);
  if (deep !== undefined) {
    return { problems: [{ file: shown, pointer: deep, message: `nested more than ${CASE_MAX_NESTING} arrays/objects deep (the limit for a case file); flatten the value` }] };
  }
  const guard = getCaseGuard();
  if (!guard.isCase(document)) return { problems: guard.describe(shown, document) };
  const folder = relativeFile.includes('/') ? relativeFile.split('/')[0] : undefined;
  const rules = checkCaseRules(document, { fileId: basename(file, '.json'), folder }).map((p) => ({ ...p, file: shown }));
  if (rules.length > 0) return { problems: rules };
  // Frozen: every target and report reads this one object, so nothing may change it.
  return { loaded: { case: freezeParsedJson(document), file, relativeFile, sha256 }, text };
}

function findDuplicateIds(loaded: LoadedCase[], ids: ReadonlyMap<LoadedCase, string>): CaseProblem[] {
  const byId = new Map<string, LoadedCase[]>();
  for (const item of loaded) {
    const group = byId.get(ids.get(item)!);
    if (group) group.push(item);
    else byId.set(ids.get(item)!, [item]);
  }
  return [...byId.values()]
    .filter((group) => group.length > 1)
    .map((group) => ({
      file: group[1]!.relativeFile,
      pointer: '/id',
      message: `duplicate id "${ids.get(group[0]!)!}", already used by ${group[0]!.relativeFile}; ids must be unique`,
    }));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
