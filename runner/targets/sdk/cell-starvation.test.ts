// The worker's own measure of its starvation (cell-starvation.mjs), with the loop blocked on
// purpose: a block is a lower bound whatever the machine's load, never a race.
import { describe, expect, it } from 'vitest';
import { hasCpuWaitCounter } from '../../starvation/schedstat.js';
import type { ProcessStarvation } from '../../vocabulary/types.js';

/** The plain-ESM module's exports, typed for this test. */
interface CellStarvationModule {
  startCellMeter(): { stop(): ProcessStarvation };
  waitQuietly(ms: number, options?: { maxCreditMs?: number }): Promise<number>;
  blockLoopForTest(ms: number): void;
}
const MODULE = './cell-starvation.mjs';
const { blockLoopForTest, startCellMeter, waitQuietly } = (await import(MODULE)) as CellStarvationModule;

describe("a worker's cell meter", () => {
  it('measures a block of its event loop during the cell as loop delay and one stall', async () => {
    const meter = startCellMeter();
    await new Promise((resolve) => setTimeout(resolve, 30));
    blockLoopForTest(400);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const measured = meter.stop();
    expect(measured.process).toBe('worker');
    expect(measured.windowMs).toBeGreaterThanOrEqual(450);
    expect(measured.longestStallMs).toBeGreaterThanOrEqual(380);
    expect(measured.stalledMs).toBeGreaterThanOrEqual(380);
    if (hasCpuWaitCounter()) expect(measured.cpuWaitMs).toBeGreaterThanOrEqual(0);
    else expect(measured.cpuWaitMs).toBeUndefined();
  });

  it('counts a block still under way when the cell ends', () => {
    const meter = startCellMeter();
    blockLoopForTest(300);
    expect(meter.stop().longestStallMs).toBeGreaterThanOrEqual(280);
  });
});

describe('a quiet time counted in time the worker could run', () => {
  it('gives back the time its loop was blocked, up to the wait itself', async () => {
    const started = performance.now();
    setTimeout(() => blockLoopForTest(400), 10);
    const credited = await waitQuietly(100);
    // The block (about 390 ms after its first 10 ms) is more than the wait: the credit is capped at it.
    expect(credited).toBe(100);
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('lasts its time when nothing held the loop up', async () => {
    const started = performance.now();
    await waitQuietly(60, { maxCreditMs: 0 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
  });
});
