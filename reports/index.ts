// The report formats, keyed by name, each a pure render(result) plus its file name.
import type { RunResult } from '../runner/types.js';
import { render as renderJson } from './json.js';
import { render as renderTap } from './tap.js';

export interface ReportFormat {
  file: string;
  render(result: RunResult): string;
}

export const REPORT_FORMATS = {
  tap: { file: 'results.tap', render: (result) => renderTap(result) },
  json: { file: 'results.json', render: (result) => renderJson(result) },
} satisfies Record<string, ReportFormat>;

export type ReportFormatName = keyof typeof REPORT_FORMATS;

/** Renders every format. */
export function renderReports(result: RunResult): { name: string; content: string }[] {
  return Object.values(REPORT_FORMATS).map((format) => ({ name: format.file, content: format.render(result) }));
}
