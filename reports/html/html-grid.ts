// The matrix's cells as a grid of rows × columns, filled in one pass over the run's cells (in
// their order, nothing kept per cell but two numbers): each slot holds the position of its cell
// in the details JSON and its look, one of a few distinct looks (status, word, mark, outcome).
// html.ts writes small grids as <td> markup and embeds large ones as JSON that
// matrix.client.js draws as rows scroll into view.
import type { Cell, CellStatus } from '../../runner/vocabulary/types.js';
import type { Comparison } from '../model/index.js';
import { formatCellKey } from '../model/index.js';
import { findMismatch } from '../model/index.js';
import { escapeJsonForScript } from './html-json-script.js';
import { sanitizeText } from '../redaction/index.js';
import { STATUS_STYLE } from './status-style.js';

export type CompareMark = 'regression' | 'fix' | 'added';
const MARK_SYMBOL: Record<CompareMark, string> = { regression: '▼', fix: '▲', added: '+' };

/** How a cell is drawn; many cells share one. */
export interface CellLook {
  status: CellStatus | 'none';
  word: string;
  mark?: CompareMark;
  markSymbol?: string;
  /** Judged without a verdict (exit status alone, the wire alone, or nothing): drawn apart, never the same green. */
  conclusion?: 'exit_status' | 'wire_only' | 'none';
  /** The outcome the target concluded where the case expects another (shown after the word). */
  concluded?: string;
  /** The target concluded TOOL_SUCCESS where the case expects a failure: drawn apart from other failures. */
  falseSuccess?: boolean;
}

// The tag a verdict-less cell carries after its word (docs/targets.md § Your own client: command targets).
const CONCLUSION_TAG: Record<NonNullable<CellLook['conclusion']>, string> = { exit_status: 'EXIT', wire_only: 'WIRE', none: 'NONE' };

/** Where each cell goes: its case's row and its target × version column, by raw names. */
export interface GridLayout {
  rowOf: ReadonlyMap<string, number>;
  columnOf: ReadonlyMap<string, ReadonlyMap<string, number>>;
  rows: number;
  columns: number;
}

export interface MatrixGrid {
  /** Distinct looks; look 0 is the empty slot (no cell for this case, target and version). */
  looks: CellLook[];
  columns: number;
  /** Row-major, rows × columns: the look of each slot. */
  look: Int32Array;
  /** Row-major: the position of each slot's cell in the details JSON (result.cells order), or -1. */
  index: Int32Array;
}

const EMPTY_LOOK: CellLook = { status: 'none', word: '—' };

function buildMarks(comparison: Comparison | undefined): Map<string, CompareMark> {
  const marks = new Map<string, CompareMark>();
  if (!comparison) return marks;
  for (const c of comparison.added) marks.set(formatCellKey(c), 'added');
  for (const c of comparison.fixes) marks.set(formatCellKey(c), 'fix');
  for (const c of comparison.regressions) marks.set(formatCellKey(c), 'regression');
  return marks;
}

function describeLook(cell: Cell, mark: CompareMark | undefined): CellLook {
  const style = STATUS_STYLE[cell.status];
  const conclusion = cell.conclusion === undefined || cell.conclusion === 'verdict' ? undefined : cell.conclusion;
  const mismatch = cell.status === 'pass' || cell.status === 'skip' || cell.status === 'xpass' ? undefined : findMismatch(cell);
  return {
    status: cell.status,
    word: conclusion ? `${style.word} (${CONCLUSION_TAG[conclusion]})` : style.word,
    ...(mismatch ? { concluded: sanitizeText(mismatch.actual) } : {}),
    ...(mark ? { mark, markSymbol: MARK_SYMBOL[mark] } : {}),
    ...(conclusion ? { conclusion } : {}),
    ...(mismatch?.consequence === 'false-success' ? { falseSuccess: true } : {}),
  };
}

/** Fills a grid cell by cell, in the order the details JSON lists them. */
export class GridBuilder {
  private readonly looks: CellLook[] = [EMPTY_LOOK];
  private readonly lookIndex = new Map<string, number>();
  private readonly marks: Map<string, CompareMark>;
  private readonly look: Int32Array;
  private readonly index: Int32Array;
  private position = 0;

  constructor(
    private readonly layout: GridLayout,
    comparison: Comparison | undefined,
  ) {
    this.marks = buildMarks(comparison);
    this.look = new Int32Array(layout.rows * layout.columns);
    this.index = new Int32Array(layout.rows * layout.columns).fill(-1);
  }

  /** The next cell of the run (a later cell for the same slot wins, as in every report). */
  add(cell: Cell): void {
    const position = this.position++;
    const row = this.layout.rowOf.get(cell.case);
    const column = this.layout.columnOf.get(cell.target)?.get(cell.protocolVersion);
    if (row === undefined || column === undefined) return;
    const look = describeLook(cell, this.marks.size ? this.marks.get(formatCellKey(cell)) : undefined);
    const key = JSON.stringify(look);
    let id = this.lookIndex.get(key);
    if (id === undefined) this.lookIndex.set(key, (id = this.looks.push(look) - 1));
    const slot = row * this.layout.columns + column;
    this.look[slot] = id;
    this.index[slot] = position;
  }

  finish(): MatrixGrid {
    return { looks: this.looks, columns: this.layout.columns, look: this.look, index: this.index };
  }
}

/**
 * The grid as the JSON matrix.client.js draws from: the looks by their short keys, and per row
 * the look and details position of each column, flattened ([look, index, look, index, …]).
 */
export function* serializeGridChunks(grid: MatrixGrid, versionCount: number): Generator<string> {
  const looks = grid.looks.map((l) => ({
    s: l.status,
    w: l.word,
    ...(l.conclusion ? { c: l.conclusion } : {}),
    ...(l.mark ? { m: l.mark, ms: l.markSymbol } : {}),
    ...(l.falseSuccess ? { f: 1 } : {}),
    ...(l.concluded ? { o: l.concluded } : {}),
  }));
  yield escapeJsonForScript(`{"columns":${grid.columns},"versions":${versionCount},"looks":${JSON.stringify(looks)},"rows":[`);
  const rows = grid.columns ? grid.look.length / grid.columns : 0;
  for (let r = 0; r < rows; r++) {
    const pairs: number[] = [];
    for (let c = r * grid.columns; c < (r + 1) * grid.columns; c++) pairs.push(grid.look[c]!, grid.index[c]!);
    yield `${r ? ',' : ''}[${pairs.join(',')}]`;
  }
  yield ']}';
}
