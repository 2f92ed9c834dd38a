// What a wrong conclusion costs the caller (issue 13 §1), derived from the recovery the outcome
// table defines for each outcome (runner/classify/OUTCOMES.md: `hasFinalResult`, `replay`;
// in code: getRecovery), never written per case.
import { getRecovery } from '../classify/verdict.js';
import type { CheckLevel, Consequence, ExpectedVerdict, Outcome, ReplayAdvice } from '../vocabulary/types.js';

/** The first four fail a MUST; losing a recovery or being imprecise fails a SHOULD (`non_strict`). */
export const CONSEQUENCE_LEVEL: Readonly<Record<Consequence, 'MUST' | 'SHOULD'>> = {
  'false-success': 'MUST',
  'false-failure': 'MUST',
  'unsafe-retry': 'MUST',
  'no-conclusion': 'MUST',
  'lost-recovery': 'SHOULD',
  imprecise: 'SHOULD',
};

/** What a caller may do next: send the same call again, send a corrected one, or follow up with inputs. */
type NextStep = 'send-again' | 'send-corrected' | 'follow-up';

/**
 * The next steps each replay advice allows. `if_idempotent` (same request) and
 * `reissue_if_idempotent` (new id, CL26 § Major changes 9) both send the call again, which can
 * run the tool twice; a follow-up sends the call again with `inputResponses` (MR26).
 */
const NEXT_STEPS: Readonly<Record<ReplayAdvice, readonly NextStep[]>> = {
  no: [],
  if_idempotent: ['send-again'],
  reissue_if_idempotent: ['send-again'],
  after_fixing_arguments: ['send-corrected'],
  follow_up: ['follow-up'],
};

/** A concluded verdict as far as grading goes (a reported Verdict fits). */
export interface GradedConclusion {
  outcome: Outcome;
  status?: number | undefined;
  code?: number | undefined;
}

/**
 * The consequence of concluding `actual` where `expected` is right, or undefined when they agree
 * (same outcome, and the status and code the expectation names). `null` is no conclusion at all.
 * Worst first: false-success, false-failure, unsafe-retry, no-conclusion, lost-recovery, imprecise.
 */
export function gradeConsequence(expected: ExpectedVerdict, actual: GradedConclusion | null): Consequence | undefined {
  if (actual === null) return 'no-conclusion';
  if (agrees(expected, actual)) return undefined;
  const want = getRecovery(expected.outcome, expected.code);
  const got = getRecovery(actual.outcome, actual.code);
  if (actual.outcome === 'TOOL_SUCCESS' && expected.outcome !== 'TOOL_SUCCESS') return 'false-success';
  // A final result (success or tool error) read as anything else is discarded as a result.
  if (want.hasFinalResult && actual.outcome !== expected.outcome) return 'false-failure';
  const wanted = NEXT_STEPS[want.replay];
  const allowed = NEXT_STEPS[got.replay];
  // Only a failure forbids sending the call again; INPUT_REQUIRED is not one (it asks for a follow-up).
  const expectedIsFailure = !want.hasFinalResult && want.replay !== 'follow_up';
  if (expectedIsFailure && allowed.some((step) => !wanted.includes(step))) return 'unsafe-retry';
  if (wanted.some((step) => !allowed.includes(step))) return 'lost-recovery';
  return 'imprecise';
}

/** The consequence of a client that reported no verdict but exited: 0 says "a result", anything else "the call failed". */
export function gradeExitConsequence(expected: ExpectedVerdict, exitedZero: boolean): Consequence | undefined {
  const hasFinalResult = getRecovery(expected.outcome, expected.code).hasFinalResult;
  if (exitedZero === hasFinalResult) return undefined;
  return exitedZero ? 'false-success' : 'false-failure';
}

const LEVEL_STRENGTH: Readonly<Record<CheckLevel, number>> = { MUST: 3, SHOULD: 2, POLICY: 1, INFO: 0 };

/**
 * The level of a failed outcome check: the consequence's, but never stronger than `cap` (a
 * case's own `outcomeLevel`, or the level of an accepted alternative).
 */
export function getFailureLevel(consequence: Consequence, cap: CheckLevel = 'MUST'): CheckLevel {
  return getWeakerLevel(CONSEQUENCE_LEVEL[consequence], cap);
}

/** The weaker of two levels (MUST > SHOULD > POLICY > INFO). */
export function getWeakerLevel(a: CheckLevel, b: CheckLevel): CheckLevel {
  return LEVEL_STRENGTH[a] <= LEVEL_STRENGTH[b] ? a : b;
}

function agrees(expected: ExpectedVerdict, actual: GradedConclusion): boolean {
  if (actual.outcome !== expected.outcome) return false;
  if (expected.status !== undefined && actual.status !== expected.status) return false;
  if (expected.code !== undefined && actual.code !== expected.code) return false;
  return true;
}
