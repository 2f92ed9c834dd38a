// Confirm before judging, over made-up cells (no timer, no load): which cells run again, what a
// re-run may replace, and what a cell that stays starved becomes.
import { describe, expect, it } from 'vitest';
import type { Cell, ProcessStarvation } from '../vocabulary/types.js';
import { confirmCells, findRerunReason, MAX_RERUNS } from './confirm-cells.js';

const STARVED_WORKER: ProcessStarvation = { process: 'worker', windowMs: 3000, stalledMs: 2900, longestStallMs: 2900, starved: true };
const QUIET_WORKER: ProcessStarvation = { process: 'worker', windowMs: 80, stalledMs: 0, cpuWaitMs: 1 };
const RUNNER: ProcessStarvation = { process: 'runner', windowMs: 80, stalledMs: 0, cpuWaitMs: 2 };

function makeCell(name: string, overrides: Partial<Cell>): Cell {
  return { case: name, target: 't', protocolVersion: '2026-07-28', status: 'pass', checks: [], expected: [], actual: [], schema: [], durationMs: 1, repro: 'r', ...overrides };
}
const starved = (name: string) =>
  makeCell(name, {
    status: 'error',
    errorKind: 'starved',
    reason: 'not measured: …',
    actual: [{ outcome: 'NO_RESPONSE', layer: 'transport' }],
    timing: { deadlineBound: true, processes: [RUNNER, STARVED_WORKER] },
  });
const measuredTimeout = (name: string) => makeCell(name, { status: 'pass', actual: [{ outcome: 'NO_RESPONSE', layer: 'transport' }], timing: { deadlineBound: true, processes: [RUNNER, QUIET_WORKER] } });

/** Confirms `cells`, each planned as its own name; `rerun` answers per name and attempt. */
async function confirm(cells: Cell[], rerun: (name: string, attempt: number) => Cell) {
  const attempts = new Map<string, number>();
  const concurrency: number[] = [];
  let running = 0;
  const result = await confirmCells({
    cells: cells.map((cell) => ({ planned: cell.case, cell })),
    rerun: async (name) => {
      concurrency.push(++running);
      await Promise.resolve();
      running--;
      const attempt = (attempts.get(name) ?? 0) + 1;
      attempts.set(name, attempt);
      return rerun(name, attempt);
    },
    waits: () => false,
    cores: 2,
    signal: new AbortController().signal,
  });
  return { ...result, attempts, concurrency };
}

describe('confirming cells after the main pass', () => {
  it('runs a starved deadline-produced cell again, and its measured result replaces the first', async () => {
    const { cells, reruns, attempts } = await confirm([starved('hang'), makeCell('ok', {})], () => measuredTimeout('hang'));
    expect(attempts).toEqual(new Map([['hang', 1]]));
    expect(cells[0]).toMatchObject({ case: 'hang', status: 'pass', timing: { deadlineBound: true, rerun: { reason: 'starved', runs: 2, confirmed: true } } });
    expect(cells[1]).toEqual(makeCell('ok', {}));
    expect(reruns).toEqual({ cells: 1, confirmed: 1, byReason: { starved: 1 } });
  });

  it('leaves a cell that stays starved error, after one run at low concurrency and the others alone', async () => {
    const { cells, reruns, attempts, concurrency } = await confirm([starved('a'), starved('b'), starved('c')], (name) => starved(name));
    expect(MAX_RERUNS).toBe(3);
    expect([...attempts.values()]).toEqual([3, 3, 3]);
    // The first re-run goes two at a time (the cores), the later ones one at a time.
    expect(Math.max(...concurrency.slice(0, 3))).toBe(2);
    expect(concurrency.slice(3)).toEqual([1, 1, 1, 1, 1, 1]);
    for (const cell of cells) expect(cell).toMatchObject({ status: 'error', errorKind: 'starved', timing: { rerun: { reason: 'starved', runs: 4, confirmed: false } } });
    expect(reruns).toEqual({ cells: 3, confirmed: 0, byReason: { starved: 3 } });
  });

  it('never turns an unmeasured result into a pass: a starved re-run is not a confirmation, whatever it concluded', async () => {
    const { cells } = await confirm([starved('hang')], (name, attempt) => (attempt === 1 ? starved(name) : measuredTimeout(name)));
    expect(cells[0]).toMatchObject({ status: 'pass', timing: { rerun: { runs: 3, confirmed: true } } });
    const stays = await confirm([starved('hang')], (name) => ({ ...starved(name), status: 'error' as const }));
    expect(stays.cells[0]!.status).toBe('error');
  });

  it('lets a deadline-produced outcome stand when no process was starved: it is not run again', async () => {
    const { cells, reruns, attempts } = await confirm([measuredTimeout('hang')], () => {
      throw new Error('not run again');
    });
    expect(attempts.size).toBe(0);
    expect(reruns).toBeUndefined();
    expect(cells[0]!.timing!.rerun).toBeUndefined();
  });

  it("runs a deadline of the runner's that ran out again, and keeps a timeout no starvation explains as the target's", async () => {
    const timedOut = (name: string, processes: ProcessStarvation[]) => makeCell(name, { status: 'error', errorKind: 'timeout', reason: 'the SDK worker gave no answer within 9000 ms', timing: { deadlineBound: true, processes } });
    const { cells, reruns } = await confirm([timedOut('wedged', [RUNNER])], (name) => timedOut(name, [RUNNER]));
    expect(cells[0]).toMatchObject({ status: 'error', errorKind: 'timeout', timing: { rerun: { reason: 'timeout', runs: 2, confirmed: true } } });
    expect(reruns).toEqual({ cells: 1, confirmed: 1, byReason: { timeout: 1 } });
  });

  it("runs a deadline-produced outcome again where the client's starvation could not be measured, and keeps that run", async () => {
    const unmeasured = makeCell('hang', { status: 'fail', actual: [{ outcome: 'NO_RESPONSE', layer: 'transport' }], timing: { deadlineBound: true, processes: [RUNNER, { process: 'client', windowMs: 2000 }] } });
    expect(findRerunReason(unmeasured)).toBe('unmeasured');
    const { cells, reruns } = await confirm([unmeasured], () => ({ ...unmeasured, status: 'pass' }));
    expect(cells[0]).toMatchObject({ status: 'pass', timing: { rerun: { reason: 'unmeasured', runs: 2, confirmed: true } } });
    expect(reruns).toEqual({ cells: 1, confirmed: 1, byReason: { unmeasured: 1 } });
  });

  it('keeps the first result of a cell the stopped run did not get to run again, and counts no re-run', async () => {
    const stop = new AbortController();
    stop.abort();
    const result = await confirmCells({ cells: [{ planned: 'x', cell: starved('x') }], rerun: async () => undefined, waits: () => false, cores: 2, signal: stop.signal });
    expect(result.reruns).toBeUndefined();
    expect(result.cells[0]).toEqual(starved('x'));
  });
});
