// What a run's exit code says and the lines that close its stderr: 1 when anything failed
// unexpectedly (a wrong exit code turns a CI job green over a failure), and per target what failed.
import { countFailures, countUnsafe, formatFailureLine } from '../../reports/model/index.js';
import type { Cell, RunResult } from '../vocabulary/types.js';

/**
 * Whether anything failed unexpectedly: fail, error, a stale baseline entry (xpass), an
 * interrupted run, or a target with no measured cell (nothing measured is not green). A single
 * shard may hold only skips for a target; its merged result decides.
 */
export function hasUnexpected(result: Pick<RunResult, 'complete' | 'summary' | 'unmeasured'> & { shard?: { merged?: number[] } }): boolean {
  const unmeasured = (result.unmeasured?.length ?? 0) > 0 && (result.shard === undefined || result.shard.merged !== undefined);
  return !result.complete || result.summary.fail > 0 || result.summary.error > 0 || result.summary.xpass > 0 || unmeasured;
}

/**
 * Each target's failures by consequence, unexpected apart from known, and its unsafe cells:
 * "  naive: 0 unexpected · 309 known: 309 false successes (309 unsafe)".
 */
export function describeTargetFailures(result: Pick<RunResult, 'targets'> & { cells: Iterable<Cell> }): string[] {
  return countFailures(result).map((failures) => {
    const unsafe = countUnsafe(failures).total;
    return `  ${oneLine(failures.target)}: ${formatFailureLine(failures)}${unsafe ? ` (${unsafe} unsafe)` : ''}`;
  });
}

// A target name on one terminal line: control characters (a hostile name's escapes) become spaces.
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

/** One line per target that got no measured cell, saying why. */
export function describeUnmeasured(result: Pick<RunResult, 'unmeasured'>): string[] {
  return (result.unmeasured ?? []).map((entry) => `mcp-error-matrix: nothing measured for ${entry.target}: ${entry.reason}`);
}
