// `verify <report dir>`: recompute every hash recorded in receipts.json and SHA256SUMS and
// list what no longer matches. A tampered receipts.json is caught by SHA256SUMS, which covers it.
// The receipts come from whoever made the report, so they are untrusted input (issue 11 item 8):
// only files inside the allowed folders are hashed (never /etc/shadow), each through the bounded
// regular-file reader (a FIFO or /dev/zero is a mismatch, not a hang), every file in the report
// folder must be listed, and receipts that list no inputs are refused.
import { readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { RECEIPTS_FILE_MAX_BYTES } from '../runner/io/input-caps.js';
import { readUserText, UserFileError } from '../runner/io/read-user-file.js';
import { getPackageRoot } from '../runner/package-paths.js';
import { HASH_CONCURRENCY, RECEIPTS_FILE, SUMS_FILE, hashFile, mapWithLimit, relativeInside } from './receipts.js';

export interface VerifyMismatch {
  path: string;
  expected: string;
  actual: string | 'missing';
}

export interface VerifyResult {
  ok: boolean;
  /** Distinct (file, expected hash) pairs checked. */
  checked: number;
  mismatches: VerifyMismatch[];
}

export interface VerifyOptions {
  /** Where `base: "root"` paths resolve; defaults to the root recorded in receipts.json. Files under it may be hashed. */
  rootDir?: string;
  /**
   * Folders, besides the report folder, rootDir and this tool's own package folder, whose files may
   * be hashed. A receipt naming a file anywhere else is a mismatch and the file is not read.
   */
  allowDirs?: string[];
}

interface Expectation {
  /** As shown to the user. */
  path: string;
  absolute: string;
  sha256: string;
}

/** Files this tool keeps in a report folder that no receipt lists (its own dot-files, e.g. a report marker). */
const OWN_DOT_FILE_PREFIX = '.mcp-error-matrix';
/** Entries of a report folder looked at, at most: a report holds a handful of files. */
const MAX_REPORT_ENTRIES = 10_000;

async function readReceiptText(dir: string, name: string, mismatches: VerifyMismatch[]): Promise<string | undefined> {
  try {
    return await readUserText(resolve(dir, name), { maxBytes: RECEIPTS_FILE_MAX_BYTES, what: name });
  } catch (error) {
    if (!(error instanceof UserFileError)) throw error;
    mismatches.push({ path: name, expected: 'present', actual: error.problem === 'missing' ? 'missing' : error.detail });
    return undefined;
  }
}

function parseSums(text: string, dir: string, mismatches: VerifyMismatch[]): Expectation[] {
  const out: Expectation[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const match = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (!match) {
      mismatches.push({ path: `${SUMS_FILE}:${index + 1}`, expected: 'a line "<sha256>  <path>"', actual: line.slice(0, 80) });
      continue;
    }
    const path = match[2]!;
    out.push({ path, absolute: resolve(dir, path), sha256: match[1]!.toLowerCase() });
  }
  return out;
}

function parseReceipts(text: string, dir: string, rootDir: string | undefined, mismatches: VerifyMismatch[]): Expectation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    mismatches.push({ path: RECEIPTS_FILE, expected: 'valid JSON', actual: 'unparseable' });
    return [];
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { root?: unknown; inputs?: unknown; outputs?: unknown };
  const root = rootDir ?? (typeof record.root === 'string' ? record.root : process.cwd());
  // A report without inputs proves nothing about what produced it.
  if (!Array.isArray(record.inputs) || record.inputs.length === 0) {
    mismatches.push({ path: RECEIPTS_FILE, expected: 'at least one input (case files, schemas, runner code)', actual: 'no inputs listed' });
  }
  const entries = [record.inputs, record.outputs].flatMap((list) => (Array.isArray(list) ? (list as unknown[]) : []));
  const out: Expectation[] = [];
  for (const entry of entries) {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as { path?: unknown; base?: unknown; sha256?: unknown };
    if (typeof e.path !== 'string' || typeof e.sha256 !== 'string') {
      mismatches.push({ path: RECEIPTS_FILE, expected: 'entries with path and sha256', actual: String(JSON.stringify(entry)).slice(0, 80) });
      continue;
    }
    const absolute = e.base === 'report' ? resolve(dir, e.path) : e.base === 'root' && !isAbsolute(e.path) ? resolve(root, e.path) : resolve(e.path);
    out.push({ path: e.path, absolute, sha256: e.sha256.toLowerCase() });
  }
  return out;
}

