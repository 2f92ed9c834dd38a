// results.full.json.gz: the whole result model (format results@1, schemas/results.schema.json),
// with every check, schema result, wire recording, target output and repro line, redacted, as
// compact JSON compressed with gzip. results.json (json.ts, results@2) is its light index: the
// verdicts and failed checks, small enough to read by eye. The JSON is written cell by cell and
// compressed in batches (one gzip member each, which every gunzip reads as one stream), so a
// 100,000-cell run is never held whole, neither as text nor as bytes.
import { gzipSync } from 'node:zlib';
import type { RunResult } from '../../runner/vocabulary/types.js';
import { redactCell } from '../redaction/index.js';
import { listResultKeys, toReportSource, type ReportSource } from '../model/index.js';

/** The file beside results.json that holds the whole result model. */
export const FULL_RESULTS_FILE = 'results.full.json.gz';
/** Its format: the results.json format of earlier versions, which readers still accept as results.json. */
export const FULL_RESULTS_FORMAT = 'mcp-error-matrix/results@1';

export interface FullJsonOptions {
  /** Pretty-print with this indentation. @default 0 (the file is compressed; `zcat FILE | jq` indents it) */
  indent?: number;
}

// Bytes gathered per gzip member: large enough that a member costs nothing in ratio (deflate's
// window is 32 KiB), small enough to keep memory bounded.
const GZIP_BATCH_BYTES = 1 << 20;

/** The whole result as JSON text (uncompressed), wire and target text redacted. */
export function renderFull(result: RunResult | ReportSource, options: FullJsonOptions = {}): string {
  return [...renderFullChunks(result, options)].join('');
}

/**
 * The same text as `renderFull`, in chunks (one per cell): byte for byte what
 * `JSON.stringify(redacted, null, indent)` gives, without ever holding it whole. Cells are
 * redacted one by one as they are written, never as a redacted copy of the run.
 */
export function* renderFullChunks(input: RunResult | ReportSource, options: FullJsonOptions = {}): Generator<string> {
  const source = toReportSource(input);
  const head = source.head as Partial<Record<string, unknown>>;
  const indent = options.indent ?? 0;
  const pad = ' '.repeat(indent);
  const nl = indent ? '\n' : '';
  const colon = indent ? ': ' : ':';
  // JSON text has no raw newline inside strings, so nesting one level deeper is a replace.
  const nest = (text: string, depth: number) => (indent ? text.replace(/\n/g, `\n${pad.repeat(depth)}`) : text);
  const keys = listResultKeys(source.head).filter((key) => key === 'cells' || (head[key] !== undefined && typeof head[key] !== 'function'));
  yield '{';
  for (const [position, key] of keys.entries()) {
    yield `${position ? ',' : ''}${nl}${pad}${JSON.stringify(key)}${colon}`;
    if (key !== 'cells') {
      yield* stringifyChunks(key === 'format' ? FULL_RESULTS_FORMAT : head[key], indent, 1);
      continue;
    }
    if (source.cellCount === 0) {
      yield '[]';
      continue;
    }
    yield '[';
    let i = 0;
    for (const cell of source.cells()) {
      yield `${i++ ? ',' : ''}${nl}${pad}${pad}${escapeRawControls(nest(JSON.stringify(redactCell(cell), null, indent), 2))}`;
    }
    yield `${nl}${pad}]`;
  }
  yield `${keys.length ? nl : ''}}\n`;
}

/**
 * `JSON.stringify(value, null, indent)` nested `depth` levels deep, raw controls escaped, in
 * chunks: an array is written an element at a time. A run's `cases` is an array of every case
 * it ran (68 MB of JSON at 100,000 cases): as one string, nested and escaped, it held three
 * copies of itself at once (issue 28's 100,000-case run peaked there).
 */
export function* stringifyChunks(value: unknown, indent: number, depth: number): Generator<string> {
  const pad = ' '.repeat(indent);
  const nest = (text: string, levels: number) => (indent ? text.replace(/\n/g, `\n${pad.repeat(levels)}`) : text);
  if (!Array.isArray(value) || value.length === 0) {
    yield escapeRawControls(nest(JSON.stringify(value, null, indent), depth));
    return;
  }
  const nl = indent ? `\n${pad.repeat(depth + 1)}` : '';
  let text = '[';
  for (const [i, element] of value.entries()) {
    // An element JSON has no text for (undefined, a function) is written as null, as JSON.stringify does.
    text += `${i ? ',' : ''}${nl}${escapeRawControls(nest(JSON.stringify(element, null, indent) ?? 'null', depth + 1))}`;
    if (text.length >= 1 << 16) {
      yield text;
      text = '';
    }
  }
  yield `${text}${indent ? `\n${pad.repeat(depth)}` : ''}]`;
}

/**
 * Text chunks as gzip bytes: one member per batch of about a mebibyte of text. Chunks are
 * encoded straight into one reused buffer (joining them into a string first, then encoding it,
 * cost more than compressing it).
 */
export function* gzipChunks(chunks: Iterable<string>, batchBytes = GZIP_BATCH_BYTES, level = 6): Generator<Buffer> {
  let buffer = Buffer.allocUnsafe(batchBytes);
  let used = 0;
  for (const chunk of chunks) {
    // A UTF-16 code unit is at most 3 UTF-8 bytes, so this bound never truncates.
    const most = chunk.length * 3;
    if (used > 0 && used + most > buffer.length) {
      yield gzipSync(buffer.subarray(0, used), { level });
      used = 0;
    }
    if (most > buffer.length) buffer = Buffer.allocUnsafe(most);
    used += buffer.write(chunk, used);
  }
  if (used > 0) yield gzipSync(buffer.subarray(0, used), { level });
}

/**
 * Above this many cells the evidence is compressed at level 3 instead of 6: at 100,000 cells about
 * five times less CPU (0.2 against 1.2 s) for twice the bytes (4.7 against 2.3 MB, of 176 MB).
 */
export const FAST_GZIP_CELLS = 10_000;

/** results.full.json.gz's bytes, in gzip members. */
export function renderFullGzipChunks(input: RunResult | ReportSource): Generator<Buffer> {
  const source = toReportSource(input);
  return gzipChunks(renderFullChunks(source), GZIP_BATCH_BYTES, source.cellCount > FAST_GZIP_CELLS ? 3 : 6);
}

// JSON.stringify escapes C0 controls and lone surrogates but writes DEL, the C1 controls (U+009B,
// the 8-bit CSI, among them) and U+2028/U+2029 raw: a terminal or an old JavaScript reader
// shown the file would act on them. They can only occur inside strings, so a \u escape keeps
// the data exactly.
const RAW_CONTROL = /[\u007f-\u009f\u2028\u2029]/g;

export function escapeRawControls(json: string): string {
  RAW_CONTROL.lastIndex = 0;
  if (!RAW_CONTROL.test(json)) return json;
  return json.replace(RAW_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
