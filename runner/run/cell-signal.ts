// Each cell's own abort signal, stopped by the run's signal or by the cell's budget. One listener
// on the run's signal serves every cell in flight (a set of their controllers), so dozens of
// cells neither pile listeners on it nor each pay for an AbortSignal.any. A signal costs more to
// make than all of a harness session's deadlines (its EventTarget's maps, made on first read), so
// the signal of a cell that ended clean, neither aborted nor still listened to, serves a later cell.
import { getEventListeners } from 'node:events';

export interface CellAbort {
  /** Aborted with the run's reason when the run's signal aborts; the cell aborts it itself when its budget runs out. */
  readonly controller: AbortController;
  /** The cell is over: the run's abort no longer reaches it. */
  release(): void;
}

interface RunCells {
  /** The controllers of the cells in flight. */
  inFlight: Set<AbortController>;
  /** Controllers of finished cells, clean, for the next cells. */
  spare: AbortController[];
}

// More spare controllers than cells in flight at once are never needed; a small bound is plenty.
const MAX_SPARE = 64;

// Per run signal, its cells (gone with the signal).
const cellsByRun = new WeakMap<AbortSignal, RunCells>();

/** Creates a cell's controller linked to the run's signal (one listener per run signal, added on first use). */
export function createCellAbort(run: AbortSignal): CellAbort {
  if (run.aborted) {
    const controller = new AbortController();
    controller.abort(run.reason);
    return { controller, release: () => undefined };
  }
  let cells = cellsByRun.get(run);
  if (!cells) {
    const created: RunCells = { inFlight: new Set(), spare: [] };
    cellsByRun.set(run, created);
    run.addEventListener(
      'abort',
      () => {
        for (const cell of [...created.inFlight]) cell.abort(run.reason);
        created.inFlight.clear();
        created.spare.length = 0;
      },
      { once: true },
    );
    cells = created;
  }
  const own = cells;
  const controller = takeSpare(own) ?? new AbortController();
  own.inFlight.add(controller);
  let released = false;
  return {
    controller,
    release: () => {
      if (released) return;
      released = true;
      own.inFlight.delete(controller);
      if (!run.aborted && isClean(controller) && own.spare.length < MAX_SPARE) own.spare.push(controller);
    },
  };
}

function takeSpare(cells: RunCells): AbortController | undefined {
  // Checked again when taken: a target may have listened on a signal after its cell ended.
  for (let controller = cells.spare.pop(); controller !== undefined; controller = cells.spare.pop()) {
    if (isClean(controller)) return controller;
  }
  return undefined;
}

/** Neither aborted nor listened to: no listener of its last cell can be reached by a later cell's abort. */
function isClean(controller: AbortController): boolean {
  return !controller.signal.aborted && getEventListeners(controller.signal, 'abort').length === 0;
}
