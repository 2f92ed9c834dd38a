// Compares two runs cell by cell, matched by (case, target, protocol version); a target pair
// (pair-targets.ts) matches the old run's target with a new target of another name. Both runs
// may be the same file: a sweep's `--pair ts-sdk@1.24.3=ts-sdk@1.25.3` compares one version
// with the next inside one run.
import { formatCellKey, type ComparedCell, type Comparison, type TargetPair } from '../../reports/model/index.js';
import type { CaseSummary, Cell, CellStatus } from '../vocabulary/types.js';
import { listSetAsideTargets } from './pair-targets.js';

/** What comparing reads of a run: each cell's key and status, each case's file digest (a RunResult is one). */
export interface ComparableRun {
  cases: readonly Pick<CaseSummary, 'id' | 'sha256'>[];
  cells: readonly Pick<Cell, 'case' | 'target' | 'protocolVersion' | 'status'>[];
}

// How good a status is. A move down is a regression, a move up a fix. xfail ranks with fail
// (the cell still fails, the baseline only expects it), xpass with pass. skip is unranked:
// a cell that was or becomes skipped is neither.
const RANK: Record<CellStatus, number | undefined> = { pass: 3, xpass: 3, non_strict: 2, fail: 1, xfail: 1, error: 1, skip: undefined };

export interface CompareOutcome {
  comparison: Comparison;
  /** Cases whose file digest differs between the runs: their cells compare different tests. */
  changedCases: string[];
  /** Cells of the new run that found their cell in the old run. Zero: the comparison says nothing. */
  paired: number;
  /**
   * Targets left out because a pair puts them on the other side: the old run's NEW of a pair
   * OLD=NEW (its cells would take the place of OLD's) and the new run's OLD (its counterpart now
   * is NEW). Only those the runs hold; empty without pairs.
   */
  setAside: { before: string[]; after: string[] };
}

/** Regressions, fixes, added and removed cells of `after` against `before`. */
export function compareResults(before: ComparableRun, after: ComparableRun, baselineLabel?: string, pairs: readonly TargetPair[] = []): CompareOutcome {
  // An old cell of a paired target is looked up under the new target's name.
  const renamed = new Map(pairs.map((pair) => [pair.before, pair.after]));
  const aside = listSetAsideTargets(pairs);
  const beforeCells = before.cells.filter((cell) => !aside.before.has(cell.target));
  const afterCells = after.cells.filter((cell) => !aside.after.has(cell.target));
  const old = new Map(beforeCells.map((cell) => [formatCellKey({ ...keyOf(cell), target: renamed.get(cell.target) ?? cell.target }), cell]));
  const comparison: Comparison = {
    regressions: [],
    fixes: [],
    added: [],
    removed: [],
    ...(baselineLabel === undefined ? {} : { baselineLabel }),
    ...(pairs.length > 0 ? { pairs: pairs.map(({ before: b, after: a }) => ({ before: b, after: a })) } : {}),
  };
  const matched = new Set<ComparableRun['cells'][number]>();
  for (const cell of afterCells) {
    const previous = old.get(formatCellKey(keyOf(cell)));
    if (!previous) {
      comparison.added.push({ ...keyOf(cell), after: cell.status });
      continue;
    }
    matched.add(previous);
    const was = RANK[previous.status];
    const now = RANK[cell.status];
    if (was === undefined || now === undefined || was === now) continue;
    const compared: ComparedCell = { ...keyOf(cell), ...(previous.target === cell.target ? {} : { beforeTarget: previous.target }), before: previous.status, after: cell.status };
    (now < was ? comparison.regressions : comparison.fixes).push(compared);
  }
  for (const cell of beforeCells) {
    if (!matched.has(cell)) comparison.removed.push({ ...keyOf(cell), before: cell.status });
  }
  const oldDigests = new Map(before.cases.map((c) => [c.id, c.sha256]));
  const changedCases = after.cases.filter((c) => oldDigests.has(c.id) && oldDigests.get(c.id) !== c.sha256).map((c) => c.id);
  const setAside = {
    before: [...new Set(before.cells.map((cell) => cell.target))].filter((target) => aside.before.has(target)),
    after: [...new Set(after.cells.map((cell) => cell.target))].filter((target) => aside.after.has(target)),
  };
  return { comparison, changedCases, paired: matched.size, setAside };
}

function keyOf(cell: Pick<Cell, 'case' | 'target' | 'protocolVersion'>): Pick<ComparedCell, 'case' | 'target' | 'protocolVersion'> {
  return { case: cell.case, target: cell.target, protocolVersion: cell.protocolVersion };
}
