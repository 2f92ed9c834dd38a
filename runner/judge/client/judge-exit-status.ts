// What a client concluded when it reported no verdict for its last call: its exit status.
// 0 says "the call gave a result", non-zero or a signal says "the call failed"; either is judged
// against whether the expected outcome has a final result (OUTCOMES.md, `hasFinalResult`).
import { constants } from 'node:os';
import type { AlternativeVerdict, Case } from '../../cases/case-types.js';
import { getRecovery } from '../../classify/verdict.js';
import type { Check, Conclusion, ExpectedVerdict, TargetOutcome } from '../../vocabulary/types.js';
import { getFailureLevel, getWeakerLevel, gradeExitConsequence } from '../grade-consequence.js';
import { describeAlternativeReason } from '../judge-conclusion.js';
import { makeCheck } from '../make-check.js';

export interface ExitStatusJudgement {
  conclusion: Conclusion;
  checks: Check[];
  /** When the conclusion is `none` for a call that was judged: why nothing was concluded, in a phrase. */
  nothing?: string;
}

/**
 * `client.exit` (at `client.outcomeLevel`, MUST by default) for a client process that reported
 * no verdict for its last call; a failed one carries its consequence (false-success or
 * false-failure). A client that made no tools/call request, that the runner had to kill at its
 * time limit, or that crashed (a signal the runner did not send) concluded nothing (`none`, no
 * exit check, `nothing` says why): judge-reported.ts fails it as `no-conclusion`. An exit that
 * disagrees with the expectation but agrees with one of the last call's accepted `alternatives`
 * (exit 0: one with a final result, e.g. a server fault's real result) fails only at that
 * alternative's level, with its consequence.
 */
export function judgeExitStatus(item: Case, expected: ExpectedVerdict[], outcome: TargetOutcome, toolCalls: number, alternatives: readonly AlternativeVerdict[] = []): ExitStatusJudgement {
  const last = expected.length - 1;
  const reported = outcome.verdicts[last] != null || outcome.invalidVerdicts?.some((entry) => entry.index === last) === true;
  const run = outcome.run;
  if (reported) return { conclusion: 'verdict', checks: [] };
  // Not a process (an adapter that reported nothing): nothing was concluded.
  if (run === undefined || !('exitCode' in run)) return { conclusion: 'none', checks: [], nothing: 'the target reported no verdict' };
  if (run.timedOut) return { conclusion: 'none', checks: [], nothing: `killed at its time limit after ${run.durationMs} ms without a verdict` };
  // No tools/call request: nothing was concluded about the call (`wire.tool-called` fails, MUST).
  if (toolCalls === 0) return { conclusion: 'none', checks: [], nothing: 'no tools/call request was made' };
  // A death the client did not choose is not its conclusion that the call failed.
  if (run.crashed === true) return { conclusion: 'none', checks: [], nothing: `crashed, ${describeStatus(run.exitCode ?? null, run.signal ?? null)}, without a verdict` };
  const level = item.client?.outcomeLevel ?? 'MUST';
  const exit = describeStatus(run.exitCode ?? null, run.signal ?? null);
  const want = expected[last]!;
  const hasFinalResult = getRecovery(want.outcome).hasFinalResult;
  const expectedText = hasFinalResult ? `exit 0: the call gave a result (${want.outcome})` : `a non-zero exit: the call failed (${want.outcome})`;
  const suffix = expected.length === 1 ? '' : `@${expected.length}`;
  const id = `client.exit${suffix}`;
  const succeeded = run.exitCode === 0 && !run.signal;
  const alternative = succeeded === hasFinalResult ? undefined : alternatives.find((entry) => getRecovery(entry.outcome).hasFinalResult === succeeded);
  if (alternative) {
    const consequence = alternative.consequence ?? gradeExitConsequence(want, succeeded)!;
    const reading = succeeded ? `exited 0 (a result) on a call whose strict reading is ${want.outcome}; its result is ${alternative.outcome}` : `${exit}, no verdict, on a call that gave a result (${want.outcome}); the failure reads as ${alternative.outcome}`;
    const message = `${id}: the client ${reading}, ${describeAlternativeReason(alternative)}`;
    const failLevel = getFailureLevel(consequence, getWeakerLevel(alternative.level, level));
    return { conclusion: succeeded ? 'wire_only' : 'exit_status', checks: [makeCheck({ id, level: failLevel, expected: expectedText, actual: exit, passed: false, message, consequence })] };
  }
  if (succeeded) {
    const message = hasFinalResult
      ? `${id}: exit 0, no verdict: judged on the wire alone (expected ${want.outcome})`
      : `${id}: the client exited 0 (a result) on a call that failed with ${want.outcome}: a false success`;
    return { conclusion: 'wire_only', checks: [makeCheck({ id, level, expected: expectedText, actual: exit, passed: hasFinalResult, message, consequence: gradeExitConsequence(want, true) })] };
  }
  const message = hasFinalResult
    ? `${id}: the client failed a call that succeeded (${want.outcome}): ${exit}, no verdict`
    : `${id}: ${exit}, no verdict: the call failed, as expected (${want.outcome}); judged on the exit status alone`;
  return { conclusion: 'exit_status', checks: [makeCheck({ id, level, expected: expectedText, actual: exit, passed: !hasFinalResult, message, consequence: gradeExitConsequence(want, false) })] };
}

function describeStatus(code: number | null, signal: string | null): string {
  if (signal) return `killed by ${signal}`;
  // A shell reports its child's death by signal N as 128+N.
  const name = code !== null && code > 128 ? Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0] : undefined;
  return name ? `exit ${code} (${name})` : `exit ${String(code)}`;
}
