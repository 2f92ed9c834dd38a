// A target that cannot run at all still has its place in the run: its own cells say why, and the
// other targets' cells are measured as usual (issue 28 item 2). Two ways a target ends up so:
// - it could not start (its worker exited before it was ready: a library version whose modules the
//   adapter cannot load, a broken install): every cell is `error`, kind `target-start`;
// - it has nothing to run the matrix with (a library version without a Streamable HTTP client,
//   the transport of every protocol version in the matrix): every cell is `skip`, with the reason.
import type { Target, TargetInfo } from '../vocabulary/types.js';

/**
 * A target cannot run: resolveTargets turns it into an unstarted target (`skip`: a skipped one)
 * instead of ending the run.
 */
export class TargetStartError extends Error {
  constructor(
    readonly info: TargetInfo,
    /** Why, in a sentence that can follow "could not start: " (or, with skip, stand alone as the skip reason). */
    readonly reason: string,
    readonly options: { skip?: boolean } = {},
  ) {
    super(options.skip ? reason : `${info.name} could not start: ${reason}`);
    this.name = 'TargetStartError';
  }
}

/** The target standing in for one that cannot run. */
export function createTargetInPlaceOf(error: TargetStartError): Target {
  return error.options.skip ? createSkippedTarget(error.info, error.reason) : createUnstartedTarget(error.info, error.reason);
}

/** Every cell of this target is `error` (kind target-start) with the reason it could not start. */
export function createUnstartedTarget(info: TargetInfo, reason: string): Target {
  const error = `${info.name} could not start, so none of its cells was measured: ${reason}`;
  return {
    info,
    usesServer: () => false,
    run: async () => ({ verdicts: [], error, errorKind: 'target-start' }),
  };
}

/** Every cell of this target is `skip` with `reason` (it speaks none of the matrix's versions). */
export function createSkippedTarget(info: TargetInfo, reason: string): Target {
  return {
    info,
    usesServer: () => false,
    skipReason: () => reason,
    run: async () => ({ verdicts: [], skip: reason }),
  };
}