/** Every entry of the report folder (not following links), relative with `/`; bounded. */
async function listReportEntries(reportDir: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [''];
  while (pending.length > 0 && found.length < MAX_REPORT_ENTRIES) {
    const sub = pending.pop()!;
    let entries;
    try {
      entries = await readdir(join(reportDir, sub), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) pending.push(path);
      else found.push(path);
    }
  }
  return found;
}

/** Recompute every input and output hash recorded in a report directory. */
export async function verifyReport(dir: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const reportDir = resolve(dir);
  const mismatches: VerifyMismatch[] = [];
  const sums = await readReceiptText(reportDir, SUMS_FILE, mismatches);
  const receipts = await readReceiptText(reportDir, RECEIPTS_FILE, mismatches);
  const expectations = [
    ...(sums === undefined ? [] : parseSums(sums, reportDir, mismatches)),
    ...(receipts === undefined ? [] : parseReceipts(receipts, reportDir, options.rootDir, mismatches)),
  ];

  // Every file in the report folder is listed: an added file is as much a change as an edited one.
  const listed = new Set(expectations.map((e) => relativeInside(reportDir, e.absolute)));
  for (const path of await listReportEntries(reportDir)) {
    if (path === SUMS_FILE || path === RECEIPTS_FILE || path.startsWith(OWN_DOT_FILE_PREFIX) || listed.has(path)) continue;
    mismatches.push({ path, expected: `absent (listed in neither ${RECEIPTS_FILE} nor ${SUMS_FILE})`, actual: 'present, unlisted' });
  }

  const allowed = await resolveAllowedDirs([reportDir, ...(options.rootDir ? [options.rootDir] : []), getPackageRoot(), ...(options.allowDirs ?? [])]);
  // The same file usually appears in both lists; hash it once, compare against each distinct claim.
  const unique = new Map<string, Expectation>();
  for (const e of expectations) unique.set(`${e.absolute}\0${e.sha256}`, e);
  const files = [...new Set([...unique.values()].map((e) => e.absolute))];
  const digests = await mapWithLimit(files, HASH_CONCURRENCY, (absolute) => hashAllowedFile(absolute, allowed));
  const hashes = new Map(files.map((absolute, index) => [absolute, digests[index]!]));
  for (const e of unique.values()) {
    const actual = hashes.get(e.absolute)!;
    if (actual !== e.sha256) mismatches.push({ path: e.path, expected: e.sha256, actual });
  }
  return { ok: mismatches.length === 0, checked: unique.size, mismatches };
}

async function resolveAllowedDirs(dirs: string[]): Promise<string[]> {
  const resolved = await Promise.all(dirs.map((dir) => realpath(resolve(dir)).catch(() => undefined)));
  return [...new Set(resolved.filter((dir): dir is string => dir !== undefined))];
}

// The file's real location (links resolved) must lie inside an allowed folder before a byte is read.
async function hashAllowedFile(absolute: string, allowed: string[]): Promise<string> {
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    if (code === 'ELOOP') return 'a symlink loop; not hashed';
    return `unreadable (${(error as Error).message})`;
  }
  if (!allowed.some((dir) => real === dir || relativeInside(dir, real) !== undefined)) {
    return 'outside the folders verify may read (the report folder, --root, this tool\'s folder, --allow DIR); not hashed';
  }
  try {
    return (await hashFile(real)).sha256;
  } catch (error) {
    if (error instanceof UserFileError) return error.problem === 'missing' ? 'missing' : `${error.detail}; not hashed`;
    return `unreadable (${(error as Error).message})`;
  }
}
