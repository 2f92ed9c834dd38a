// Compares two runs cell by cell, matched by (case, target, protocol version).
import { formatCellKey, type ComparedCell, type Comparison } from '../../reports/compare-types.js';
import type { Cell, CellStatus, RunResult } from '../types.js';

// How good a status is. A move down is a regression, a move up a fix. xfail ranks with fail
// (the cell still fails, the baseline only expects it), xpass with pass. skip is unranked:
// a cell that was or becomes skipped is neither.
const RANK: Record<CellStatus, number | undefined> = { pass: 3, xpass: 3, non_strict: 2, fail: 1, xfail: 1, error: 1, skip: undefined };

export interface CompareOutcome {
  comparison: Comparison;
  /** Cases whose file digest differs between the runs: their cells compare different tests. */
  changedCases: string[];
}

/** Regressions, fixes, added and removed cells of `after` against `before`. */
export function compareResults(before: RunResult, after: RunResult, baselineLabel?: string): CompareOutcome {
  const old = new Map(before.cells.map((cell) => [formatCellKey(keyOf(cell)), cell]));
  const comparison: Comparison = { regressions: [], fixes: [], added: [], removed: [], ...(baselineLabel === undefined ? {} : { baselineLabel }) };
  const seen = new Set<string>();
  for (const cell of after.cells) {
    const key = formatCellKey(keyOf(cell));
    seen.add(key);
    const previous = old.get(key);
    if (!previous) {
      comparison.added.push({ ...keyOf(cell), after: cell.status });
      continue;
    }
    const was = RANK[previous.status];
    const now = RANK[cell.status];
    if (was === undefined || now === undefined || was === now) continue;
    const compared: ComparedCell = { ...keyOf(cell), before: previous.status, after: cell.status };
    (now < was ? comparison.regressions : comparison.fixes).push(compared);
  }
  for (const cell of before.cells) {
    if (!seen.has(formatCellKey(keyOf(cell)))) comparison.removed.push({ ...keyOf(cell), before: cell.status });
  }
  const oldDigests = new Map(before.cases.map((c) => [c.id, c.sha256]));
  const changedCases = after.cases.filter((c) => oldDigests.has(c.id) && oldDigests.get(c.id) !== c.sha256).map((c) => c.id);
  return { comparison, changedCases };
}

function keyOf(cell: Cell): Pick<ComparedCell, 'case' | 'target' | 'protocolVersion'> {
  return { case: cell.case, target: cell.target, protocolVersion: cell.protocolVersion };
}
