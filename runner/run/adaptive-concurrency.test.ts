import { describe, expect, it } from 'vitest';
import type { Cell } from '../vocabulary/types.js';
import { createAdaptiveConcurrency } from './adaptive-concurrency.js';
import { runPool } from './run-pool.js';

const cell = (overrides: Partial<Cell> = {}): Cell => ({ case: 'c', target: 't', protocolVersion: '2026-07-28', status: 'pass', checks: [], expected: [], actual: [], schema: [], durationMs: 1, repro: 'r', ...overrides });
const STARVED = cell({ status: 'error', errorKind: 'starved', reason: 'not measured' });
const TIMED_OUT = cell({ status: 'error', errorKind: 'timeout', reason: 'the harness got no complete response' });

describe('the adaptive concurrency', () => {
  it('halves when a cell comes back unmeasured for lack of time, once for the cells started under the same limit', () => {
    const limit = createAdaptiveConcurrency({ start: 24, pinned: false });
    const epochs = [limit.begin(), limit.begin(), limit.begin()];
    limit.onCellDone(epochs[0]!, STARVED);
    expect(limit.current()).toBe(12);
    // Started under 24: they report the load of that limit, not of this one.
    limit.onCellDone(epochs[1]!, TIMED_OUT);
    limit.onCellDone(epochs[2]!, STARVED);
    expect(limit.current()).toBe(12);
    limit.onCellDone(limit.begin(), TIMED_OUT);
    expect(limit.current()).toBe(6);
    expect(limit.info()).toEqual({ start: 24, lowest: 6, backoffs: 2, pinned: false });
  });

  it('does not back off for an error of another kind, nor for a cell that was measured', () => {
    const limit = createAdaptiveConcurrency({ start: 8, pinned: false });
    limit.onCellDone(limit.begin(), cell({ status: 'error', reason: 'the client could not be started' }));
    limit.onCellDone(limit.begin(), cell({ status: 'fail', timing: { deadlineBound: true, processes: [{ process: 'runner', windowMs: 900, cpuWaitMs: 800, starved: true }] } }));
    expect(limit.current()).toBe(8);
  });

  it('climbs back by one per limit of measured cells, never above where it started', () => {
    const limit = createAdaptiveConcurrency({ start: 4, pinned: false });
    limit.onCellDone(limit.begin(), STARVED);
    limit.onCellDone(limit.begin(), STARVED);
    expect(limit.current()).toBe(1);
    const finish = (count: number) => {
      for (let i = 0; i < count; i++) limit.onCellDone(limit.begin(), cell());
    };
    finish(1);
    expect(limit.current()).toBe(2);
    finish(2);
    expect(limit.current()).toBe(3);
    finish(3);
    expect(limit.current()).toBe(4);
    finish(40);
    expect(limit.current()).toBe(4);
    expect(limit.info()).toMatchObject({ lowest: 1, backoffs: 2 });
  });

  it('stays where --concurrency pinned it', () => {
    const limit = createAdaptiveConcurrency({ start: 3, pinned: true });
    limit.onCellDone(limit.begin(), STARVED);
    expect(limit.current()).toBe(3);
    expect(limit.info()).toEqual({ start: 3, lowest: 3, backoffs: 0, pinned: true });
  });
});

describe('a pool under a limit that changes', () => {
  it('starts fewer jobs once the limit falls, lets the running ones finish, and keeps the input order', async () => {
    let limit = 4;
    let running = 0;
    const seen: number[] = [];
    const gates: (() => void)[] = [];
    const results = runPool(
      Array.from({ length: 10 }, (_, index) => index),
      { current: () => limit },
      async (item) => {
        seen.push(++running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return item * 2;
      },
    );
    await Promise.resolve();
    expect(running).toBe(4);
    limit = 1;
    // Release jobs one by one: the pool drains to one at a time.
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await results).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(seen.slice(4).every((count) => count === 1)).toBe(true);
  });
});
