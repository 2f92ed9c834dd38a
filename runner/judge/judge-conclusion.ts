// Judges one concluded verdict against the expected one (and the case's accepted alternatives):
// the outcome, status, code and layer checks every judge shares, each failure graded by what it
// costs the caller (grade-consequence.ts).
import type { AlternativeVerdict } from '../cases/case-types.js';
import { OUTCOME_LAYER, type Check, type CheckLevel, type Consequence, type ExpectedVerdict, type Verdict } from '../vocabulary/types.js';
import { getFailureLevel, getWeakerLevel, gradeConsequence } from './grade-consequence.js';
import { makeCheck } from './make-check.js';

export interface ConclusionCheckIds {
  outcome: string;
  status: string;
  code: string;
  layer: string;
}

export interface JudgeConclusionOptions {
  ids: ConclusionCheckIds;
  expected: ExpectedVerdict;
  got: Verdict;
  /** The strongest level a failure may take (the case's `client.outcomeLevel`; MUST by default). */
  cap?: CheckLevel | undefined;
  alternatives?: readonly AlternativeVerdict[] | undefined;
  /** Whether to check the layer (when the outcome is right). */
  checkLayer: boolean;
  exchange?: number | undefined;
}

/**
 * `outcome`, then `status` / `code` when the expectation names them, then `layer` (SHOULD) when
 * asked and the outcome is right. A failure fails at its consequence's level (MUST for the worst
 * four, SHOULD for lost-recovery and imprecise), capped by `cap` and by an accepted alternative's
 * level. An alternative that names its own consequence (the result of a server's fault,
 * server-fault.ts) costs that instead. Exactly one failed check per conclusion carries the
 * `consequence`: the outcome check, else the first failed status/code check, else the layer check.
 */
export function judgeConclusion(options: JudgeConclusionOptions): Check[] {
  const { ids, expected: want, got, exchange } = options;
  const cap = options.cap ?? 'MUST';
  const graded = gradeConsequence(want, got);
  const alternative = graded === undefined ? undefined : options.alternatives?.find((entry) => matchesAlternative(entry, got));
  const consequence = alternative?.consequence ?? graded;
  const failLevel = consequence === undefined ? cap : getFailureLevel(consequence, alternative ? getWeakerLevel(alternative.level, cap) : cap);
  let carrier: Consequence | undefined = consequence;
  const take = (passed: boolean): Consequence | undefined => {
    if (passed || carrier === undefined) return undefined;
    const taken = carrier;
    carrier = undefined;
    return taken;
  };
  const checks: Check[] = [];
  const outcomePassed = got.outcome === want.outcome;
  const note = alternative ? describeAlternative(ids.outcome, want, alternative) : undefined;
  checks.push(
    makeCheck({
      id: ids.outcome,
      level: outcomePassed ? cap : failLevel,
      expected: want.outcome,
      actual: got.outcome,
      passed: outcomePassed,
      exchange,
      consequence: take(outcomePassed),
      ...(note && !outcomePassed ? { message: note } : {}),
    }),
  );
  for (const [key, id] of [['status', ids.status], ['code', ids.code]] as const) {
    if (want[key] === undefined) continue;
    const passed = got[key] === want[key];
    checks.push(makeCheck({ id, level: passed ? cap : failLevel, expected: want[key], actual: got[key], passed, exchange, consequence: take(passed) }));
  }
  // A wrong layer alone is imprecise; beside a wrong status or code, that check carries the consequence.
  if (options.checkLayer && outcomePassed) {
    const passed = got.layer === OUTCOME_LAYER[want.outcome];
    checks.push(makeCheck({ id: ids.layer, level: 'SHOULD', expected: OUTCOME_LAYER[want.outcome], actual: got.layer, passed, exchange, consequence: passed || consequence !== undefined ? undefined : 'imprecise' }));
  }
  return checks;
}

/** Whether a concluded verdict is the alternative: its outcome, and the status and code it names. */
export function matchesAlternative(alternative: AlternativeVerdict, got: { outcome: string; status?: number | undefined; code?: number | undefined }): boolean {
  if (alternative.outcome !== got.outcome) return false;
  if (alternative.status !== undefined && alternative.status !== got.status) return false;
  if (alternative.code !== undefined && alternative.code !== got.code) return false;
  return true;
}

/** The words that mark a failed check as an accepted alternative (its message says them). */
export const ALTERNATIVE_NOTE = 'an alternative the spec allows';

/** The accepted alternative in words: its level, its references and why the spec allows it. */
export function describeAlternativeReason(alternative: AlternativeVerdict): string {
  return `${ALTERNATIVE_NOTE}, at ${alternative.level} (${alternative.spec.map((spec) => spec.ref).join('; ')}): ${alternative.why}`;
}

function describeAlternative(id: string, want: ExpectedVerdict, alternative: AlternativeVerdict): string {
  return `${id}: expected ${want.outcome}, got ${alternative.outcome}: ${describeAlternativeReason(alternative)}`;
}
