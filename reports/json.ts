// results.json: the whole result model, versioned (`format`), described by schemas/results.schema.json.
// Written cell by cell: the whole document of a 100,000-cell run is hundreds of megabytes.
import type { RunResult } from '../runner/types.js';
import { redactCell } from './redact-result.js';
import { listResultKeys, toReportSource, type ReportSource } from './report-source.js';

/** Above this many cells results.json is written without indentation (half the size, faster). */
export const COMPACT_JSON_CELLS = 10_000;

export interface JsonOptions {
  /** Pretty-print with this indentation. @default 2, or 0 above COMPACT_JSON_CELLS cells */
  indent?: number;
}

/** Serialises the run result, wire and target text redacted. */
export function render(result: RunResult | ReportSource, options: JsonOptions = {}): string {
  return [...renderChunks(result, options)].join('');
}

/**
 * The same text as `render`, in chunks (one per cell): byte for byte what
 * `JSON.stringify(redacted, null, indent)` gives, without ever holding it whole. Cells are
 * redacted one by one as they are written, never as a redacted copy of the run.
 */
export function* renderChunks(input: RunResult | ReportSource, options: JsonOptions = {}): Generator<string> {
  const source = toReportSource(input);
  const head = source.head as Partial<Record<string, unknown>>;
  const indent = options.indent ?? (source.cellCount > COMPACT_JSON_CELLS ? 0 : 2);
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
      yield escapeRawControls(nest(JSON.stringify(head[key], null, indent), 1));
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
