// Receipts: the SHA-256 of every input and output file, computed from the bytes on disk
// (streamed, never re-serialised), as receipts.json plus a SHA256SUMS that `sha256sum -c` accepts.
// Inputs are recorded relative to named roots (the package, the user's --cases, a classifier's
// folder…) so a report verifies on another machine with `verify --root NAME=DIR`; receipts also
// say what ran (tool version and commit, Node, target packages). They prove the files are unchanged
// since the run and which inputs produced them, not who produced them (unless signed).
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { HASHED_FILE_MAX_BYTES } from '../../runner/io/input-caps.js';
import { forEachUserFileChunk, forEachUserFileChunkSync, UserFileError } from '../../runner/io/read-user-file.js';

export const RECEIPTS_FILE = 'receipts.json';
export const SUMS_FILE = 'SHA256SUMS';
export const RECEIPTS_FORMAT = 'mcp-error-matrix/receipts@2';
/** The detached Ed25519 signature of receipts.json (base64), written with `run --sign KEY`. */
export const SIGNATURE_FILE = 'receipts.json.sig';

/** The root every output and every input inside the report folder is relative to; its location is the folder itself. */
export const REPORT_ROOT = 'report';
/** The `base` of a path recorded as it is (an input outside every named root). */
export const ABSOLUTE_BASE = 'absolute';

export interface ReceiptInput {
  /** What the file is: `case`, `schema`, `baseline`, `runner`, `target`, … */
  kind: string;
  path: string;
  /** A human label, e.g. a target's name and resolved package version. */
  label?: string;
  /** The named root this input belongs to (a key of `roots`), when it lies inside it. */
  root?: string;
}

/** A folder inputs are recorded relative to, under a name `verify --root NAME=DIR` can relocate. */
export interface ReceiptRootOption {
  dir: string;
  /** What the folder is, for the reader and for verify's "not checked" lines. */
  what: string;
  /** Record `dir` as a hint (default true). The package root is located by the verifying tool instead. */
  recordLocation?: boolean;
}

export interface ReceiptsOptions {
  inputs: ReceiptInput[];
  /** Output files (absolute, or relative to outDir); they must lie inside outDir. */
  outputs: string[];
  /** Digests of outputs already known (hashed while written), keyed as in `outputs`; the rest are read. */
  outputDigests?: ReadonlyMap<string, { sha256: string; bytes: number }>;
  outDir: string;
  /**
   * Named folders inputs are recorded relative to, so a report verifies on another machine:
   * an input goes under its own `root`, else the first root holding it, else it is absolute.
   */
  roots?: Record<string, ReceiptRootOption>;
  /** What ran (tool, commit, Node, targets), recorded as given. */
  ran?: RunProvenance;
  /** Signs receipts.json's bytes (see sign-receipts.ts); the signature is written as SIGNATURE_FILE. */
  signer?: ReceiptsSigner;
}

export interface ReceiptsSigner {
  /** SHA-256 of the public key (SPKI DER), recorded so a reader knows which key to ask for. */
  publicKeySha256: string;
  sign(data: Buffer): string;
}

export interface TargetProvenance {
  name: string;
  kind: string;
  version?: string;
  /** The npm package the target ran from, as installed. */
  package?: { name: string; version: string; integrity?: string; integrityFrom?: string };
}

export interface RunProvenance {
  tool: { name: string; version: string; commit?: string };
  node: string;
  platform: string;
  targets: TargetProvenance[];
}

export interface FileReceipt {
  /** Relative (with `/`) to the named root in `base`, or absolute when `base` is "absolute". */
  path: string;
  /** "report" (the report folder), a name in `roots`, or "absolute"; receipts@1 also used "root". */
  base: string;
  sha256: string;
  bytes: number;
}

export interface ReceiptRoot {
  what: string;
  /** Where the folder was when the report was made (a hint: verify reads it only if allowed). */
  at?: string;
}

export interface Receipts {
  format: typeof RECEIPTS_FORMAT;
  algorithm: 'sha256';
  /** What ran: tool version and commit, Node, each target's package. */
  ran?: RunProvenance;
  /** The named roots `base` refers to, besides "report". */
  roots: Record<string, ReceiptRoot>;
  inputs: (FileReceipt & { kind: string; label?: string })[];
  outputs: FileReceipt[];
  /** Present when SIGNATURE_FILE holds an Ed25519 signature of this file's bytes. */
  signature?: { algorithm: 'ed25519'; file: typeof SIGNATURE_FILE; publicKeySha256: string };
}

export interface ReceiptsResult {
  receipts: Receipts;
  /** receipts.json exactly as it must be written (SHA256SUMS covers these bytes). */
  receiptsJson: string;
  /** SHA256SUMS text: every file inside the report dir, receipts.json (and its signature) included. */
  sha256sums: string;
  /** The base64 signature of receiptsJson, when a signer was given. */
  signature?: string;
}

