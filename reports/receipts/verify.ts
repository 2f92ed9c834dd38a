// `verify <report dir>`: recompute every hash recorded in receipts.json and SHA256SUMS and
// list what no longer matches. A tampered receipts.json is caught by SHA256SUMS, which covers it.
// The receipts come from whoever made the report, so they are untrusted input (issue 11 item 8):
// only files inside the allowed folders are hashed (never /etc/shadow), each through the bounded
// regular-file reader (a FIFO or /dev/zero is a mismatch, not a hang), every file in the report
// folder must be listed, and receipts that list no inputs are refused.
// Inputs are recorded relative to named roots; each root is located by `--root NAME=DIR`, else the
// package root of this tool ("package"), else the location the receipts recorded, else a fallback
// (the verifier's own pinned schemas for "schemas"). An input whose root cannot be located here is
// "not checked", with its name: never a pass.
import type { KeyObject } from 'node:crypto';
import { readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { RECEIPTS_FILE_MAX_BYTES } from '../../runner/io/input-caps.js';
import { readUserText, UserFileError } from '../../runner/io/read-user-file.js';
import { getPackageRoot } from '../../runner/util/package-paths.js';
import { createRootLocator } from './locate-receipt-roots.js';
import { ABSOLUTE_BASE, HASH_CONCURRENCY, RECEIPTS_FILE, REPORT_ROOT, SUMS_FILE, hashFile, mapWithLimit, relativeInside } from './receipts.js';
import { checkReceiptsSignature } from './verify-signature.js';

export interface VerifyMismatch {
  path: string;
  expected: string;
  actual: string | 'missing';
}

/** An input verify could not look at: its root is not located here. Never a pass. */
export interface VerifyNotChecked {
  /** The root's name and the path under it, e.g. `cases:protocol/x.json`. */
  path: string;
  root: string;
  reason: string;
}

export interface VerifyResult {
  ok: boolean;
  /** Distinct (file, expected hash) pairs checked. */
  checked: number;
  mismatches: VerifyMismatch[];
  /** Inputs whose root could not be located (present only when there are some); `ok` is then false. */
  notChecked?: VerifyNotChecked[];
  /** With a key: whether the signature matched. Without one, whether the receipts claim a signature. */
  signature?: 'valid' | 'unchecked';
}

export interface VerifyOptions {
  /**
   * Where the "package" root (and the "root" of receipts@1) resolves; defaults to this tool's own
   * package root (receipts@1: the root they record). Files under it may be hashed.
   */
  rootDir?: string;
  /** Named roots located by the user (`--root NAME=DIR`); files under them may be hashed. */
  roots?: Record<string, string>;
  /** Where a root is looked for when neither --root nor its recorded location has it (e.g. "schemas": MCP_SCHEMAS_DIR). Grants no access. */
  fallbackRoots?: Record<string, string[]>;
  /** The Ed25519 public key receipts.json must be signed with (`--key PUB`). */
  publicKey?: KeyObject;
  /**
   * Folders, besides the report folder, rootDir and this tool's own package folder, whose files may
   * be hashed. A receipt naming a file anywhere else is a mismatch and the file is not read.
   */
  allowDirs?: string[];
  /**
   * Check the report folder alone: its files against SHA256SUMS and the receipts' outputs, nothing
   * unlisted, the signature with a key; the inputs (recorded under other roots, perhaps on another
   * machine) are neither hashed nor reported as not checked. For `merge`, whose shards come from
   * elsewhere. @default false
   */
  outputsOnly?: boolean;
}

interface Expectation {
  /** As shown to the user. */
  path: string;
  absolute: string;
  sha256: string;
  /**
   * A named root found only where the receipts recorded it (or at a fallback), not given with
   * --root: a file there outside the readable folders is not checked (never a pass), with the hint.
   */
  foundRoot?: { name: string; dir: string };
}

/** What hashAllowedFile answers for a file outside every folder verify may read. */
const OUTSIDE_READABLE = "outside the folders verify may read (the report folder, --root, this tool's folder, --allow DIR); not hashed";

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

interface ParsedReceipts {
  expectations: Expectation[];
  notChecked: VerifyNotChecked[];
  /** Whether the receipts say they are signed. */
  signed: boolean;
}

function parseReceipts(text: string, dir: string, options: VerifyOptions, mismatches: VerifyMismatch[]): ParsedReceipts {
  const parsed: ParsedReceipts = { expectations: [], notChecked: [], signed: false };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    mismatches.push({ path: RECEIPTS_FILE, expected: 'valid JSON', actual: 'unparseable' });
    return parsed;
  }
  const record = (typeof json === 'object' && json !== null ? json : {}) as { root?: unknown; roots?: unknown; inputs?: unknown; outputs?: unknown; signature?: unknown };
  parsed.signed = record.signature !== undefined;
  // receipts@1 recorded one absolute root for `base: "root"` paths.
  const legacyRoot = options.roots?.['root'] ?? options.rootDir ?? (typeof record.root === 'string' ? record.root : process.cwd());
  const locateRoot = createRootLocator(record.roots, options);
  // A report without inputs proves nothing about what produced it.
  if (!Array.isArray(record.inputs) || record.inputs.length === 0) {
    mismatches.push({ path: RECEIPTS_FILE, expected: 'at least one input (case files, schemas, runner code)', actual: 'no inputs listed' });
  }
  const entries = [record.inputs, record.outputs].flatMap((list) => (Array.isArray(list) ? (list as unknown[]) : []));
  for (const entry of entries) {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as { path?: unknown; base?: unknown; sha256?: unknown };
    if (typeof e.path !== 'string' || typeof e.sha256 !== 'string') {
      mismatches.push({ path: RECEIPTS_FILE, expected: 'entries with path and sha256', actual: String(JSON.stringify(entry)).slice(0, 80) });
      continue;
    }
    const sha256 = e.sha256.toLowerCase();
    if (e.base === REPORT_ROOT) parsed.expectations.push({ path: e.path, absolute: resolve(dir, e.path), sha256 });
    else if (options.outputsOnly) continue;
    else if (e.base === 'root') parsed.expectations.push({ path: e.path, absolute: isAbsolute(e.path) ? resolve(e.path) : resolve(legacyRoot, e.path), sha256 });
    else if (typeof e.base !== 'string' || e.base === ABSOLUTE_BASE) parsed.expectations.push({ path: e.path, absolute: resolve(e.path), sha256 });
    else {
      const root = locateRoot(e.base);
      const shown = `${e.base}:${e.path}`;
      const given = e.base === 'package' || (options.roots !== undefined && Object.hasOwn(options.roots, e.base));
      if ('dir' in root) parsed.expectations.push({ path: shown, absolute: resolve(root.dir, e.path), sha256, ...(given ? {} : { foundRoot: { name: e.base, dir: root.dir } }) });
      else parsed.notChecked.push({ path: shown, root: e.base, reason: root.reason });
    }
  }
  return parsed;
}

