// Consequence counts per target, for summaries: each failing cell counts once, under its worst
// consequence (a cell may fail several exchanges or calls).
import { CONSEQUENCES, type Cell, type CellStatus, type Consequence } from '../types.js';

/** The worst consequence among the cell's failed checks (CONSEQUENCES order), if any carries one. */
export function getWorstConsequence(cell: Pick<Cell, 'checks'>): Consequence | undefined {
  let worst: number | undefined;
  for (const check of cell.checks) {
    if (check.passed || check.consequence === undefined) continue;
    const rank = CONSEQUENCES.indexOf(check.consequence);
    if (worst === undefined || rank < worst) worst = rank;
  }
  return worst === undefined ? undefined : CONSEQUENCES[worst];
}

export type ConsequenceCounts = Record<Consequence, number>;

const FAILING: ReadonlySet<CellStatus> = new Set(['fail', 'non_strict', 'xfail']);

/**
 * Per target (in first-seen order), how many failing cells (fail, non_strict, xfail) have each
 * worst consequence; `statuses` narrows which failing cells count (e.g. only `xfail`).
 */
export function countConsequences(cells: readonly Cell[], statuses: ReadonlySet<CellStatus> = FAILING): Map<string, ConsequenceCounts> {
  const counts = new Map<string, ConsequenceCounts>();
  for (const cell of cells) {
    if (!statuses.has(cell.status)) continue;
    const worst = getWorstConsequence(cell);
    if (worst === undefined) continue;
    let entry = counts.get(cell.target);
    if (!entry) {
      entry = Object.fromEntries(CONSEQUENCES.map((name) => [name, 0])) as ConsequenceCounts;
      counts.set(cell.target, entry);
    }
    entry[worst]++;
  }
  return counts;
}
