// Confirm before judging: after the main pass, the cells whose outcome the load may have decided
// are run again with few cells at a time, and only a measured result counts. Which cells: those
// `error` because a process was starved during a deadline (kind `starved`) or because a deadline
// of the runner's ran out (kind `timeout`), and, where a process's starvation could not be
// measured (no schedstat outside Linux), those whose outcome a deadline produced. A first re-run
// goes at a low concurrency; a cell still not measured then runs alone, twice at most. A re-run's
// result replaces the first one only when it is measured; a cell still starved after both stays
// `error`, with its cause and remedy.
import { isMeasured } from '../starvation/judge-starvation.js';
import type { Cell, RerunReason, RerunSummary } from '../vocabulary/types.js';
import { runPool } from './run-pool.js';

/**
 * At most this many runs after the main pass: one at a low concurrency, then alone. On a machine
 * whose load comes and goes, a cell starved in one run alone is often measured in the next.
 */
export const MAX_RERUNS = 3;

export interface ConfirmCellsOptions<P> {
  /** The main pass's cells, with what each was planned from. */
  cells: readonly { planned: P; cell: Cell }[];
  /** Runs one planned cell again; undefined when the run was stopped first. */
  rerun: (planned: P) => Promise<Cell | undefined>;
  /** Whether a planned cell mostly waits (a scripted hang or delay): such cells overlap more. */
  waits: (planned: P) => boolean;
  /** The machine's cores: the first re-run's concurrency. */
  cores: number;
  signal: AbortSignal;
  /** Called when a cell was run again, with the result kept. */
  onRerun?: (cell: Cell, first: Cell) => void;
}

/** Why a cell must be run again before it counts, or undefined when it stands. */
export function findRerunReason(cell: Cell): RerunReason | undefined {
  if (cell.status === 'error' && (cell.errorKind === 'starved' || cell.errorKind === 'timeout')) return cell.errorKind;
  const timing = cell.timing;
  if (timing?.deadlineBound && cell.status !== 'error' && timing.processes.some((process) => process.process !== 'runner' && !isMeasured(process))) return 'unmeasured';
  return undefined;
}

/**
 * Whether a re-run's result is a measured one: it stands (no reason to run it again), it was an
 * unmeasurable process's run (alone, the best measure there is), or its deadline ran out while no
 * process that timed it was starved (the target itself did not answer in time).
 */
function isMeasuredRun(cell: Cell): boolean {
  const reason = findRerunReason(cell);
  if (reason === undefined || reason === 'unmeasured') return true;
  return reason === 'timeout' && !(cell.timing?.processes ?? []).some((process) => process.starved);
}

/** Runs the cells that need it again; returns every cell (re-run ones replaced) and what was done, or no summary when none was. */
export async function confirmCells<P>(options: ConfirmCellsOptions<P>): Promise<{ cells: Cell[]; reruns?: RerunSummary }> {
  const cells = options.cells.map((entry) => entry.cell);
  const flagged = options.cells.flatMap((entry, index) => {
    const reason = findRerunReason(entry.cell);
    return reason === undefined ? [] : [{ index, reason, planned: entry.planned, runs: 1, kept: entry.cell }];
  });
  if (flagged.length === 0) return { cells };
  let open = flagged;
  for (let attempt = 1; attempt <= MAX_RERUNS && open.length > 0 && !options.signal.aborted; attempt++) {
    // The first re-run: the machine's cores at once (more for cells that mostly wait); then one at a time.
    const alone = attempt > 1;
    const rerunEntry = async (entry: (typeof open)[number]) => {
      const result = await options.rerun(entry.planned);
      if (result === undefined) return;
      entry.runs++;
      entry.kept = result;
    };
    if (alone) await runPool(open, 1, rerunEntry);
    else {
      const waiting = open.filter((entry) => options.waits(entry.planned));
      const busy = open.filter((entry) => !options.waits(entry.planned));
      await Promise.all([runPool(waiting, options.cores * 4, rerunEntry), runPool(busy, options.cores, rerunEntry)]);
    }
    open = open.filter((entry) => !isMeasuredRun(entry.kept));
  }
  // A cell the stopped run did not get to run again keeps its first result, as it is.
  const rerun = flagged.filter((entry) => entry.runs > 1);
  if (rerun.length === 0) return { cells };
  const byReason: Partial<Record<RerunReason, number>> = {};
  let confirmed = 0;
  for (const entry of rerun) {
    const measured = isMeasuredRun(entry.kept);
    if (measured) confirmed++;
    byReason[entry.reason] = (byReason[entry.reason] ?? 0) + 1;
    const first = cells[entry.index]!;
    const kept: Cell = { ...entry.kept, timing: { ...(entry.kept.timing ?? { processes: [] }), rerun: { reason: entry.reason, runs: entry.runs, confirmed: measured } } };
    cells[entry.index] = kept;
    options.onRerun?.(kept, first);
  }
  return { cells, reruns: { cells: rerun.length, confirmed, byReason } };
}
