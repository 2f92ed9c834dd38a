// What the report writers read: the run's fields, and its cells as a source that can be passed
// over more than once and read by position. A normal run's in-memory result is one such source
// (no copy); a source that makes its cells on demand (a huge synthetic run, a merge reading from
// disk) lets reports be written with memory bounded by a batch of cells, not by the run.
import type { Cell, RunResult } from '../../runner/vocabulary/types.js';

/** Every field of a run result but its cells. */
export type ReportHead = Omit<RunResult, 'cells'>;

export interface ReportSource {
  /**
   * The result's fields, in the order results.json writes them. The cells are written where
   * `head` has a `cells` key (whose value is never read), or else right after `targets`.
   */
  readonly head: ReportHead;
  readonly cellCount: number;
  /** A fresh pass over every cell, in result order. */
  cells(): Iterable<Cell>;
  /** The cell at a position, 0 ≤ index < cellCount (TAP and JUnit write target by target). */
  cellAt(index: number): Cell;
  /** The whole in-memory result, when the source reads one (its cells array is then passed over as is). */
  readonly result?: RunResult;
}

/** The source over an in-memory result: its cells as they are, nothing copied. */
export function sourceFromResult(result: RunResult): ReportSource {
  const cells = result.cells;
  return { head: result, cellCount: cells.length, cells: () => cells, cellAt: (index) => cells[index]!, result };
}

/** A result or a source, as a source. */
export function toReportSource(input: RunResult | ReportSource): ReportSource {
  return isReportSource(input) ? input : sourceFromResult(input);
}

function isReportSource(input: RunResult | ReportSource): input is ReportSource {
  return typeof (input as Partial<ReportSource>).cellAt === 'function' && typeof input.cells === 'function';
}

/** A run's fields with its cells as an iterable that starts a fresh pass each time it is iterated. */
export type PassableResult = ReportHead & { readonly cells: Iterable<Cell> };

/** The source as a result whose `cells` can be iterated any number of times (never gathered). */
export function toPassableResult(source: ReportSource): PassableResult {
  return { ...source.head, cells: source.result?.cells ?? { [Symbol.iterator]: () => source.cells()[Symbol.iterator]() } };
}

/** The head's field names in results.json order, with `cells` in its place. */
export function listResultKeys(head: ReportHead): string[] {
  const keys = Object.keys(head);
  if (keys.includes('cells')) return keys;
  const after = keys.indexOf('targets');
  return after < 0 ? [...keys, 'cells'] : [...keys.slice(0, after + 1), 'cells', ...keys.slice(after + 1)];
}

/** The positions of each named target's cells, in result order (cells of other targets are left out). */
export function listPositionsByTarget(source: ReportSource, names: readonly string[]): Map<string, number[]> {
  const byTarget = new Map<string, number[]>(names.map((name) => [name, []]));
  let position = 0;
  for (const cell of source.cells()) {
    byTarget.get(cell.target)?.push(position);
    position++;
  }
  return byTarget;
}
