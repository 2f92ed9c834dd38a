// The cells a caller cannot trust, per target: failing cells, unexpected or known alike, whose
// worst consequence fails a MUST (a false success, a false failure, an unsafe retry, no
// conclusion). A baseline makes such a cell `xfail`, so the run stays green, but the cell is no
// safer: the first screen of every report says how many there are (issue 30).
import { CONSEQUENCE_LEVEL } from '../../runner/judge/grade-consequence.js';
import { CONSEQUENCES, type Consequence } from '../../runner/vocabulary/types.js';
import type { FailureCount, TargetFailures } from './count-failures.js';

/** The consequences that fail a MUST, worst first. */
export const UNSAFE_CONSEQUENCES = CONSEQUENCES.filter((consequence) => CONSEQUENCE_LEVEL[consequence] === 'MUST');

export interface UnsafeCount {
  /** Unsafe cells, known and unexpected. */
  total: number;
  /** Of them, the ones not in the baseline (they fail the run). */
  unexpected: number;
  /** Cells per unsafe consequence (UNSAFE_CONSEQUENCES, in that order, zero included), known and unexpected. */
  byConsequence: Partial<Record<Consequence, number>>;
}

/** A target's unsafe cells from its failure counts (count-failures.ts: each cell once, by its worst consequence). */
export function countUnsafe(failures: Pick<TargetFailures, 'unexpected' | 'known'>): UnsafeCount {
  const byConsequence: Partial<Record<Consequence, number>> = Object.fromEntries(UNSAFE_CONSEQUENCES.map((consequence) => [consequence, 0]));
  const add = (count: FailureCount) => {
    let sum = 0;
    for (const { kind, count: cells } of count.byKind) {
      const consequence = kind as Consequence;
      if (byConsequence[consequence] === undefined) continue;
      byConsequence[consequence] = byConsequence[consequence]! + cells;
      sum += cells;
    }
    return sum;
  };
  const unexpected = add(failures.unexpected);
  const known = add(failures.known);
  return { total: unexpected + known, unexpected, byConsequence };
}
