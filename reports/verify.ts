// `verify <report dir>`: recompute every hash recorded in receipts.json and SHA256SUMS and
// list what no longer matches. A tampered receipts.json is caught by SHA256SUMS, which covers it.
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { RECEIPTS_FILE, SUMS_FILE, hashFile } from './receipts.js';

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
  /** Where `base: "root"` paths resolve; defaults to the root recorded in receipts.json. */
  rootDir?: string;
}

interface Expectation {
  /** As shown to the user. */
  path: string;
  absolute: string;
  sha256: string;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
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
  const record = parsed as { root?: unknown; inputs?: unknown; outputs?: unknown };
  const root = rootDir ?? (typeof record.root === 'string' ? record.root : process.cwd());
  const entries = [record.inputs, record.outputs].flatMap((list) => (Array.isArray(list) ? (list as unknown[]) : []));
  const out: Expectation[] = [];
  for (const entry of entries) {
    const e = entry as { path?: unknown; base?: unknown; sha256?: unknown };
    if (typeof e.path !== 'string' || typeof e.sha256 !== 'string') {
      mismatches.push({ path: RECEIPTS_FILE, expected: 'entries with path and sha256', actual: JSON.stringify(entry).slice(0, 80) });
      continue;
    }
    const absolute = e.base === 'report' ? resolve(dir, e.path) : e.base === 'root' && !isAbsolute(e.path) ? resolve(root, e.path) : resolve(e.path);
    out.push({ path: e.path, absolute, sha256: e.sha256.toLowerCase() });
  }
  return out;
}

/** Recompute every input and output hash recorded in a report directory. */
export async function verifyReport(dir: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const reportDir = resolve(dir);
  const mismatches: VerifyMismatch[] = [];
  const sums = await readOptional(resolve(reportDir, SUMS_FILE));
  const receipts = await readOptional(resolve(reportDir, RECEIPTS_FILE));
  if (sums === undefined) mismatches.push({ path: SUMS_FILE, expected: 'present', actual: 'missing' });
  if (receipts === undefined) mismatches.push({ path: RECEIPTS_FILE, expected: 'present', actual: 'missing' });
  const expectations = [
    ...(sums === undefined ? [] : parseSums(sums, reportDir, mismatches)),
    ...(receipts === undefined ? [] : parseReceipts(receipts, reportDir, options.rootDir, mismatches)),
  ];

  // The same file usually appears in both lists; hash it once, compare against each distinct claim.
  const unique = new Map<string, Expectation>();
  for (const e of expectations) unique.set(`${e.absolute}\0${e.sha256}`, e);
  const hashes = new Map<string, Promise<string | 'missing'>>();
  const hashOf = (absolute: string) => {
    let pending = hashes.get(absolute);
    if (!pending) {
      pending = hashFile(absolute).then(
        (h) => h.sha256,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT' || error.code === 'EISDIR') return 'missing' as const;
          throw error;
        },
      );
      hashes.set(absolute, pending);
    }
    return pending;
  };
  for (const e of unique.values()) {
    const actual = await hashOf(e.absolute);
    if (actual !== e.sha256) mismatches.push({ path: e.path, expected: e.sha256, actual });
  }
  return { ok: mismatches.length === 0, checked: unique.size, mismatches };
}