/** Every entry of the report folder (not following links), relative with `/`; no folder is opened once `maxEntries` are found. */
export async function listReportEntries(reportDir: string, maxEntries = MAX_REPORT_ENTRIES): Promise<string[]> {
  const found: string[] = [];
  const pending = [''];
  while (pending.length > 0 && found.length < maxEntries) {
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
  const parsed = receipts === undefined ? undefined : parseReceipts(receipts, reportDir, options, mismatches);
  const expectations = [...(sums === undefined ? [] : parseSums(sums, reportDir, mismatches)), ...(parsed?.expectations ?? [])];
  const signature = options.publicKey === undefined ? undefined : await checkReceiptsSignature(reportDir, options.publicKey, mismatches);

  // Every file in the report folder is listed: an added file is as much a change as an edited one.
  const listed = new Set(expectations.map((e) => relativeInside(reportDir, e.absolute)));
  for (const path of await listReportEntries(reportDir)) {
    if (path === SUMS_FILE || path === RECEIPTS_FILE || path.startsWith(OWN_DOT_FILE_PREFIX) || listed.has(path)) continue;
    mismatches.push({ path, expected: `absent (listed in neither ${RECEIPTS_FILE} nor ${SUMS_FILE})`, actual: 'present, unlisted' });
  }

  const allowed = await resolveAllowedDirs(options.outputsOnly ? [reportDir] : [reportDir, ...(options.rootDir ? [options.rootDir] : []), ...Object.values(options.roots ?? {}), getPackageRoot(), ...(options.allowDirs ?? [])]);
  // The same file usually appears in both lists; hash it once, compare against each distinct claim.
  const unique = new Map<string, Expectation>();
  for (const e of expectations) unique.set(`${e.absolute}\0${e.sha256}`, e);
  const files = [...new Set([...unique.values()].map((e) => e.absolute))];
  const digests = await mapWithLimit(files, HASH_CONCURRENCY, (absolute) => hashAllowedFile(absolute, allowed));
  const hashes = new Map(files.map((absolute, index) => [absolute, digests[index]!]));
  const notChecked = [...(parsed?.notChecked ?? [])];
  for (const e of unique.values()) {
    const actual = hashes.get(e.absolute)!;
    // A moved report whose recorded input is still where the run left it, outside what verify may read.
    if (actual === OUTSIDE_READABLE && e.foundRoot !== undefined) {
      const { name, dir: at } = e.foundRoot;
      notChecked.push({ path: e.path, root: name, reason: `root "${name}" is at ${at.slice(0, 200)}, outside the folders verify may read; pass --root ${name}=DIR (or --allow DIR) to check it` });
    } else if (actual !== e.sha256) mismatches.push({ path: e.path, expected: e.sha256, actual });
  }
  return {
    ok: mismatches.length === 0 && notChecked.length === 0,
    checked: unique.size,
    mismatches,
    ...(notChecked.length > 0 ? { notChecked } : {}),
    ...(signature === 'valid' ? { signature } : parsed?.signed && options.publicKey === undefined ? { signature: 'unchecked' as const } : {}),
  };
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
  if (!allowed.some((dir) => real === dir || relativeInside(dir, real) !== undefined)) return OUTSIDE_READABLE;
  try {
    return (await hashFile(real)).sha256;
  } catch (error) {
    if (error instanceof UserFileError) return error.problem === 'missing' ? 'missing' : `${error.detail}; not hashed`;
    return `unreadable (${(error as Error).message})`;
  }
}
