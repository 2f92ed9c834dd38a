// Loads the case table: reads every case file, parses it, validates it against
// schemas/case.schema.json and the rules a schema cannot express, and fails as a whole.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { globSync as globSyncType } from 'tinyglobby';
import { CaseTableError, type CaseProblem } from './case-errors.js';
import { getCaseGuard } from './case-guard.js';
import { checkCaseRules } from './case-rules.js';
import type { LoadedCase } from './case-types.js';
import { deepFreeze } from '../deep-freeze.js';
import { packagePath } from '../package-paths.js';

export interface LoadCasesOptions {
  /** Directories, files or glob patterns. @default the package's cases/ folder */
  sources?: string[];
  cwd?: string;
}

/** Loads and validates every case file; throws CaseTableError listing every problem found. */
export async function loadCases(options: LoadCasesOptions = {}): Promise<LoadedCase[]> {
  return loadCasesSync(options);
}

/** The same, synchronously: for test collection (vitest `describe` callbacks cannot await). */
export function loadCasesSync(options: LoadCasesOptions = {}): LoadedCase[] {
  const cwd = options.cwd ?? process.cwd();
  const files = findCaseFiles(options.sources ?? [packagePath('cases')], cwd);
  const problems: CaseProblem[] = [];
  const loaded: LoadedCase[] = [];
  for (const { file, root } of files) {
    const result = loadCaseFile(file, root, cwd);
    if ('problems' in result) problems.push(...result.problems);
    else loaded.push(result.loaded);
  }
  problems.push(...findDuplicateIds(loaded));
  if (problems.length > 0) throw new CaseTableError(problems);
  return loaded.sort((a, b) => a.case.id.localeCompare(b.case.id));
}

function findCaseFiles(sources: string[], cwd: string): { file: string; root: string }[] {
  const found = new Map<string, string>();
  for (const source of sources) {
    const absolute = resolve(cwd, source);
    if (isDirectory(absolute)) {
      for (const file of listJsonFiles(absolute) ?? globSync('**/*.json', { cwd: absolute, absolute: true })) found.set(resolve(file), absolute);
    } else if (source.endsWith('.json') && !/[*?[{]/.test(source)) {
      found.set(absolute, dirname(dirname(absolute)));
    } else {
      const matches = globSync(source, { cwd, absolute: true });
      for (const file of matches.filter((f) => f.endsWith('.json'))) found.set(resolve(file), dirname(dirname(resolve(file))));
    }
  }
  if (found.size === 0) {
    throw new CaseTableError([
      { file: sources.join(', '), pointer: '', message: 'no case files (*.json) found; check the --cases path or pattern' },
    ]);
  }
  return [...found].map(([file, root]) => ({ file, root })).sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * What the glob for *.json at any depth finds under a plain folder tree (dot entries skipped, as the glob does), without
 * loading the glob library; undefined at the first symbolic link or unreadable folder, left to the glob.
 */
function listJsonFiles(dir: string, into: string[] = []): string[] | undefined {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) return undefined;
    if (entry.isDirectory()) {
      if (!listJsonFiles(path, into)) return undefined;
    } else if (entry.isFile() && entry.name.endsWith('.json')) {
      into.push(path);
    }
  }
  return into;
}

// tinyglobby, required on first use: the bundled cases folder never needs it.
function globSync(pattern: string, options: { cwd: string; absolute: true }): string[] {
  return (createRequire(import.meta.url)('tinyglobby') as { globSync: typeof globSyncType }).globSync(pattern, options);
}

function loadCaseFile(file: string, root: string, cwd: string): { loaded: LoadedCase } | { problems: CaseProblem[] } {
  const shown = relative(cwd, file) || file;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { problems: [{ file: shown, pointer: '', message: `cannot be read: ${(error as Error).message}` }] };
  }
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { problems: [{ file: shown, pointer: '', message: `is not valid JSON: ${(error as Error).message}; fix the syntax` }] };
  }
  const guard = getCaseGuard();
  if (!guard.isCase(document)) return { problems: guard.describe(shown, document) };
  const relativeFile = relative(root, file).split(sep).join('/');
  const folder = relativeFile.includes('/') ? relativeFile.split('/')[0] : undefined;
  const rules = checkCaseRules(document, { fileId: basename(file, '.json'), folder }).map((p) => ({ ...p, file: shown }));
  if (rules.length > 0) return { problems: rules };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // Frozen: every target and report reads this one object, so nothing may change it.
  return { loaded: { case: deepFreeze(document), file, relativeFile, sha256 } };
}

function findDuplicateIds(loaded: LoadedCase[]): CaseProblem[] {
  const byId = new Map<string, LoadedCase[]>();
  for (const item of loaded) byId.set(item.case.id, [...(byId.get(item.case.id) ?? []), item]);
  return [...byId.values()]
    .filter((group) => group.length > 1)
    .map((group) => ({
      file: group[1]!.relativeFile,
      pointer: '/id',
      message: `duplicate id "${group[0]!.case.id}", already used by ${group[0]!.relativeFile}; ids must be unique`,
    }));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
