// The self-contained HTML matrix: handlebars renders the view model; per-cell details travel
// as escaped JSON and are built on click. No external resource is referenced, and a CSP with
// the inline script's hash blocks any script that escaping might ever let through.
import type { Cell, RunResult } from '../../runner/vocabulary/types.js';
import type { Comparison } from '../model/index.js';
import { DetailsBuilder } from './html-details.js';
import { GridBuilder, serializeGridChunks, type MatrixGrid } from './html-grid.js';
import { serializeDetailsChunks } from './html-json-script.js';
import { DETAILS_MARK, getHtmlTemplates, Handlebars, ROWS_MARK } from './html-templates.js';
import { buildMatrixViewModel, type MatrixRow } from './html-view-model.js';
import { toPassableResult, toReportSource, type ReportSource } from '../model/index.js';
import { buildTrendViews } from '../trend/index.js';

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
  /**
   * Above this many cells the matrix rows are drawn by the page's script as they scroll into
   * view, from compact per-row data, instead of being written as <td> markup.
   * @default LARGE_RUN_CELLS
   */
  drawRowsAbove?: number;
  /**
   * Keep the details' distinct parts in a temporary file until they are written, instead of in
   * memory (the bytes are the same). @default when rows are drawn by the page (a large run)
   */
  spillParts?: boolean;
  /**
   * Write a large page's row skeleton in pieces, after the template has rendered the rest of the page,
   * instead of as part of one page string (the bytes are the same). @default when rows are drawn by the page
   */
  streamRows?: boolean;
}

/** Skeleton rows of a large page written per piece. */
const ROWS_PER_PIECE = 512;
/** How the template opens and closes a group's rows (reports/html/templates/matrix.hbs); other tables come before the matrix. */
const GROUP_START = '<tbody data-layer=';
const GROUP_END = '  </tbody>';

/** Above this many cells bodies and target output are cut shorter (a report must stay openable). */
export const LARGE_RUN_CELLS = 10_000;

// Marks a false success in the cell text itself, so it survives greyscale printing.
const FALSE_SUCCESS_ICON = '⚠';

// The matrix cells of small runs are written here rather than by a template loop. Every
// interpolated value is an enum, a number, a fixed word or an outcome name, and is escaped
// anyway. The tooltip (the full expected → actual sentence) is set by matrix.client.js on hover
// from the details JSON, not carried per cell. Large runs carry the grid as JSON instead, and
// matrix.client.js draws the same cells from it.
function renderCells(grid: MatrixGrid, row: number, versionCount: number): string {
  const esc = Handlebars.escapeExpression;
  let out = '';
  for (let column = 0; column < grid.columns; column++) {
    const slot = row * grid.columns + column;
    const cell = grid.looks[grid.look[slot]!]!;
    const index = grid.index[slot]!;
    out +=
      `<td class="s-${esc(cell.status)} t${Math.floor(column / versionCount)}${cell.conclusion ? ` c-${esc(cell.conclusion)}` : ''}"${cell.mark ? ` data-mark="${esc(cell.mark)}"` : ''} data-i="${index}" data-s="${esc(cell.status)}"${cell.falseSuccess ? ' data-k="false-success"' : ''}` +
      `${index >= 0 ? ' tabindex="0"' : ''}>${cell.markSymbol ? `<i>${esc(cell.markSymbol)}</i>` : ''}${cell.falseSuccess ? `<b aria-label="false success">${FALSE_SUCCESS_ICON}</b>` : ''}${esc(cell.word)}` +
      // The label reads "XFAIL · STREAM_INCOMPLETE"; on screen the outcome goes on a line of its own.
      `${cell.concluded ? `<span class="sep"> · </span><small>${esc(cell.concluded)}</small>` : ''}</td>`;
  }
  return out;
}

// The one pass over the run's cells, in their order: each fills its grid slot and its details
// row; the details come out in serialized batches as the pass goes.
function* passCells(cells: Iterable<Cell>, details: DetailsBuilder, grid: GridBuilder): Generator<string> {
  for (const cell of cells) {
    grid.add(cell);
    const chunk = details.add(cell);
    if (chunk) yield chunk;
  }
  const last = details.flush();
  if (last) yield last;
}

