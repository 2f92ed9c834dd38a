// Runs a matrix of real-client cells that wait out their timeout on purpose, again when the
// runner's stall guard declared a cell not measured.
//
// A real client's cell is `error` ("not measured: this process's event loop stalled ...") when the
// loop of this process stalled, while the mock server held a request of the cell, for half the
// timeout (and 1 s) or more (runner/run/run-cell.ts, tested on its own in
// runner/run/stalled-client.test.ts). The tests share worker threads with other files, so on a
// loaded machine such stalls come (1-2.5 s seen in full-suite runs at load 7-17). Cells answered
// at once avoid the guard with a long timeout (answered-at-once.ts); cells that wait for their
// timeout cannot, since a long one costs its length in every run. Such a run measured nothing
// of those cells, so it is run again, a few times at most; any other error stays in the result.
import { runMatrix, type RunMatrixOptions } from '../runner/run/run-matrix.js';
import type { LoadedCase } from '../runner/cases/case-types.js';
import type { Cell, RunResult } from '../runner/types.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from './answered-at-once.js';

const STALLED_LOOP = /^not measured: this process's event loop stalled /;

/** Whether the stall guard declared this cell not measured. */
export function isUnmeasuredByStall(cell: Cell): boolean {
  return cell.status === 'error' && STALLED_LOOP.test(cell.reason ?? '');
}

/** runMatrix, run again (up to `maxRuns` runs in all) while a cell is not measured because of a stall. */
export async function runMatrixUntilMeasured(options: RunMatrixOptions, maxRuns = 3): Promise<RunResult> {
  for (let run = 1; ; run++) {
    const result = await runMatrix(options);
    const unmeasured = result.cells.filter(isUnmeasuredByStall);
    if (unmeasured.length === 0 || run >= maxRuns) return result;
    console.info(`run ${run} of ${maxRuns} not measured, run again: ${unmeasured.map((cell) => `${cell.target} ${cell.case}@${cell.protocolVersion}: ${cell.reason}`).join('; ')}`);
  }
}

/**
 * Runs the cells that wait out their timeout on purpose (`waits`) at `waitingTimeoutMs`, again while
 * one is not measured, and beside them the others, answered at once, at ANSWERED_AT_ONCE_TIMEOUT_MS:
 * a timeout they never wait for keeps the stall guard out of them. The cells of both runs, in that order.
 */
export async function runWaitingBesideAnswered(options: Omit<RunMatrixOptions, 'timeoutMs'>, waits: (loaded: LoadedCase) => boolean, waitingTimeoutMs: number): Promise<Cell[]> {
  const runs = await Promise.all([
    runMatrixUntilMeasured({ ...options, cases: options.cases.filter(waits), timeoutMs: waitingTimeoutMs }),
    runMatrix({ ...options, cases: options.cases.filter((loaded) => !waits(loaded)), timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS }),
  ]);
  return runs.flatMap((run) => run.cells);
}
