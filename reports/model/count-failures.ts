// One count of each target's failures, shared by every report's per-target line: unexpected
// failures (they fail the run) apart from known ones (baseline xfail), each broken down by what
// the mismatch costs the caller (the judge's `consequence` on the failed outcome checks).
import { CONSEQUENCES, ERROR_KINDS, type Cell, type CellStatus, type Consequence, type ErrorKind, type RunResult } from '../../runner/vocabulary/types.js';

/** What one failing cell is counted as: its worst consequence, an error's named cause, or why it has none. */
export const FAILURE_KINDS = [...CONSEQUENCES, ...ERROR_KINDS, 'not-measured', 'stale-entry', 'other'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

// Exhaustive: a new kind fails to compile until it has its words.
const KIND_WORDS: Record<FailureKind, { one: string; many: string; sentence: string }> = {
  'false-success': { one: 'false success', many: 'false successes', sentence: 'a false success: the caller is handed a result that does not exist, or a failure hidden as success' },
  'false-failure': { one: 'false failure', many: 'false failures', sentence: 'a false failure: a final result exists and the target discards it' },
  'unsafe-retry': { one: 'unsafe retry', many: 'unsafe retries', sentence: 'an unsafe retry: the target allows a replay the expected outcome forbids, so the tool may run twice' },
  'no-conclusion': { one: 'no conclusion', many: 'no conclusions', sentence: 'no conclusion: the target concluded nothing (crash, no verdict, its own timeout)' },
  'lost-recovery': { one: 'lost recovery', many: 'lost recoveries', sentence: 'a lost recovery: the target gives up where a follow-up or a safe retry was right' },
  imprecise: { one: 'imprecise', many: 'imprecise', sentence: 'imprecise: the same recovery, but a different outcome, layer, status or code' },
  'adapter-gap': { one: 'adapter gap', many: 'adapter gaps', sentence: "an adapter gap: the built-in adapter cannot read what the library did (ours to fix, not the client's fault; the cell keeps the library's words)" },
  timeout: { one: 'error (not measured: a deadline of the runner ran out)', many: 'errors (not measured: a deadline of the runner ran out)', sentence: "not measured: a deadline of the runner's own ran out before the target answered (the machine's load; run again with a lower --concurrency or a higher --timeout)" },
  starved: { one: 'error (not measured: starved)', many: 'errors (not measured: starved)', sentence: 'not measured: a deadline produced the outcome while a process that timed the cell was starved of CPU, in every run (run again on a quieter machine, or with a lower --concurrency or a higher --timeout)' },
  'target-start': { one: 'error (not measured: the target could not start)', many: 'errors (not measured: the target could not start)', sentence: 'not measured: the target could not start (its worker exited before it was ready: a module the adapter cannot load, a broken install); the other targets were measured' },
  interrupted: { one: 'error (not measured: stopped from outside)', many: 'errors (not measured: stopped from outside)', sentence: 'not measured: the client or worker was stopped by a signal the runner did not send (Ctrl-C, `timeout` or a CI cancel reach the whole process group)' },
  'not-measured': { one: 'error (not measured)', many: 'errors (not measured)', sentence: 'not measured: the harness or the target broke' },
  'stale-entry': { one: 'stale baseline entry', many: 'stale baseline entries', sentence: 'a stale baseline entry: the cell passes now' },
  other: { one: 'other', many: 'other', sentence: 'a failed check other than the outcome (see the checks)' },
};

/** How a cell counts against its target: an unexpected failure, a known one (xfail), or neither. */
const FAILURE_CLASS: Record<CellStatus, 'unexpected' | 'known' | undefined> = {
  pass: undefined,
  non_strict: undefined,
  skip: undefined,
  fail: 'unexpected',
  error: 'unexpected',
  xpass: 'unexpected',
  xfail: 'known',
};

export interface FailureCount {
  total: number;
  /** Cells per kind, only kinds that occur, worst first. */
  byKind: { kind: FailureKind; count: number }[];
}

export interface TargetFailures {
  target: string;
  unexpected: FailureCount;
  known: FailureCount;
  /** Unexpected plus known: what "fewest failures first" orders by. */
  all: number;
}

/** The worst consequence among a cell's failed checks (a baseline-matched cell keeps its checks). */
export function getCellConsequence(cell: Pick<Cell, 'checks'>): Consequence | undefined {
  let worst: number | undefined;
  for (const check of cell.checks) {
    if (check.passed || check.consequence === undefined) continue;
    const rank = CONSEQUENCES.indexOf(check.consequence);
    if (rank >= 0 && (worst === undefined || rank < worst)) worst = rank;
  }
  return worst === undefined ? undefined : CONSEQUENCES[worst];
}

/** What a failing cell is counted as. */
export function getFailureKind(cell: Pick<Cell, 'status' | 'checks'> & { errorKind?: ErrorKind | undefined }): FailureKind {
  if (cell.status === 'error') return cell.errorKind ?? 'not-measured';
  if (cell.status === 'xpass') return 'stale-entry';
  return getCellConsequence(cell) ?? 'other';
}

/** The words for a kind: "false success", "2 false successes", or the sentence a tooltip shows. */
export function describeFailureKind(kind: FailureKind, count?: number): string {
  const words = KIND_WORDS[kind];
  return count === undefined ? words.sentence : `${count} ${count === 1 ? words.one : words.many}`;
}

/** One failure's kind in a word or two: "false success". */
export function nameFailureKind(kind: FailureKind): string {
  return KIND_WORDS[kind].one;
}

/** The heading for a kind's group: "False successes". */
export function getFailureKindTitle(kind: FailureKind): string {
  const many = KIND_WORDS[kind].many;
  return `${many.charAt(0).toUpperCase()}${many.slice(1)}`;
}

/** Every target's failures, in the result's target order (targets only seen in cells last). */
export function countFailures(result: { targets: readonly { name: string }[]; cells: Iterable<Pick<Cell, 'target' | 'status' | 'checks' | 'errorKind'>> }): TargetFailures[] {
  const newTally = () => ({ unexpected: new Map<FailureKind, number>(), known: new Map<FailureKind, number>() });
  const tallies = new Map(result.targets.map((t) => [t.name, newTally()]));
  for (const cell of result.cells) {
    let tallied = tallies.get(cell.target);
    if (!tallied) tallies.set(cell.target, (tallied = newTally()));
    const failureClass = FAILURE_CLASS[cell.status];
    if (!failureClass) continue;
    const tally = tallied[failureClass];
    const kind = getFailureKind(cell);
    tally.set(kind, (tally.get(kind) ?? 0) + 1);
  }
  return [...tallies].map(([target, tally]) => {
    const unexpected = toCount(tally.unexpected);
    const known = toCount(tally.known);
    return { target, unexpected, known, all: unexpected.total + known.total };
  });
}

function toCount(tally: Map<FailureKind, number>): FailureCount {
  const byKind = FAILURE_KINDS.filter((kind) => tally.has(kind)).map((kind) => ({ kind, count: tally.get(kind)! }));
  return { total: byKind.reduce((sum, entry) => sum + entry.count, 0), byKind };
}

/** "0 unexpected · 25 known: 9 false successes, 11 unsafe retries, 5 other" */
export function formatFailureLine(failures: Pick<TargetFailures, 'unexpected' | 'known'>): string {
  const part = (count: FailureCount, word: string) =>
    `${count.total} ${word}${count.byKind.length ? `: ${count.byKind.map((entry) => describeFailureKind(entry.kind, entry.count)).join(', ')}` : ''}`;
  return `${part(failures.unexpected, 'unexpected')} · ${part(failures.known, 'known')}`;
}
