import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createCellAbort } from './cell-signal.js';

describe('createCellAbort', () => {
  it("adds one listener to the run's signal however many cells are in flight, and aborts those still in flight with the run's reason", () => {
    const run = new AbortController();
    const cells = Array.from({ length: 40 }, () => createCellAbort(run.signal));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    cells[0]!.release();
    run.abort('stopped by the user');
    expect(cells[0]!.controller.signal.aborted).toBe(false);
    for (const cell of cells.slice(1)) expect(cell.controller.signal.reason).toBe('stopped by the user');
  });

  it('aborts a cell at once when the run has already stopped, and lets a cell abort alone (its budget)', () => {
    const run = new AbortController();
    const [one, two] = [createCellAbort(run.signal), createCellAbort(run.signal)];
    one.controller.abort(new Error('budget'));
    expect(two.controller.signal.aborted).toBe(false);
    expect(run.signal.aborted).toBe(false);
    run.abort('fatal');
    expect(createCellAbort(run.signal).controller.signal.reason).toBe('fatal');
    expect(two.controller.signal.reason).toBe('fatal');
  });
});
