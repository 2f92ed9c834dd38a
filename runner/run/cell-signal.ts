// Each cell's own abort signal, stopped by the run's signal or by the cell's budget. One listener
// on the run's signal serves every cell in flight (a set of their controllers), so dozens of
// cells neither pile listeners on it nor each pay for an AbortSignal.any.

export interface CellAbort {
  /** Aborted with the run's reason when the run's signal aborts; the cell aborts it itself when its budget runs out. */
  readonly controller: AbortController;
  /** The cell is over: the run's abort no longer reaches it. */
  release(): void;
}

// Per run signal, the controllers of the cells in flight (gone with the signal).
const cellsByRun = new WeakMap<AbortSignal, Set<AbortController>>();

/** Creates a cell's controller linked to the run's signal (one listener per run signal, added on first use). */
export function createCellAbort(run: AbortSignal): CellAbort {
  const controller = new AbortController();
  if (run.aborted) {
    controller.abort(run.reason);
    return { controller, release: () => undefined };
  }
  let cells = cellsByRun.get(run);
  if (!cells) {
    const inFlight = new Set<AbortController>();
    cellsByRun.set(run, inFlight);
    run.addEventListener(
      'abort',
      () => {
        for (const cell of [...inFlight]) cell.abort(run.reason);
        inFlight.clear();
      },
      { once: true },
    );
    cells = inFlight;
  }
  const own = cells;
  own.add(controller);
  return { controller, release: () => void own.delete(controller) };
}
