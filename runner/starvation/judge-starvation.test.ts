import { describe, expect, it } from 'vitest';
import type { ProcessStarvation, TargetOutcome } from '../vocabulary/types.js';
import { describeStarvation, describeStarvedCell, getStarvedThresholdMs, isDeadlineBound, isMeasured, isStarved, markStarved } from './judge-starvation.js';

const worker = (measures: Omit<ProcessStarvation, 'process'>): ProcessStarvation => ({ process: 'worker', ...measures });

describe('the starvation threshold', () => {
  it('is a quarter of the per-exchange timeout, at least 250 ms', () => {
    expect([400, 1000, 2000, 8000].map(getStarvedThresholdMs)).toEqual([250, 250, 500, 2000]);
  });

  it.each([
    ['a worker with one stall of the threshold', { windowMs: 600, stalledMs: 500, longestStallMs: 500 }, true],
    ['a worker whose loop stood still that long in all, more than half the time', { windowMs: 900, stalledMs: 500, longestStallMs: 300 }, true],
    ['a worker whose loop stood still as long, scattered over a long wait (slowed)', { windowMs: 2400, stalledMs: 700, longestStallMs: 300 }, false],
    ['a worker that waited long for a CPU in short waits, its loop never still for 100 ms', { windowMs: 2300, cpuWaitMs: 1400, stalledMs: 0 }, false],
    ['a client group that waited for a CPU more than half the window and the threshold', { windowMs: 1800, cpuWaitMs: 1000 }, true],
    ['a client group that waited as long, under half a long window (slowed)', { windowMs: 4000, cpuWaitMs: 1000 }, false],
    ['a client group that waited more than half a short window, under the threshold', { windowMs: 300, cpuWaitMs: 290 }, false],
    ['nothing measured', { windowMs: 9000 }, false],
  ])('%s: starved %s (timeout 2000 ms)', (_name, measures, starved) => {
    expect(isStarved(worker(measures), 2000)).toBe(starved);
  });

  it("judges the runner as the mock server by its stalls while an answer was due, and as a classifier's harness by all of them", () => {
    const runner: ProcessStarvation = { process: 'runner', windowMs: 2400, stalledMs: 1500, longestStallMs: 900, stalledWhileDueMs: 100 };
    expect(isStarved(runner, 2000)).toBe(false);
    expect(isStarved(runner, 2000, { asClient: true })).toBe(true);
    expect(isStarved({ ...runner, stalledWhileDueMs: 500 }, 2000)).toBe(true);
  });

  it('marks the starved processes and rounds every measure to whole ms', () => {
    expect(markStarved([worker({ windowMs: 600.4, stalledMs: 550.6, longestStallMs: 550.6 }), { process: 'client', windowMs: 10.2 }, { process: 'runner', windowMs: 600, stalledMs: 550, longestStallMs: 550, stalledWhileDueMs: 0 }], 2000)).toEqual([
      { process: 'worker', windowMs: 600, stalledMs: 551, longestStallMs: 551, starved: true },
      { process: 'client', windowMs: 10 },
      { process: 'runner', windowMs: 600, stalledMs: 550, longestStallMs: 550, stalledWhileDueMs: 0 },
    ]);
  });

  it('tells a process that measured something from one that could not', () => {
    expect(isMeasured({ process: 'client', windowMs: 5 })).toBe(false);
    expect(isMeasured({ process: 'client', windowMs: 5, cpuWaitMs: 0 })).toBe(true);
  });
});

describe('an outcome a deadline produced', () => {
  const outcome = (extra: Partial<TargetOutcome>): TargetOutcome => ({ verdicts: [{ outcome: 'TOOL_ERROR', layer: 'application' }], ...extra });

  it.each([
    ['a NO_RESPONSE verdict', { verdicts: [null, { outcome: 'NO_RESPONSE', layer: 'transport' }] }, true],
    ['a STREAM_INCOMPLETE verdict', { verdicts: [{ outcome: 'STREAM_INCOMPLETE', layer: 'transport' }] }, true],
    ['a client killed at its time limit', { run: { timedOut: true, durationMs: 1 } }, true],
    ["an error of a deadline of the runner's", { error: 'x', errorKind: 'timeout' }, true],
    ['a call the client concluded nothing about', { verdicts: [null] }, true],
    ['a verdict the answer produced', {}, false],
    ['an error of another kind', { error: 'the client could not be started' }, false],
  ] as const)('is %s: %s', (_name, extra, bound) => {
    expect(isDeadlineBound(outcome(extra as Partial<TargetOutcome>))).toBe(bound);
  });
});

describe('the words for starvation', () => {
  it('name the process, what it lost and over how long', () => {
    expect(describeStarvation({ process: 'worker', windowMs: 2100, cpuWaitMs: 1234, stalledMs: 800, longestStallMs: 600 })).toBe(
      'the SDK worker: waited 1,234 ms for a CPU and its event loop stood still 800 ms (the longest stall 600 ms), in 2,100 ms',
    );
    expect(describeStarvation({ process: 'client', windowMs: 900, cpuWaitMs: 700 })).toBe('the client process: waited 700 ms for a CPU, in 900 ms');
  });

  it('give a starved cell its cause, the threshold and the remedy', () => {
    expect(describeStarvedCell([{ process: 'runner', windowMs: 1000, stalledMs: 900, longestStallMs: 900 }], 2000)).toBe(
      'not measured: a deadline produced the outcome while the runner (its mock server and harness): its event loop stood still 900 ms (the longest stall 900 ms), in 1,000 ms ' +
        '(the threshold is a quarter of the 2,000 ms timeout, at least 250 ms: 500 ms), so the machine\'s load, not the target, may have decided it; ' +
        'run again on a less loaded machine, or with a lower --concurrency (e.g. --concurrency 2) or a higher --timeout',
    );
  });
});