/** A large page's skeleton rows, as the template writes them (matrix.hbs), a piece at a time. */
function* renderSkeletonRows(rows: readonly MatrixRow[], cellsHtml: string): Generator<string> {
  const esc = Handlebars.escapeExpression;
  let piece = '';
  for (const [index, row] of rows.entries()) {
    piece += `    <tr data-layer="${esc(row.layer)}" data-q="${esc(row.search)}" data-r="${row.position}" class="pending"><th scope="row"><code>${esc(row.caseId)}</code> <span class="title">${esc(row.title)}</span></th>${cellsHtml}</tr>\n`;
    if ((index + 1) % ROWS_PER_PIECE === 0) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

/** Render a run as one self-contained HTML file (a pure function of the result). */
export function render(result: RunResult, options: HtmlOptions = {}): string {
  return [...renderChunks(result, options)].join('');
}

/**
 * The same text as `render`, in chunks. Small runs: the page with its cells, then the details
 * JSON part by part. Large runs: the page with a row skeleton, then the details rows written as
 * the one pass over the cells makes them, then the parts and the grid's JSON, so no per-cell
 * object outlives its batch. The cells are read in a few passes (the view model's counts, the
 * trends, then the one pass of the grid and details), never gathered into one array.
 */
export function* renderChunks(input: RunResult | ReportSource, options: HtmlOptions = {}): Generator<string> {
  const { template, css, trendCss, js, scriptHash } = getHtmlTemplates();
  // The cells are read in passes, never gathered: a source may make them on demand.
  const source = toReportSource(input);
  const result = toPassableResult(source);
  const view = buildMatrixViewModel(result, options.comparison);
  const large = source.cellCount > LARGE_RUN_CELLS;
  const lazyRows = source.cellCount > (options.drawRowsAbove ?? LARGE_RUN_CELLS);
  const details = new DetailsBuilder(result, {
    maxBodyChars: options.maxBodyChars ?? (large ? 2048 : 16_384),
    maxOutputChars: options.maxOutputChars ?? (large ? 1024 : 8192),
    // A large page writes its parts after every row: until then they wait on disk, not in memory.
    spillParts: options.spillParts ?? lazyRows,
  });
  const grid = new GridBuilder(view.layout, options.comparison);
  const versionCount = view.targets.length ? view.columns.length / view.targets.length : 0;
  // Small runs: the pass runs here, since the cells' markup comes first in the page.
  const rows = lazyRows ? passCells(result.cells, details, grid) : [...passCells(result.cells, details, grid)];
  const filled = lazyRows ? undefined : grid.finish();
  const pendingCell = new Handlebars.SafeString(`<td class="pending" colspan="${view.columns.length}"></td>`);
  // A large page's skeleton rows (one per case: 100,000 of them made a page string of 27 M characters)
  // are written in pieces into the template's output, not rendered inside it.
  const streamRows = lazyRows && (options.streamRows ?? true);
  const groups = view.groups.map((group) => ({
    ...group,
    rows: streamRows ? [] : group.rows.map((row) => ({ ...row, cellsHtml: filled ? new Handlebars.SafeString(renderCells(filled, row.position, versionCount)) : pendingCell })),
  }));
  const page = template({
    ...view,
    groups,
    layout: undefined,
    lazyRows,
    versionCount,
    columnSpan: view.columns.length + 1,
    inlineCss: css,
    trends: buildTrendViews(result),
    trendCss,
    inlineJs: js,
    scriptHash,
  });
  const mark = page.indexOf(DETAILS_MARK);
  if (mark < 0) throw new Error('HTML report template has no {{jsonScript "cell-data"}} block');
  let written = 0;
  if (streamRows) {
    const first = page.indexOf(GROUP_START);
    for (const group of view.groups) {
      const end = first < 0 ? -1 : page.indexOf(GROUP_END, written === 0 ? first : written + GROUP_END.length);
      if (end < 0 || end > mark) throw new Error('HTML report template: a group of the matrix has no closing </tbody>');
      yield page.slice(written, end);
      yield* renderSkeletonRows(group.rows, pendingCell.toString());
      written = end;
    }
  }
  yield page.slice(written, mark);
  yield* serializeDetailsChunks(details, rows, lazyRows);
  if (!lazyRows) {
    yield page.slice(mark + DETAILS_MARK.length);
    return;
  }
  const rowsMark = page.indexOf(ROWS_MARK, mark);
  if (rowsMark < 0) throw new Error('HTML report template has no {{jsonScript "row-data"}} block');
  yield page.slice(mark + DETAILS_MARK.length, rowsMark);
  yield* serializeGridChunks(grid.finish(), versionCount);
  yield page.slice(rowsMark + ROWS_MARK.length);
}
