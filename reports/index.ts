// The report formats, keyed by name, each a pure render(result) plus its file name; the large
// formats also render in chunks, so writing a big run never holds a whole file in memory, and
// read the cells from a ReportSource, so a source that makes its cells on demand is never held
// whole either.
import { UsageError } from '../runner/util/errors.js';
import type { RunResult } from '../runner/vocabulary/types.js';
import type { Comparison } from './model/index.js';
import { renderHtml, renderHtmlChunks } from './html/index.js';
import { renderJson, renderJsonChunks } from './formats/index.js';
import { FULL_RESULTS_FILE, renderFullGzipChunks } from './formats/index.js';
import { renderJunit, renderJunitChunks } from './formats/index.js';
import { renderMarkdown } from './formats/index.js';
import { toReportSource, type ReportSource } from './model/index.js';
import { renderSummaryJson } from './formats/index.js';
import { renderTap, renderTapChunks } from './formats/index.js';

export interface RenderContext {
  /** Regressions and fixes against a previous run, for the formats that show them. */
  comparison?: Comparison;
}

export interface ReportFormat {
  file: string;
  render(result: RunResult, context: RenderContext): string;
  /** The same text as `render`, produced lazily in pieces. */
  chunks(source: RunResult | ReportSource, context: RenderContext): Iterable<string>;
}

export const REPORT_FORMATS = {
  tap: { file: 'results.tap', render: (result) => renderTap(result), chunks: (result) => renderTapChunks(result) },
  json: { file: 'results.json', render: (result) => renderJson(result), chunks: (result) => renderJsonChunks(result) },
  junit: { file: 'results.junit.xml', render: (result) => renderJunit(result), chunks: (result) => renderJunitChunks(result) },
  markdown: {
    file: 'summary.md',
    render: (result, { comparison }) => renderMarkdown(result, comparison ? { comparison } : {}),
    chunks: (source, { comparison }) => [renderMarkdown(source, comparison ? { comparison } : {})],
  },
  summary: {
    file: 'summary.json',
    render: (result, { comparison }) => renderSummaryJson(result, comparison ? { comparison } : {}),
    chunks: (source, { comparison }) => [renderSummaryJson(source, comparison ? { comparison } : {})],
  },
  html: {
    file: 'matrix.html',
    render: (result, { comparison }) => renderHtml(result, comparison ? { comparison } : {}),
    chunks: (source, { comparison }) => renderHtmlChunks(source, comparison ? { comparison } : {}),
  },
} satisfies Record<string, ReportFormat>;

export type ReportFormatName = keyof typeof REPORT_FORMATS;

/** Every format, in the order they are written. */
export const REPORT_FORMAT_NAMES = Object.keys(REPORT_FORMATS) as ReportFormatName[];

/** Renders every format. */
export function renderReports(result: RunResult, context: RenderContext = {}): { name: string; content: string }[] {
  return Object.values(REPORT_FORMATS).map((format) => ({ name: format.file, content: format.render(result, context) }));
}

/**
 * Every format as lazily rendered chunks (results.json brings results.full.json.gz, its evidence): nothing is rendered until the file is written, and
 * formats are rendered one after another, so only one is in memory at a time.
 */
export function renderReportChunks(
  input: RunResult | ReportSource,
  context: RenderContext = {},
  formats: readonly ReportFormatName[] = REPORT_FORMAT_NAMES,
): { name: string; content: Iterable<string | Uint8Array> }[] {
  const source = toReportSource(input);
  return formats.flatMap((name) => {
    if (!Object.hasOwn(REPORT_FORMATS, name)) throw new UsageError(`unknown report format "${String(name)}" in formats: use ${REPORT_FORMAT_NAMES.join(', ')}`);
    const format: ReportFormat = REPORT_FORMATS[name];
    const file = { name: format.file, content: { [Symbol.iterator]: () => format.chunks(source, context)[Symbol.iterator]() } };
    // results.json names its evidence file, so they are written together (json-full.ts).
    if (name !== 'json') return [file];
    return [file, { name: FULL_RESULTS_FILE, content: { [Symbol.iterator]: () => renderFullGzipChunks(source)[Symbol.iterator]() } }];
  });
}
