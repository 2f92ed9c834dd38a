// The persistent lane end to end: real client processes, the real mock server, runMatrix. Each
// faulty client breaks the protocol on the cells of one case only; that cell is `error` with
// the reason, every other cell is judged as usual, and nothing the clients started survives.
// The faulty clients run one cell at a time, so "only that cell" is exact: a process that
// crashes or breaks the protocol takes down every cell it holds at that moment (README).
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { countMarkedProcesses } from '../../../test/hostile/process-census.js';
import type { LoadedCase } from '../../cases/case-types.js';
import { loadCases } from '../../cases/load-cases.js';
import { runMatrix } from '../../run/run-matrix.js';
import type { Cell, RunResult, Target } from '../../vocabulary/types.js';
import { createCommandTarget, resolveCommandTarget } from '../command-target.js';
import { hasCpuWaitCounter } from '../../starvation/schedstat.js';
import { MAX_DEAD_STARTS } from './persistent-pool.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const CASES = ['baseline', 'tool-is-error', 'http-503-empty-body', 'mrtr-form-with-state'];
const MARK = `mem-persistent-${process.pid}`;
const CORRECT = 'command:node test/fixtures/clients/persistent-client.mjs #persistent=2';
const FAULTS = ['dies', 'garbage', 'unknown-cell', 'flood', 'silent'] as const;

let table: LoadedCase[];
let matrix: RunResult;
const name = (fault: string): string => `faulty:${fault}`;
const cellOf = (target: string, caseId: string, version = '2026-07-28'): Cell => {
  const cell = matrix.cells.find((c) => c.target === target && c.case === caseId && c.protocolVersion === version);
  if (!cell) throw new Error(`no cell ${target} ${caseId} ${version}`);
  return cell;
};
// Cells per target: every selected case at every version it applies to.
const countCells = (): number => table.reduce((sum, item) => sum + item.case.versions.length, 0);
const cellsOf = (target: string): Cell[] => matrix.cells.filter((cell) => cell.target === target && cell.status !== 'skip');

beforeAll(async () => {
  table = (await loadCases({ cwd: ROOT })).filter((item) => CASES.includes(item.case.id));
  // Every process this file starts carries the mark (children inherit the environment).
  process.env.HOSTILE_MARK = MARK;
  const env = { ...process.env };
  // The correct client, from the spec a user writes: two processes, four cells in flight at a time.
  const correct = [resolveCommandTarget('command:node test/fixtures/clients/persistent-client.mjs #persistent=2', { cwd: ROOT })];
  // Only `silent` is judged on its deadline. The others answer or fail at once, and a first cell also
  // waits for the client to start: at load 11-18, 3 s did not cover that start (`dies` failed its
  // first, healthy cell `error` in two full-suite runs, and passed alone).
  const faulty: Target[] = [
    ...FAULTS.map((fault) =>
      createCommandTarget({ name: name(fault), command: `node test/fixtures/clients/persistent-faulty.mjs ${fault} tool-is-error`, persistent: 1, cwd: ROOT, env, timeoutMs: fault === 'silent' ? 3000 : 15_000 }),
    ),
    createCommandTarget({ name: 'null-verdict', command: 'node test/fixtures/clients/persistent-faulty.mjs null-verdict tool-is-error', persistent: 1, cwd: ROOT, env }),
    createCommandTarget({ name: 'exits-at-start', command: 'node test/fixtures/clients/persistent-faulty.mjs exits-at-start -', persistent: 1, cwd: ROOT, env }),
  ];
  // The run's timeout is long although every answer comes at once: a cell is `error` when this
  // process's loop stalls for half of it (run-cell.ts). In one full-suite run the first cell of
  // both runs, while the nine clients were starting, was `error` after a 2.5 s stall at 4000 ms.
  // Wedged on baseline, the table's first case: every later case runs after a wedge. A run of its
  // own, so the faulty targets' run does not wait for its deadlines.
  const wedged = [createCommandTarget({ name: 'wedged', command: 'node test/fixtures/clients/persistent-faulty.mjs wedged baseline', persistent: 1, cwd: ROOT, env, timeoutMs: 8000 })];
  const [together, oneAtATime, wedgedRun] = await Promise.all([
    runMatrix({ cases: table, targets: correct, timeoutMs: 10_000, concurrency: 4 }),
    runMatrix({ cases: table, targets: faulty, timeoutMs: 10_000, concurrency: 1 }),
    runMatrix({ cases: table, targets: wedged, timeoutMs: 10_000, concurrency: 1 }),
  ]);
  matrix = { ...together, cells: [...together.cells, ...oneAtATime.cells, ...wedgedRun.cells] };
  await Promise.all([...correct, ...faulty, ...wedged].map((target) => target.close?.()));
  // A bound, not a measure: at load 30-38 the three runs took 120-134 s (two runs of this file, issue 29).
}, 300_000);

