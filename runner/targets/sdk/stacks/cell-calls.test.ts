// One call observed under the host's last-resort abort (cell-calls.mjs observeCall): what the
// library returned or threw, and whether it settled only after the last resort (hostAborted) or
// not at all (hung). The budgets are tiny and nothing is asserted about durations.
import { describe, expect, it } from 'vitest';

interface CellCallsModule {
  observeCall(run: (signal: AbortSignal) => Promise<unknown>, classes: Record<string, unknown>, budgetMs: number): Promise<Record<string, unknown>>;
  withCallDeadline<T>(ms: number, hostSignal: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T>;
}
const { observeCall, withCallDeadline } = (await import(new URL('./cell-calls.mjs', import.meta.url).href)) as CellCallsModule;

const untilAborted = (signal: AbortSignal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

describe('observeCall', () => {
  it('records a returned value and a thrown error before the last resort, without hostAborted', async () => {
    expect(await observeCall(async () => ({ content: [] }), {}, 60_000)).toEqual({ returned: { content: [] } });
    const threw = await observeCall(async () => Promise.reject(new TypeError('fetch failed')), {}, 60_000);
    expect(threw).toMatchObject({ threw: { class: 'TypeError', message: 'fetch failed' } });
    expect(threw).not.toHaveProperty('hostAborted');
  });

  it("marks an error thrown only after the host's last-resort abort as hostAborted", async () => {
    expect(await observeCall(untilAborted, {}, 5)).toMatchObject({ threw: { class: 'DOMException', name: 'AbortError' }, hostAborted: true });
  });

  it('records a call that never settles, even after the last resort, as hung', async () => {
    expect(await observeCall(() => new Promise(() => {}), {}, 5)).toMatchObject({ hung: { afterMs: expect.any(Number) } });
  }, 20_000);
});

describe('withCallDeadline', () => {
  it("aborts the call's signal at its own deadline with a TimeoutError, before the host's last resort", async () => {
    const host = new AbortController();
    await expect(withCallDeadline(5, host.signal, (signal) => untilAborted(signal).catch(() => Promise.reject(signal.reason)))).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(host.signal.aborted).toBe(false);
  });

  it("passes the host's last-resort abort on", async () => {
    const host = new AbortController();
    const running = withCallDeadline(60_000, host.signal, (signal) => untilAborted(signal).catch(() => Promise.reject(signal.reason)));
    host.abort(new Error('last resort'));
    await expect(running).rejects.toThrow('last resort');
  });
});
