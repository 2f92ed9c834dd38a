// The words every module shares (protocol versions, outcomes, check levels, the expected
// verdict): a leaf that imports nothing, so case-types.ts and types.ts can both use it
// without importing each other. types.ts re-exports all of it.

export const PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/**
 * The outcome taxonomy (DESIGN §2). The first eight are the published vocabulary;
 * STREAM_INCOMPLETE and NO_RESPONSE are this project's additions (README § Outcomes).
 */
export const OUTCOMES = [
  'TOOL_SUCCESS',
  'TOOL_ERROR',
  'HTTP_ERROR',
  'JSONRPC_ERROR',
  'INPUT_REQUIRED',
  'MALFORMED_JSON',
  'INVALID_ENVELOPE',
  'INVALID_TOOL_RESULT',
  'STREAM_INCOMPLETE',
  'NO_RESPONSE',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const CHECK_LEVELS = ['MUST', 'SHOULD', 'POLICY', 'INFO'] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];

/** What a correct target concludes about one exchange. */
export interface ExpectedVerdict {
  outcome: Outcome;
  status?: number;
  code?: number;
}

/**
 * Where a judged cell's conclusion came from: `verdict`, the target reported one; `exit_status`,
 * a client without a verdict exited non-zero or by a signal ("the call failed"); `wire_only`, a
 * client without a verdict exited 0, so only the wire was judged; `none`, nothing was concluded
 * (no tools/call was made, or the runner killed the client first).
 */
export const CONCLUSIONS = ['verdict', 'exit_status', 'wire_only', 'none'] as const;
export type Conclusion = (typeof CONCLUSIONS)[number];

/**
 * What a mismatch costs the caller (issue 13), worst first. Derived from the recovery the
 * outcome table defines (runner/classify/OUTCOMES.md: hasFinalResult, replay), never by hand:
 * `false-success` the target concluded TOOL_SUCCESS where the expected outcome is not;
 * `false-failure` the expected outcome has a final result and the target discarded it;
 * `unsafe-retry` both are failures and the target allows a replay the expected outcome forbids;
 * `no-conclusion` the target concluded nothing; `lost-recovery` the target forbids a recovery
 * the expected outcome allows; `imprecise` same recovery, different outcome, layer, status or code.
 * The first four fail a MUST; the last two are SHOULD.
 */
export const CONSEQUENCES = ['false-success', 'false-failure', 'unsafe-retry', 'no-conclusion', 'lost-recovery', 'imprecise'] as const;
export type Consequence = (typeof CONSEQUENCES)[number];

/**
 * Why a cell is `error` (not measured), when the cause has a name of its own. `adapter-gap`: a
 * built-in adapter met a thrown error or returned value its stack's mapping table does not hold
 * (our gap, never the client "concluding nothing"; the cell's `observed` keeps the library's words;
 * issue 26). `timeout`: a deadline of the runner's own ran out before the target answered (the
 * harness's, the cell budget, an SDK worker's answer, the persistent lane's answer); `starved`: the
 * outcome came from a deadline while a process that timed the cell was starved past the threshold
 * (docs/running.md), in the main pass and in every run after it (issue 27). `target-start`: the
 * target could not start at all (its worker exited before it was ready, e.g. a library version whose
 * modules the adapter cannot load), so none of its cells was measured. `interrupted`: the cell's
 * client or worker was stopped by a signal the runner did not send (Ctrl-C, `timeout`, a CI cancel
 * reach the whole process group): what it then did is not its doing, and it is not run again (issue 28).
 */
export const ERROR_KINDS = ['adapter-gap', 'timeout', 'starved', 'target-start', 'interrupted'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * The processes that time a cell and measure their own starvation: the runner (the mock server
 * and the harness), an SDK or stack worker, a client process the runner started (with everything
 * it started).
 */
export const TIMED_PROCESSES = ['runner', 'worker', 'client'] as const;
export type TimedProcess = (typeof TIMED_PROCESSES)[number];

/**
 * Why a cell was run again after the main pass: a process was `starved` during a deadline, a
 * deadline of the runner's ran out (`timeout`), or a deadline produced the outcome where a
 * process's starvation could not be measured (`unmeasured`: no schedstat outside Linux).
 */
export const RERUN_REASONS = ['starved', 'timeout', 'unmeasured'] as const;
export type RerunReason = (typeof RERUN_REASONS)[number];