describe('the persistent lane', () => {
  it('judges a correct persistent client on every cell, at every version, like a one-process client', () => {
    const cells = cellsOf(CORRECT);
    expect(cells.length).toBe(countCells());
    for (const cell of cells) {
      expect({ id: `${cell.case} ${cell.protocolVersion}`, status: cell.status, reason: cell.reason }).toEqual({ id: `${cell.case} ${cell.protocolVersion}`, status: 'pass', reason: undefined });
      expect(cell.conclusion).toBe('verdict');
    }
    expect(cellOf(CORRECT, 'http-503-empty-body').actual).toMatchObject([{ outcome: 'HTTP_ERROR', status: 503 }]);
  });

  it("reports with each cell how starved the client's processes were over it (Linux: their CPU wait)", () => {
    for (const cell of cellsOf(CORRECT)) {
      const client = cell.timing?.processes.find((process) => process.process === 'client');
      expect(client, `${cell.case} ${cell.protocolVersion}`).toBeDefined();
      if (hasCpuWaitCounter()) expect(client!.cpuWaitMs).toBeGreaterThanOrEqual(0);
    }
  });

  it.each([
    ['dies', /the persistent client exited \(exit code 3\) with this cell in flight/],
    ['garbage', /broke the protocol: a line starting with "\{" is not JSON/],
    ['unknown-cell', /broke the protocol: it answered cell "never-sent", which was never sent to it/],
    ['flood', /broke the protocol: it wrote a line of \d+ characters or more \(the limit is 262144\)/],
    ['silent', /gave no answer for this cell within 3000 ms/],
  ])('%s: only the cells of the faulty case are error, with the reason; the others are judged', (fault, reason) => {
    for (const cell of cellsOf(name(fault))) {
      const where = `${fault} ${cell.case} ${cell.protocolVersion}`;
      if (cell.case !== 'tool-is-error') expect(cell.status, `${where}: ${cell.reason}`).toBe('pass');
      else expect({ status: cell.status, reason: cell.reason }, where).toMatchObject({ status: 'error', reason: expect.stringMatching(reason) });
    }
    expect(cellsOf(name(fault)).filter((cell) => cell.status === 'error').length).toBe(cellsOf(name(fault)).filter((cell) => cell.case === 'tool-is-error').length);
  });

  it('retires a wedged client: the cell it stopped on is error with the reason, and every cell after it passes on a new client', () => {
    // A wedged client answers nothing at all from its first baseline cell on (each new process
    // wedges on its own first one). Kept in the pool, it would take every later cell and each
    // would be `error`, its message saying a new client was started.
    expect(table[0]!.case.id).toBe('baseline'); // the other cases run after a wedge (concurrency 1)
    const cells = cellsOf('wedged');
    expect(cells.length).toBe(countCells());
    for (const cell of cells) {
      const id = `${cell.case} ${cell.protocolVersion}`;
      if (cell.case === 'baseline') expect({ id, status: cell.status, reason: cell.reason }).toEqual({ id, status: 'error', reason: 'the persistent client gave no answer for this cell within 8000 ms; its client takes no more cells and a new one is started' });
      else expect({ id, status: cell.status, reason: cell.reason }).toEqual({ id, status: 'pass', reason: undefined });
    }
  });

  it('fails a cell whose answer says it concluded nothing ("verdict": null): never a pass', () => {
    for (const cell of cellsOf('null-verdict')) {
      const where = `${cell.case} ${cell.protocolVersion}`;
      if (cell.case !== 'tool-is-error') expect(cell.status, where).toBe('pass');
      else expect({ status: cell.status, conclusion: cell.conclusion }, where).toMatchObject({ status: 'fail', conclusion: 'none' });
    }
  });

  it(`gives up on a client that exits before answering ${MAX_DEAD_STARTS} times in a row, and says why`, () => {
    const reasons = cellsOf('exits-at-start').map((cell) => `${cell.status}: ${cell.reason ?? ''}`);
    expect(reasons.length).toBe(countCells());
    expect(reasons.slice(0, MAX_DEAD_STARTS)).toEqual(new Array(MAX_DEAD_STARTS).fill(expect.stringMatching(/^error: the persistent client exited \(exit code 5\)/)));
    for (const reason of reasons.slice(MAX_DEAD_STARTS)) expect(reason).toMatch(/^error: the persistent client exited 3 times in a row before answering any cell; it is not started again\. The last time: the persistent client exited \(exit code 5\)/);
  });

  it('leaves no process behind: the clients and the children they started are gone once the targets are closed', async () => {
    await new Promise((wait) => setTimeout(wait, 200));
    expect(countMarkedProcesses('HOSTILE_MARK', MARK)).toBe(0);
  });
});
