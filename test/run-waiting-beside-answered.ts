// Runs a matrix of real-client cells that wait out their timeout on purpose beside the others,
// answered at once, each set at the timeout that suits it.
//
// A cell whose outcome a deadline produced while a process that timed it was starved is run again
// by runMatrix itself after the main pass (runner/run/confirm-cells.ts); the starvation threshold is
// a quarter of the timeout. Cells answered at once never wait for their timeout, so a long one
// costs nothing and keeps the threshold out of reach of a loaded machine (answered-at-once.ts);
// cells that wait for their timeout cannot have a long one, since it costs its length in every run.
import type { LoadedCase } from '../runner/cases/case-types.js';
import { runMatrix, type RunMatrixOptions } from '../runner/run/run-matrix.js';
import type { Cell } from '../runner/vocabulary/types.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from './answered-at-once.js';

/**
 * Runs the cells that wait out their timeout on purpose (`waits`) at `waitingTimeoutMs`, and beside
 * them the others, answered at once, at ANSWERED_AT_ONCE_TIMEOUT_MS. The cells of both runs, in that order.
 */
export async function runWaitingBesideAnswered(options: Omit<RunMatrixOptions, 'timeoutMs'>, waits: (loaded: LoadedCase) => boolean, waitingTimeoutMs: number): Promise<Cell[]> {
  const runs = await Promise.all([
    runMatrix({ ...options, cases: options.cases.filter(waits), timeoutMs: waitingTimeoutMs }),
    runMatrix({ ...options, cases: options.cases.filter((loaded) => !waits(loaded)), timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS }),
  ]);
  return runs.flatMap((run) => run.cells);
}