/**
 * SHA-256 of a file's bytes; only a regular file up to HASHED_FILE_MAX_BYTES is read (a FIFO or
 * /dev/zero throws UserFileError at once instead of hanging or spinning). A file up to
 * SYNC_HASH_MAX_BYTES (most inputs: a run hashes hundreds of small source files) is read
 * synchronously, sparing a thread-pool round trip per open, stat, read and close; a larger one is
 * streamed, so the event loop is never held for long.
 */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const small = createHash('sha256');
  try {
    const bytes = forEachUserFileChunkSync(path, { maxBytes: SYNC_HASH_MAX_BYTES, what: 'file' }, (chunk) => small.update(chunk));
    return { sha256: small.digest('hex'), bytes };
  } catch (error) {
    if (!(error instanceof UserFileError && error.problem === 'too-large')) throw error;
  }
  // Larger than the synchronous bound (or a file of unknown size, such as under /proc, that is): streamed, from the start.
  const hash = createHash('sha256');
  const bytes = await forEachUserFileChunk(path, { maxBytes: HASHED_FILE_MAX_BYTES, what: 'file' }, (chunk) => hash.update(chunk));
  return { sha256: hash.digest('hex'), bytes };
}

/** Files up to this size are hashed without leaving the event loop (see hashFile). */
export const SYNC_HASH_MAX_BYTES = 1024 * 1024;

function toPosix(path: string): string {
  // On POSIX `sep` is '/' and this leaves the path as it is.
  return path.split(sep).join('/');
}

/** A path relative to `dir` when it lies inside it, else undefined. */
export function relativeInside(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? toPosix(rel) : undefined;
}

// A quick necessary test before path.relative (a run locates hundreds of inputs against each
// root): on POSIX a resolved path inside a resolved folder starts with the folder's text. Windows
// compares paths case-insensitively, so there every path goes to relativeInside.
function mayHold(dir: string, path: string): boolean {
  return sep !== '/' || path.startsWith(dir);
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
  const results: R[] = [];
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
  const roots = Object.entries(options.roots ?? {}).map(([name, root]) => ({ name, ...root, dir: resolve(root.dir) }));
  const used = new Set<string>();

  const locate = (path: string, rootName?: string): Pick<FileReceipt, 'path' | 'base'> => {
    const absolute = resolve(outDir, path);
    const inReport = mayHold(outDir, absolute) ? relativeInside(outDir, absolute) : undefined;
    if (inReport) return { path: inReport, base: REPORT_ROOT };
    const own = roots.find((root) => root.name === rootName);
    for (const root of own ? [own, ...roots] : roots) {
      const inRoot = mayHold(root.dir, absolute) ? relativeInside(root.dir, absolute) : undefined;
      if (inRoot === undefined) continue;
      used.add(root.name);
      return { path: inRoot, base: root.name };
    }
    return { path: absolute, base: ABSOLUTE_BASE };
  };

  const inputs = await mapWithLimit(options.inputs, HASH_CONCURRENCY, async (input) => {
    const where = locate(resolve(input.path), input.root);
    return { kind: input.kind, ...(input.label === undefined ? {} : { label: input.label }), ...where, ...(await hashFile(resolve(input.path))) };
  });
  const outputs = await mapWithLimit(options.outputs, HASH_CONCURRENCY, async (output) => {
    const absolute = resolve(outDir, output);
    const where = locate(absolute);
    if (where.base !== REPORT_ROOT) throw new Error(`receipts: output ${output} is not inside the report directory ${outDir}`);
    return { ...where, ...(options.outputDigests?.get(output) ?? (await hashFile(absolute))) };
  });

  const receipts: Receipts = {
    format: RECEIPTS_FORMAT,
    algorithm: 'sha256',
    ...(options.ran ? { ran: options.ran } : {}),
    roots: Object.fromEntries(
      roots.filter((root) => used.has(root.name)).map((root) => [root.name, { what: root.what, ...(root.recordLocation === false ? {} : { at: root.dir }) }]),
    ),
    inputs,
    outputs,
    ...(options.signer ? { signature: { algorithm: 'ed25519', file: SIGNATURE_FILE, publicKeySha256: options.signer.publicKeySha256 } } : {}),
  };
  const receiptsJson = `${JSON.stringify(receipts, null, 2)}\n`;
  const signature = options.signer ? `${options.signer.sign(Buffer.from(receiptsJson))}\n` : undefined;
  const lines = new Map<string, string>();
  for (const file of [...inputs, ...outputs]) if (file.base === REPORT_ROOT && isSumsSafe(file.path)) lines.set(file.path, file.sha256);
  lines.set(RECEIPTS_FILE, createHash('sha256').update(receiptsJson).digest('hex'));
  if (signature !== undefined) lines.set(SIGNATURE_FILE, createHash('sha256').update(signature).digest('hex'));
  // The names are Map keys, so never equal.
  const sha256sums = [...lines].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, sha]) => `${sha}  ${path}\n`).join('');
  return { receipts, receiptsJson, sha256sums, ...(signature === undefined ? {} : { signature }) };
}
