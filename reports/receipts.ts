// Receipts: the SHA-256 of every input and output file, computed from the bytes on disk
// (streamed, never re-serialised), as receipts.json plus a SHA256SUMS that `sha256sum -c` accepts.
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { HASHED_FILE_MAX_BYTES } from '../runner/io/input-caps.js';
import { forEachUserFileChunk } from '../runner/io/read-user-file.js';

export const RECEIPTS_FILE = 'receipts.json';
export const SUMS_FILE = 'SHA256SUMS';
export const RECEIPTS_FORMAT = 'mcp-error-matrix/receipts@1';

export interface ReceiptInput {
  /** What the file is: `case`, `schema`, `baseline`, `runner`, `target`, … */
  kind: string;
  path: string;
  /** A human label, e.g. a target's name and resolved package version. */
  label?: string;
}

export interface ReceiptsOptions {
  inputs: ReceiptInput[];
  /** Output files (absolute, or relative to outDir); they must lie inside outDir. */
  outputs: string[];
  /** Digests of outputs already known (hashed while written), keyed as in `outputs`; the rest are read. */
  outputDigests?: ReadonlyMap<string, { sha256: string; bytes: number }>;
  outDir: string;
  /**
   * Inputs outside outDir are recorded relative to this directory (e.g. the repository root)
   * so a report can be verified on another machine; absolute when unset.
   */
  rootDir?: string;
}

export interface FileReceipt {
  /** Relative to the report dir (with `/`), relative to `root`, or absolute. */
  path: string;
  /** Where `path` is anchored. */
  base: 'report' | 'root' | 'absolute';
  sha256: string;
  bytes: number;
}

export interface Receipts {
  format: typeof RECEIPTS_FORMAT;
  algorithm: 'sha256';
  /** The absolute directory `base: "root"` paths were taken relative to, when any. */
  root?: string;
  inputs: (FileReceipt & { kind: string; label?: string })[];
  outputs: FileReceipt[];
}

export interface ReceiptsResult {
  receipts: Receipts;
  /** receipts.json exactly as it must be written (SHA256SUMS covers these bytes). */
  receiptsJson: string;
  /** SHA256SUMS text: every file inside the report dir, receipts.json included. */
  sha256sums: string;
}

/**
 * SHA-256 of a file's bytes, streamed; only a regular file up to HASHED_FILE_MAX_BYTES is read
 * (a FIFO or /dev/zero throws UserFileError at once instead of hanging or spinning).
 */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const bytes = await forEachUserFileChunk(path, { maxBytes: HASHED_FILE_MAX_BYTES, what: 'file' }, (chunk) => hash.update(chunk));
  return { sha256: hash.digest('hex'), bytes };
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A path relative to `dir` when it lies inside it, else undefined. */
export function relativeInside(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? toPosix(rel) : undefined;
}

// sha256sum -c reads names verbatim after two spaces; a newline or backslash in a name would need
// its escaped form, so such names stay in receipts.json only.
function isSumsSafe(path: string): boolean {
  return !/[\n\r\\]/.test(path);
}

// Files hashed at once. Each open read stream holds a 64 KiB buffer: hashing a run's few hundred
// inputs all at once held ~25 MB of them and set the default run's peak RSS.
export const HASH_CONCURRENCY = 8;

/** Like Promise.all over items.map(work), with at most `limit` pending at a time; order is kept. */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Hash every input and output; return receipts.json (object and exact text) and SHA256SUMS. */
export async function createReceipts(options: ReceiptsOptions): Promise<ReceiptsResult> {
  const outDir = resolve(options.outDir);
  const rootDir = options.rootDir === undefined ? undefined : resolve(options.rootDir);

  const locate = (path: string): Pick<FileReceipt, 'path' | 'base'> => {
    const absolute = resolve(outDir, path);
    const inReport = relativeInside(outDir, absolute);
    if (inReport) return { path: inReport, base: 'report' };
    const inRoot = rootDir === undefined ? undefined : relativeInside(rootDir, absolute);
    return inRoot ? { path: inRoot, base: 'root' } : { path: absolute, base: 'absolute' };
  };

  const inputs = await mapWithLimit(options.inputs, HASH_CONCURRENCY, async (input) => {
    const where = locate(resolve(input.path));
    return { kind: input.kind, ...(input.label === undefined ? {} : { label: input.label }), ...where, ...(await hashFile(resolve(input.path))) };
  });
  const outputs = await mapWithLimit(options.outputs, HASH_CONCURRENCY, async (output) => {
    const absolute = resolve(outDir, output);
    const where = locate(absolute);
    if (where.base !== 'report') throw new Error(`receipts: output ${output} is not inside the report directory ${outDir}`);
    return { ...where, ...(options.outputDigests?.get(output) ?? (await hashFile(absolute))) };
  });

  const receipts: Receipts = {
    format: RECEIPTS_FORMAT,
    algorithm: 'sha256',
    ...(inputs.some((i) => i.base === 'root') ? { root: rootDir } : {}),
    inputs,
    outputs,
  };
  const receiptsJson = `${JSON.stringify(receipts, null, 2)}\n`;
  const lines = new Map<string, string>();
  for (const file of [...inputs, ...outputs]) if (file.base === 'report' && isSumsSafe(file.path)) lines.set(file.path, file.sha256);
  lines.set(RECEIPTS_FILE, createHash('sha256').update(receiptsJson).digest('hex'));
  const sha256sums = [...lines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, sha]) => `${sha}  ${path}\n`).join('');
  return { receipts, receiptsJson, sha256sums };
}
