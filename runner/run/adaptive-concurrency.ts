// How many cells run at once: the run starts at its default (options.ts, from the machine's cores
// and the targets) and backs off when cells come back unmeasured for lack of time, instead of
// letting more of them fail; `--concurrency N` pins it. Additive increase, multiplicative decrease:
// such a cell halves the limit, and a limit's worth of cells measured since raises it by one, never
// above the start. Only cells that started under the current limit move it: the ones already in
// flight when it changed report the load of the old one.
//
// What counts is a cell that lost its measurement (an `error` of kind `starved` or `timeout`), not
// a process that was merely slowed: on a machine shared with other work, every process waits for a
// CPU now and then, and backing off for that made a default run at load 16-25 crawl at one or two
// cells at once (9 min 46 s, against about 1 min) while the cells it protected were few.
import type { Cell, ConcurrencyInfo } from '../vocabulary/types.js';
import type { PoolLimit } from './run-pool.js';

export interface AdaptiveConcurrency extends PoolLimit {
  /** The limit's epoch now, for a cell that starts (give it back to onCellDone). */
  begin(): number;
  /** A cell that started in `epoch` finished: it backs off when the cell was strained. */
  onCellDone(epoch: number, cell: Cell): void;
  info(): ConcurrencyInfo;
}

/** Whether the cell lost its measurement for lack of time: it must be run again (confirm-cells.ts). */
export function isStrained(cell: Cell): boolean {
  return cell.status === 'error' && (cell.errorKind === 'starved' || cell.errorKind === 'timeout');
}

/** The run's concurrency, starting at `start`; `pinned` (--concurrency N) keeps it there. */
export function createAdaptiveConcurrency(options: { start: number; pinned: boolean }): AdaptiveConcurrency {
  const start = Math.max(1, options.start);
  let limit = start;
  let lowest = start;
  let epoch = 0;
  let backoffs = 0;
  let healthy = 0;
  return {
    current: () => limit,
    begin: () => epoch,
    onCellDone(cellEpoch, cell) {
      if (options.pinned || cellEpoch !== epoch) return;
      if (isStrained(cell)) {
        if (limit === 1) return;
        limit = Math.max(1, Math.floor(limit / 2));
        lowest = Math.min(lowest, limit);
        backoffs++;
        epoch++;
        healthy = 0;
        return;
      }
      if (++healthy >= limit && limit < start) {
        limit++;
        epoch++;
        healthy = 0;
      }
    },
    info: () => ({ start, lowest, backoffs, pinned: options.pinned }),
  };
}
