// The deadlines a built-in client adapter gives the library it drives, and the budgets around them
// (docs/targets.md § Deadlines). Per request, the library's own options carry the cell's `timeoutMs`. A
// library whose only deadline covers the whole call (its input_required rounds, retries and
// reconnects) gets `callDeadlineMs`, long enough for the case's rounds. The host's last resort
// per call, `callBudgetMs`, is the same for every stack: only a library that hangs past its own
// deadlines meets it (its observation then says `hostAborted`).
import type { TargetContext } from '../../vocabulary/types.js';
import { MAX_CELL_EXCHANGE_TIMEOUTS } from '../../run/cell-budget.js';

/** Rounds a call may take beyond its scripted exchanges: a reconnect and a retry. */
const EXTRA_ROUNDS = 2;
/** After the last-resort abort, how long the worker waits for the call to settle (stacks/cell-calls.mjs HUNG_GRACE_MS). */
const HUNG_GRACE_MS = 2000;
/** Connecting and listing the tools, each (worker.mjs: max(timeout, 5000)). */
const MIN_SETUP_MS = 5000;
/** The drain window's bound (drain-wire.mjs, DRAIN_WINDOW.maxMs), doubled for a loaded machine. */
const DRAIN_BUDGET_MS = 6000;
/** Flushing unawaited sends and closing the client (worker.mjs, cell-calls.mjs). */
const CLOSE_BUDGET_MS = 2500;
/** Slack on top of all that before a silent worker counts as wedged. */
const WORKER_SLACK_MS = 1500;

export interface CallDeadlines {
  /** The whole-call deadline, for a library that offers no per-request one. */
  callDeadlineMs: number;
  /** The host's last-resort abort per call, the same for every stack. */
  callBudgetMs: number;
}

type BudgetContext = Pick<TargetContext, 'timeoutMs' | 'case'>;

/** The rounds one call of the case may take: every scripted exchange, plus a reconnect and a retry, capped. */
export function getCallRounds(item: BudgetContext['case']): number {
  return Math.min(Math.max(item.exchanges.length, 1) + EXTRA_ROUNDS, MAX_CELL_EXCHANGE_TIMEOUTS);
}

/** The case's call deadlines at the cell's per-request timeout. */
export function getCallDeadlines(context: BudgetContext): CallDeadlines {
  const callDeadlineMs = context.timeoutMs * getCallRounds(context.case);
  return { callDeadlineMs, callBudgetMs: callDeadlineMs + context.timeoutMs };
}

/**
 * The worker's budget for a whole cell: connecting and listing, every explicit call's last-resort
 * budget and hung grace, the drain window, closing, and a stack's start-up (mcp-remote's process).
 * The runner's cell budget is this plus its own slack (run/cell-budget.ts), so a wedged worker is
 * reported, and replaced, by the SDK target first.
 */
export function getWorkerBudgetMs(context: BudgetContext, startupMs: number): number {
  const calls = context.case.client?.calls ?? 1;
  const { callBudgetMs } = getCallDeadlines(context);
  const setupMs = 2 * Math.max(context.timeoutMs, MIN_SETUP_MS);
  return setupMs + calls * (callBudgetMs + HUNG_GRACE_MS) + DRAIN_BUDGET_MS + CLOSE_BUDGET_MS + WORKER_SLACK_MS + startupMs;
}
