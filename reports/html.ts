// The self-contained HTML matrix: handlebars renders the view model; per-cell details travel
// as escaped JSON and are built on click. No external resource is referenced, and a CSP with
// the inline script's hash blocks any script that escaping might ever let through.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import type { RunResult } from '../runner/types.js';
import type { Comparison } from './compare-types.js';
import { buildDetails, serializeDetailsChunks } from './html-details.js';
import { buildMatrixViewModel, type MatrixCell } from './html-view-model.js';
import { buildTrendViews } from './trend-html.js';

export interface HtmlOptions {
  /** Marks regressions, fixes and added cells, and lists removed ones. */
  comparison?: Comparison;
  /**
   * Characters kept per request/response body and per SSE event in the transcript.
   * @default 16384, or 2048 above LARGE_RUN_CELLS cells
   */
  maxBodyChars?: number;
  /**
   * Characters kept from the end of the target's stderr and stdout.
   * @default 8192, or 1024 above LARGE_RUN_CELLS cells
   */
  maxOutputChars?: number;
}

interface Compiled {
  template: Handlebars.TemplateDelegate;
  css: string;
  trendCss: string;
  js: string;
  scriptHash: string;
}

let compiled: Compiled | undefined;

// Stands where the details JSON goes. Escaped text never contains `<`, so only the helper emits it.
const DETAILS_MARK = '<!--mcp-error-matrix:cell-data-->';

// From source the templates sit beside this file; from dist/reports/ they are in the
// package's reports/templates/ (package.json "files" ships that folder, not a copy in dist).
function readTemplateFile(name: string): string {
  const candidates = [new URL(`./templates/${name}`, import.meta.url), new URL(`../../reports/templates/${name}`, import.meta.url)];
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (!found) throw new Error(`HTML report template ${name} not found (looked in ${candidates.map((u) => fileURLToPath(u)).join(', ')})`);
  return readFileSync(found, 'utf8');
}

// Compile once per process: a run may render several reports, and tests render many.
function getCompiled(): Compiled {
  if (compiled) return compiled;
  const hbs = Handlebars.create();
  // The details JSON is streamed in after rendering (see renderChunks); the template marks its place.
  hbs.registerHelper('jsonScript', () => new hbs.SafeString(DETAILS_MARK));
  const js = readTemplateFile('matrix.client.js');
  hbs.registerPartial('trend', readTemplateFile('trend.hbs')); // a family of versions: templates/trend.hbs
  compiled = {
    template: hbs.compile(readTemplateFile('matrix.hbs'), { strict: false, preventIndent: true }),
    css: readTemplateFile('matrix.css'),
    trendCss: readTemplateFile('trend.css'),
    js,
    scriptHash: `sha256-${createHash('sha256').update(js).digest('base64')}`,
  };
  return compiled;
}

/** Above this many cells bodies and target output are cut shorter (a report must stay openable). */
export const LARGE_RUN_CELLS = 10_000;

// Marks a false success in the cell text itself, so it survives greyscale printing.
const FALSE_SUCCESS_ICON = '⚠';

// The matrix cells, the bulk of the markup, are written here rather than by a template loop
// (100,000 cells). Every interpolated value is an enum, a number, a fixed word or an outcome
// name, and is escaped anyway. The tooltip (the full expected → actual sentence) is set by
// matrix.client.js on hover from the details JSON, not carried per cell.
function renderCells(cells: readonly MatrixCell[]): string {
  const esc = Handlebars.escapeExpression;
  let out = '';
  for (const cell of cells) {
    out +=
      `<td class="s-${esc(cell.status)} t${cell.targetIndex}${cell.conclusion ? ` c-${esc(cell.conclusion)}` : ''}"${cell.mark ? ` data-mark="${esc(cell.mark)}"` : ''} data-i="${cell.index}" data-s="${esc(cell.status)}"${cell.falseSuccess ? ' data-k="false-success"' : ''}` +
      `${cell.hasDetails ? ' tabindex="0"' : ''}>${cell.markSymbol ? `<i>${esc(cell.markSymbol)}</i>` : ''}${cell.falseSuccess ? `<b aria-label="false success">${FALSE_SUCCESS_ICON}</b>` : ''}${esc(cell.word)}` +
      // The label reads "XFAIL · STREAM_INCOMPLETE"; on screen the outcome goes on a line of its own.
      `${cell.concluded ? `<span class="sep"> · </span><small>${esc(cell.concluded)}</small>` : ''}</td>`;
  }
  return out;
}

/** Render a run as one self-contained HTML file (a pure function of the result). */
export function render(result: RunResult, options: HtmlOptions = {}): string {
  return [...renderChunks(result, options)].join('');
}

/**
 * The same text as `render`, in chunks: the page around the details, then the details JSON part
 * by part, so the payload is never one string (nor copied by each escape pass).
 */
export function* renderChunks(result: RunResult, options: HtmlOptions = {}): Generator<string> {
  const { template, css, trendCss, js, scriptHash } = getCompiled();
  const view = buildMatrixViewModel(result, options.comparison);
  const large = result.cells.length > LARGE_RUN_CELLS;
  const details = buildDetails(result, view.cellOrder, {
    maxBodyChars: options.maxBodyChars ?? (large ? 2048 : 16_384),
    maxOutputChars: options.maxOutputChars ?? (large ? 1024 : 8192),
  });
  const versionCount = view.targets.length ? view.columns.length / view.targets.length : 0;
  const groups = view.groups.map((group) => ({ ...group, rows: group.rows.map((row) => ({ ...row, cells: undefined, cellsHtml: new Handlebars.SafeString(renderCells(row.cells)) })) }));
  const page = template({
    ...view,
    groups,
    cellOrder: undefined,
    versionCount,
    columnSpan: view.columns.length + 1,
    details: undefined,
    inlineCss: css,
    trends: buildTrendViews(result),
    trendCss,
    inlineJs: js,
    scriptHash,
  });
  const mark = page.indexOf(DETAILS_MARK);
  if (mark < 0) throw new Error('HTML report template has no {{jsonScript details}} block');
  yield page.slice(0, mark);
  yield* serializeDetailsChunks(details);
  yield page.slice(mark + DETAILS_MARK.length);
}
