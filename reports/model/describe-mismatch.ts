// Expected → actual for one cell, in the words every report shares: the outcome a matrix cell
// shows after its word ("XFAIL · STREAM_INCOMPLETE"), the full sentence behind it, and one line
// per failed check.
import { CONSEQUENCES, OUTCOMES, type Cell, type Check, type Consequence } from '../../runner/vocabulary/types.js';
import { describeFailureKind } from './count-failures.js';

export interface Mismatch {
  /** The outcome the case expects, or undefined when the check does not name one. */
  expected?: string;
  /** The outcome the target concluded; `NOTHING` when it reported none, `NOT A VERDICT` when unreadable. */
  actual: string;
  consequence?: Consequence;
  check: Check;
}

const OUTCOME_WORDS: readonly string[] = OUTCOMES;
// Outcome checks are `outcome@n` (classifiers) and `client.outcome` / `client.outcome@i` (clients).
const OUTCOME_CHECK = /(^|\.)outcome(@\d+)?$/;

function readOutcome(value: unknown): string | undefined {
  if (typeof value === 'string' && OUTCOME_WORDS.includes(value)) return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return readOutcome((value as { outcome?: unknown }).outcome);
  return undefined;
}

/**
 * The failed check that decides what the cell shows: the one with the worst consequence, else
 * the first failed outcome check. Undefined when no outcome was judged wrong.
 */
export function findMismatch(cell: Pick<Cell, 'checks'>): Mismatch | undefined {
  const failed = cell.checks.filter((check) => !check.passed && check.level !== 'INFO');
  const rank = (check: Check) => (check.consequence === undefined ? CONSEQUENCES.length : CONSEQUENCES.indexOf(check.consequence));
  const graded = failed.filter((check) => check.consequence !== undefined).sort((a, b) => rank(a) - rank(b));
  const check = graded[0] ?? failed.find((c) => OUTCOME_CHECK.test(c.id));
  if (!check) return undefined;
  const expected = readOutcome(check.expected);
  const actual = NOTHING_WORDS.has(check.actual) ? 'NOTHING' : (readOutcome(check.actual) ?? describeOther(check.actual));
  return { ...(expected ? { expected } : {}), actual, ...(check.consequence ? { consequence: check.consequence } : {}), check };
}

// How the judges write "the target concluded nothing": a classifier's null or "not reported", a
// client's "nothing concluded" (runner/judge/client/judge-reported.ts).
const NOTHING_WORDS = new Set<unknown>([null, 'not reported', 'nothing concluded']);

// A conclusion that is not an outcome: a short text as it is (`exit 0`), anything else unnamed.
function describeOther(value: unknown): string {
  return typeof value === 'string' && value.length > 0 && value.length <= 24 ? value : 'NOT A VERDICT';
}

/** The full sentence behind a label: "expected X, the target concluded Y: a false success: …". */
export function describeMismatch(mismatch: Mismatch): string {
  const nothing = mismatch.actual === 'NOTHING';
  const what = mismatch.expected ? `expected ${mismatch.expected}, the target concluded ${nothing ? 'nothing' : mismatch.actual}` : mismatch.check.message;
  if (!mismatch.consequence) return what;
  // Its kind's sentence would say "concluded nothing" a second time.
  if (nothing && mismatch.expected && mismatch.consequence === 'no-conclusion') return `${what}: no conclusion (a crash, no verdict, or its own timeout)`;
  return `${what}: ${describeFailureKind(mismatch.consequence)}`;
}

/**
 * One failed check on one line. The judge's message already names the check and says what was
 * expected and what happened (runner/judge/make-check.ts), so nothing is added but its level.
 */
export function describeFailedCheck(check: Pick<Check, 'level' | 'message'>): string {
  return `${check.level} ${check.message}`;
}
