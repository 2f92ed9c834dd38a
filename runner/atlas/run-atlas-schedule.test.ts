// The atlas's schedule, with measures that settle when the test says so (no timers): bounded live
// workers, every stack advancing, the walk back's edge, reuse without a worker, stops and failures.
import { describe, expect, it } from 'vitest';
import type { StackPlan } from './plan-atlas.js';
import { runAtlasSchedule, type ScheduledOutcome } from './run-atlas-schedule.js';

type Outcome = ScheduledOutcome & { id: string };

const plan = (kind: string, versions: string[], walkBack = true): StackPlan => ({ kind, versions, releases: 'minors', walkBack });

/** A measure whose calls wait until released by id; records the most calls ever running at once. */
function createGate(states: Record<string, Outcome['state']> = {}) {
  const waiting = new Map<string, { release: () => void; signal: AbortSignal }>();
  const started: string[] = [];
  let live = 0;
  let maxLive = 0;
  const measure = (kind: string, version: string, signal: AbortSignal): Promise<Outcome> => {
    const id = `${kind}@${version}`;
    started.push(id);
    maxLive = Math.max(maxLive, ++live);
    return new Promise<Outcome>((resolve) => {
      const finish = (interrupted: boolean) => {
        live--;
        waiting.delete(id);
        resolve({ id, state: states[id] ?? 'measured', ...(interrupted ? { interrupted: true } : {}) });
      };
      signal.addEventListener('abort', () => finish(true), { once: true });
      waiting.set(id, { release: () => finish(false), signal });
    });
  };
  // Lets the schedule react to what settled (a few microtask turns).
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return {
    measure,
    started,
    get maxLive() {
      return maxLive;
    },
    running: () => [...waiting.keys()].sort(),
    async release(id: string) {
      const entry = waiting.get(id);
      if (!entry) throw new Error(`${id} is not running (running: ${[...waiting.keys()].join(', ')})`);
      entry.release();
      await settle();
    },
    async releaseAll() {
      while (waiting.size > 0) {
        for (const id of [...waiting.keys()]) await this.release(id);
      }
    },
    settle,
  };
}

