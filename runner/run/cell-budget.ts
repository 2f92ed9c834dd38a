// How long one cell may take. Two limits: the time a target process is given (its own kill
// timer, so it ends with a run record), and the runner's budget for the whole cell, a little
// longer, after which the runner stops waiting. Both have ceilings independent of the number of
// exchanges, so a case scripted with many hanging exchanges cannot hold a cell for minutes.

/** Derived limits never exceed this many per-exchange timeouts (20 s with the default 2000 ms, plus the slack). */
export const MAX_CELL_EXCHANGE_TIMEOUTS = 10;

/** A target's own limit (`command:… #timeout=MS`) may raise a cell's budget up to this, never beyond. */
export const MAX_TARGET_CELL_MS = 300_000;

/** What the runner waits beyond the target's limit: the process is killed and its group reaped first, also on a loaded machine. */
export const CELL_BUDGET_SLACK_MS = 5000;

/** After the budget expires, how long the runner waits for the stopped target to hand over what it has. */
export const CELL_BUDGET_GRACE_MS = 2000;

/**
 * The time a client process gets for a cell when it sets no limit of its own: room for every
 * scripted exchange to time out once (at least three timeouts), at most
 * MAX_CELL_EXCHANGE_TIMEOUTS timeouts.
 */
export function getDefaultTargetLimitMs(timeoutMs: number, exchanges: number): number {
  return timeoutMs * Math.min(Math.max(3, exchanges + 1), MAX_CELL_EXCHANGE_TIMEOUTS);
}

/**
 * The runner's budget for a cell. Without a target limit: every exchange may use its timeout,
 * plus one, capped at MAX_CELL_EXCHANGE_TIMEOUTS timeouts, plus slack. A target limit (the
 * client's own `#timeout`) raises it to that limit plus slack, capped at MAX_TARGET_CELL_MS.
 */
export function getCellBudgetMs(timeoutMs: number, exchanges: number, targetLimitMs?: number): number {
  const derived = timeoutMs * Math.min(Math.max(3, exchanges + 2), MAX_CELL_EXCHANGE_TIMEOUTS);
  const own = targetLimitMs === undefined ? 0 : Math.min(targetLimitMs, MAX_TARGET_CELL_MS);
  return Math.max(derived, own) + CELL_BUDGET_SLACK_MS;
}
