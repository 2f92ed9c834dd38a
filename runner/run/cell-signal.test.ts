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

  it('hands the signal of a cell that ended clean (not aborted, no listener left) to a later cell, and never one that was aborted or is still listened to', () => {
    const run = new AbortController();
    const first = createCellAbort(run.signal);
    const onAbort = (): void => undefined;
    first.controller.signal.addEventListener('abort', onAbort);
    first.controller.signal.removeEventListener('abort', onAbort);
    first.release();
    first.release(); // twice: still handed on once
    const second = createCellAbort(run.signal);
    const third = createCellAbort(run.signal);
    expect(second.controller.signal).toBe(first.controller.signal);
    expect(third.controller.signal).not.toBe(first.controller.signal);
    // A reused signal still gets the run's abort while its cell is in flight.
    second.controller.signal.addEventListener('abort', onAbort);
    second.release(); // still listened to: not handed on
    third.controller.abort(new Error('budget'));
    third.release(); // aborted: not handed on
    const fourth = createCellAbort(run.signal);
    expect([second.controller.signal, third.controller.signal]).not.toContain(fourth.controller.signal);
    run.abort('stopped');
    expect(fourth.controller.signal.reason).toBe('stopped');
    expect(second.controller.signal.aborted).toBe(false);
  });
});
