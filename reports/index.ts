// The report formats, keyed by name, each a pure render(result) plus its file name.
import type { RunResult } from '../runner/types.js';
import type { Comparison } from './compare-types.js';
import { render as renderHtml } from './html.js';
import { render as renderJson } from './json.js';
import { render as renderJunit } from './junit.js';
import { render as renderMarkdown } from './markdown.js';
import { render as renderTap } from './tap.js';

export interface RenderContext {
  /** Regressions and fixes against a previous run, for the formats that show them. */
  comparison?: Comparison;
}

export interface ReportFormat {
  file: string;
  render(result: RunResult, context: RenderContext): string;
}

export const REPORT_FORMATS = {
  tap: { file: 'results.tap', render: (result) => renderTap(result) },
  json: { file: 'results.json', render: (result) => renderJson(result) },
  junit: { file: 'results.junit.xml', render: (result) => renderJunit(result) },
  markdown: { file: 'summary.md', render: (result, { comparison }) => renderMarkdown(result, comparison ? { comparison } : {}) },
  html: { file: 'matrix.html', render: (result, { comparison }) => renderHtml(result, comparison ? { comparison } : {}) },
} satisfies Record<string, ReportFormat>;

export type ReportFormatName = keyof typeof REPORT_FORMATS;

/** Renders every format. */
export function renderReports(result: RunResult, context: RenderContext = {}): { name: string; content: string }[] {
  return Object.values(REPORT_FORMATS).map((format) => ({ name: format.file, content: format.render(result, context) }));
}