describe('runAtlasSchedule', () => {
  it('never has more versions measuring at once than workers, and measures every version once', async () => {
    const gate = createGate();
    const plans = [plan('a', ['3.0.0', '2.0.0', '1.0.0']), plan('b', ['2.1.0', '2.0.0']), plan('c', ['9.0.0'])];
    const done = runAtlasSchedule({ plans, workers: 2, reuse: () => undefined, measure: gate.measure });
    await gate.settle();
    expect(gate.running()).toHaveLength(2);
    await gate.releaseAll();
    const stacks = await done;
    expect(gate.maxLive).toBe(2);
    expect(gate.started.sort()).toEqual(['a@1.0.0', 'a@2.0.0', 'a@3.0.0', 'b@2.0.0', 'b@2.1.0', 'c@9.0.0']);
    expect(stacks.map((s) => [s.kind, s.outcomes.map((o) => o.version)])).toEqual([
      ['a', ['3.0.0', '2.0.0', '1.0.0']],
      ['b', ['2.1.0', '2.0.0']],
      ['c', ['9.0.0']],
    ]);
  });

  it('gives a free slot to the stack with the fewest versions in flight, each stack newest first', async () => {
    const gate = createGate();
    const plans = [plan('a', ['3.0.0', '2.0.0', '1.0.0']), plan('b', ['2.1.0', '2.0.0'])];
    const done = runAtlasSchedule({ plans, workers: 2, reuse: () => undefined, measure: gate.measure });
    await gate.settle();
    expect(gate.running()).toEqual(['a@3.0.0', 'b@2.1.0']);
    await gate.release('a@3.0.0');
    expect(gate.running()).toEqual(['a@2.0.0', 'b@2.1.0']);
    await gate.releaseAll();
    await done;
  });

  it('stops a walk back at the first version that speaks nothing: older ones are neither started nor kept', async () => {
    const gate = createGate({ 'a@2.0.0': 'speaks-none' });
    const done = runAtlasSchedule({ plans: [plan('a', ['4.0.0', '3.0.0', '2.0.0', '1.0.0', '0.9.0'])], workers: 1, reuse: () => undefined, measure: gate.measure });
    await gate.releaseAll();
    const [stack] = await done;
    expect(gate.started).toEqual(['a@4.0.0', 'a@3.0.0', 'a@2.0.0']);
    expect(stack).toMatchObject({ edge: '2.0.0', beyondEdge: ['1.0.0', '0.9.0'], pending: [] });
    expect(stack!.outcomes.map((o) => [o.version, o.outcome.state])).toEqual([
      ['4.0.0', 'measured'],
      ['3.0.0', 'measured'],
      ['2.0.0', 'speaks-none'],
    ]);
  });

  it('stops and drops an older version already running when a newer one turns out to be the edge', async () => {
    const gate = createGate({ 'a@2.0.0': 'not-started' });
    const dropped: string[] = [];
    const done = runAtlasSchedule({
      plans: [plan('a', ['2.0.0', '1.0.0'])],
      workers: 2,
      reuse: () => undefined,
      measure: gate.measure,
      onSettled: (event) => event.dropped && dropped.push(event.version),
    });
    await gate.settle();
    expect(gate.running()).toEqual(['a@1.0.0', 'a@2.0.0']);
    await gate.release('a@2.0.0');
    const [stack] = await done;
    expect(dropped).toEqual(['1.0.0']);
    expect(stack).toMatchObject({ edge: '2.0.0', beyondEdge: ['1.0.0'], pending: [] });
    expect(stack!.outcomes.map((o) => o.version)).toEqual(['2.0.0']);
  });

  it('keeps the newest of two versions that speak nothing as the edge, whichever settles first', async () => {
    const gate = createGate({ 'a@2.0.0': 'speaks-none', 'a@1.0.0': 'speaks-none' });
    const done = runAtlasSchedule({ plans: [plan('a', ['3.0.0', '2.0.0', '1.0.0'])], workers: 3, reuse: () => undefined, measure: gate.measure });
    await gate.settle();
    await gate.release('a@1.0.0');
    await gate.release('a@2.0.0');
    await gate.release('a@3.0.0');
    const [stack] = await done;
    expect(stack).toMatchObject({ edge: '2.0.0', beyondEdge: ['1.0.0'] });
    expect(stack!.outcomes.map((o) => o.version)).toEqual(['3.0.0', '2.0.0']);
  });

  it('measures every version of an explicit range, even past one that speaks nothing', async () => {
    const gate = createGate({ 'a@2.0.0': 'speaks-none' });
    const done = runAtlasSchedule({ plans: [plan('a', ['3.0.0', '2.0.0', '1.0.0'], false)], workers: 1, reuse: () => undefined, measure: gate.measure });
    await gate.releaseAll();
    const [stack] = await done;
    expect(stack!.edge).toBeUndefined();
    expect(stack!.outcomes.map((o) => o.version)).toEqual(['3.0.0', '2.0.0', '1.0.0']);
  });

  it('takes a reused version without a worker, and a reused version that speaks nothing is the edge', async () => {
    const gate = createGate();
    const stored: Record<string, Outcome> = { 'a@3.0.0': { id: 'stored-3', state: 'measured' }, 'a@1.0.0': { id: 'stored-1', state: 'speaks-none' } };
    const done = runAtlasSchedule({ plans: [plan('a', ['4.0.0', '3.0.0', '2.0.0', '1.0.0', '0.1.0'])], workers: 1, reuse: (kind, version) => stored[`${kind}@${version}`], measure: gate.measure });
    await gate.releaseAll();
    const [stack] = await done;
    expect(gate.started).toEqual(['a@4.0.0', 'a@2.0.0']);
    expect(stack!.outcomes.map((o) => [o.version, o.reused])).toEqual([
      ['4.0.0', false],
      ['3.0.0', true],
      ['2.0.0', false],
      ['1.0.0', true],
    ]);
    expect(stack).toMatchObject({ edge: '1.0.0', beyondEdge: ['0.1.0'] });
  });

  it('on a stop, keeps what finished, stops what runs and lists the rest as pending', async () => {
    const gate = createGate();
    const stop = new AbortController();
    const done = runAtlasSchedule({ plans: [plan('a', ['3.0.0', '2.0.0', '1.0.0'])], workers: 1, reuse: () => undefined, measure: gate.measure, signal: stop.signal });
    await gate.release('a@3.0.0');
    stop.abort('SIGINT');
    const [stack] = await done;
    expect(stack!.outcomes.map((o) => o.version)).toEqual(['3.0.0']);
    expect(stack!.pending).toEqual(['2.0.0', '1.0.0']);
    expect(gate.started).toEqual(['a@3.0.0', 'a@2.0.0']);
  });

  it('rethrows a measure that throws, once the others have stopped', async () => {
    let calls = 0;
    const measure = async (_kind: string, version: string, signal: AbortSignal): Promise<Outcome> => {
      calls++;
      if (version === '2.0.0') throw new Error('harness bug');
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      return { id: version, state: 'measured', interrupted: true };
    };
    await expect(runAtlasSchedule({ plans: [plan('a', ['3.0.0']), plan('b', ['2.0.0'])], workers: 2, reuse: () => undefined, measure })).rejects.toThrow('harness bug');
    expect(calls).toBe(2);
  });
});
