// The drain window (drain-wire.mjs): it ends only once the cell's wire stood still for the quiet
// period, and it is bounded. No assertion on durations: only on what it saw, in order.
import { describe, expect, it } from 'vitest';

interface DrainModule {
  drainWire(log: { postActivity: number; pendingSends: Set<unknown> }, window?: Record<string, number>): Promise<{ quietMs: number; spentMs: number; bounded?: true }>;
  DRAIN_WINDOW: { quietMs: number; stepMs: number; maxMs: number; maxWallFactor: number };
}
const { drainWire, DRAIN_WINDOW } = (await import(new URL('./drain-wire.mjs', import.meta.url).href)) as DrainModule;

describe('drainWire', () => {
  it('waits while POSTs keep starting, and ends only after the wire stood still for the quiet period', async () => {
    const log = { postActivity: 0, pendingSends: new Set<unknown>() };
    let sends = 0;
    const sender = setInterval(() => {
      if (sends++ < 8) log.postActivity++;
    }, 5);
    const result = await drainWire(log, { ...DRAIN_WINDOW, quietMs: 60, stepMs: 10, maxMs: 60_000 });
    clearInterval(sender);
    expect(sends).toBeGreaterThan(8);
    expect(result.bounded).toBeUndefined();
    expect(result.quietMs).toBeGreaterThanOrEqual(60);
  });

  it('waits for a send the library did not await', async () => {
    const log = { postActivity: 0, pendingSends: new Set<unknown>(['pending']) };
    let cleared = false;
    setTimeout(() => {
      log.pendingSends.clear();
      cleared = true;
    }, 30);
    await drainWire(log, { ...DRAIN_WINDOW, quietMs: 20, stepMs: 10, maxMs: 60_000 });
    expect(cleared).toBe(true);
  });

  it('is bounded: a wire that never stands still ends the window at its bound, and says so', async () => {
    const log = { postActivity: 0, pendingSends: new Set<unknown>() };
    const sender = setInterval(() => log.postActivity++, 2);
    const result = await drainWire(log, { ...DRAIN_WINDOW, quietMs: 1_000_000, stepMs: 10, maxMs: 100 });
    clearInterval(sender);
    expect(result.bounded).toBe(true);
  });
});
