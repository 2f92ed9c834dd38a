// The same inputs give the same cells: the whole table against the reference target, direct
// and http mode, run back to back, the first run also showing the reference passes every cell,
// and the first http run (on the run's shared listener) showing every cell gets the verdict and
// wire record it gets with a server and connections of its own.
// MEM_DETERMINISM_RUNS=20 for the long check.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it, test } from 'vitest';
import type { LoadedCase } from '../../runner/cases/case-types.js';
import { loadCases } from '../../runner/cases/load-cases.js';
import { SUCCESS_JSON } from '../../runner/mock-server/test-cases.js';
import { runCell } from '../../runner/run/run-cell.js';
import { planCells, runMatrix } from '../../runner/run/run-matrix.js';
import { runPool } from '../../runner/run/run-pool.js';
import { canShareConnections } from '../../runner/run/shares-connections.js';
import { describeWithSchemas } from '../describe-requiring.js';
import { FRAMING_BREAKER } from '../framing-breaker.js';
import { createSchemaValidator, resolveSchemas } from '../../runner/schema-check/index.js';
import { resolveTarget } from '../../runner/targets/resolve-target.js';
import { PROTOCOL_VERSIONS, type Cell, type RunResult } from '../../runner/vocabulary/types.js';
import { describeCellFailure } from '../describe-cell.js';
import { confirmCells } from '../../runner/run/confirm-cells.js';

const RUNS = Number(process.env.MEM_DETERMINISM_RUNS ?? 3);
// `timing`: how starved each process was, and whether the cell was run again to confirm it (the same
// cell, measured, whatever the load did to the first run).
const TIMING_KEYS = new Set(['at', 'endedAt', 'durationMs', 'startedAt', 'finishedAt', 'timing']);

/** A cell without what legitimately varies: times, durations, starvation, the ephemeral port, the cell's path token on the shared listener, session ids. */
function normalizeCell(cell: Cell): string {
  const text = JSON.stringify(cell, (key, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value));
  return text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/\/cell\/[A-Za-z0-9_-]+\//g, '/cell/TOKEN/')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID');
}

/** Where two normalized cells first differ: a little of each around that point. */
function showFirstDifference(before: string, after: string): string {
  let at = 0;
  while (at < before.length && before[at] === after[at]) at++;
  const around = (text: string) => text.slice(Math.max(0, at - 120), at + 120);
  return `first run …${around(before)}… this run …${around(after)}…`;
}

// The whole table against the reference is the most expensive run of the suite (453 cells, the
// http mode a mock server each); the first run of each mode also carries the case-table rule that
// the reference passes every cell (moved here from test/case-table.test.ts, which ran it once more),
// and the first http run is the shared loopback's (moved here from runner/run/shared-loopback.test.ts,
// which ran it once more): several cells at once, with a case that breaks its connection's framing.
// A 2 s budget per exchange, the run's default: the hang cases wait it out (no CPU) on both sides,
// and no other cell runs out of it under load. (At 1000 ms, on a machine at load 30, the first
// requests of a run, made while modules still load, timed out with and without sharing alike.)
const TIMEOUT_MS = 2000;
const CONCURRENCY = 4;
const target = await resolveTarget('reference', { cwd: process.cwd() });
const getTableCases = async (mode: 'direct' | 'http'): Promise<LoadedCase[]> => [...(await loadCases()), ...(mode === 'http' ? [FRAMING_BREAKER] : [])];
const runWholeTable = async (mode: 'direct' | 'http'): Promise<RunResult> =>
  runMatrix({ cases: await getTableCases(mode), targets: [target], mode, concurrency: CONCURRENCY, timeoutMs: TIMEOUT_MS });
const firstRuns = new Map<'direct' | 'http', Promise<RunResult>>();
// Test files share their worker thread's modules (vitest.config.ts): the runs are let go once this
// file is done, so later files in the thread do not carry them.
afterAll(() => firstRuns.clear());
/** The first run of a mode; in http mode after a warm-up (module loading, JIT), so that its first cells do not start cold. */
function getFirstRun(mode: 'direct' | 'http'): Promise<RunResult> {
  let run = firstRuns.get(mode);
  if (!run) {
    const warmUp = async () => {
      if (mode === 'http') await runMatrix({ cases: (await loadCases()).filter((loaded) => loaded.case.id === 'baseline'), targets: [target], mode, timeoutMs: TIMEOUT_MS });
    };
    firstRuns.set(mode, (run = warmUp().then(() => runWholeTable(mode))));
  }
  return run;
}

describe.each(['direct', 'http'] as const)('determinism, %s mode', (mode) => {
  test(`every case passes on the reference classifier in ${mode} mode, every version`, { timeout: 90_000 }, async () => {
    const cases = await loadCases();
    const result = await getFirstRun(mode);
    const cellCount = cases.reduce((total, item) => total + item.case.versions.length, 0);
    const tableCells = result.cells.filter((cell) => cell.case !== FRAMING_BREAKER.case.id);
    expect(cases.length).toBeGreaterThanOrEqual(70);
    expect(result.cells.length).toBe(cellCount + (mode === 'http' ? FRAMING_BREAKER.case.versions.length : 0));
    expect(tableCells.length).toBe(cellCount);
    expect(new Set(tableCells.map((cell) => cell.protocolVersion))).toEqual(new Set(PROTOCOL_VERSIONS));
    expect(tableCells.filter((cell) => cell.status !== 'pass').map(describeCellFailure)).toEqual([]);
  });

  test(`${RUNS} back-to-back runs of the whole table give identical cells`, { timeout: 90_000 * Math.max(1, RUNS / 3) }, async () => {
    const fingerprints: string[] = [];
    let first: string[] | undefined;
    for (let run = 0; run < RUNS; run++) {
      const result = run === 0 ? await getFirstRun(mode) : await runWholeTable(mode);
      const cells = result.cells.map(normalizeCell);
      first ??= cells;
      // Compare cell by cell, so a difference names its cell and shows where the two first part.
      const differing = cells.flatMap((cell, index) => (cell === first![index] ? [] : [`${result.cells[index]!.case}@${result.cells[index]!.protocolVersion}: ${showFirstDifference(first![index]!, cell)}`]));
      expect(differing, `run ${run + 1}`).toEqual([]);
      fingerprints.push(createHash('sha256').update(cells.join('\n')).digest('hex').slice(0, 16));
    }
    expect(new Set(fingerprints).size).toBe(1);
    if (RUNS > 3) console.info(`determinism ${mode}: ${RUNS} runs, ${first?.length} cells each, fingerprint ${fingerprints[0]}`);
  });
});

/**
 * What decides a cell, and what its recording says happened on the wire (ids and timings aside).
 * A verdict's free-text `detail` is left out: whether the kernel reports a mid-stream RST as a
 * reset or as a close varies from run to run under load, with or without sharing (raw-http.ts).
 */
function describeWireCell(cell: Cell) {
  return {
    cell: `${cell.case}@${cell.protocolVersion}`,
    status: cell.status,
    reason: cell.reason,
    actual: cell.actual.map((verdict) => (verdict ? { ...verdict, detail: undefined } : verdict)),
    checks: cell.checks.map((check) => `${check.id} ${check.level} ${check.passed} ${check.exchange ?? ''} ${check.consequence ?? ''}`),
    wire: cell.recording?.exchanges.map(({ request, response }) => ({
      request: `${request.method} ${request.path} ${request.rpc?.method ?? ''}`,
      response: `${response?.status} ${response?.ending} ${response?.body.length}`,
    })),
  };
}

// The run's shared listener and keep-alive connections must not change a verdict.
describe('shared loopback', () => {
  it('gives every cell of the table the verdict and wire record it gets with its own server', { timeout: 120_000 }, async () => {
    const cases = await getTableCases('http');
    const shared = await getFirstRun('http');
    const planned = planCells(cases, [target]);
    const signal = new AbortController().signal;
    // No `hosts`: each cell starts its own mock server and the harness its own connections
    // (wide, so the cells that wait on purpose overlap as they do in runMatrix).
    const runAlone = (cell: (typeof planned)[number]) => runCell({ ...cell, mode: 'http', timeoutMs: TIMEOUT_MS, signal, schema: [] });
    const first = await runPool(planned, 16, runAlone);
    // What the shared run gets from runMatrix: a cell the load kept from being measured is run again.
    const { cells: alone } = await confirmCells({ cells: planned.map((cell, index) => ({ planned: cell, cell: first[index]! })), rerun: runAlone, waits: () => true, cores: 2, signal });
    expect(shared.cells).toHaveLength(planned.length);
    const differing = shared.cells.map(describeWireCell).flatMap((cell, index) => {
      const own = describeWireCell(alone[index]!);
      return JSON.stringify(cell) === JSON.stringify(own) ? [] : [{ shared: cell, alone: own }];
    });
    expect(differing).toEqual([]);
    // The connection-breaking cells really ran beside the others, and the framing breaker did break.
    expect(cases.filter((loaded) => !canShareConnections(loaded.case)).length).toBeGreaterThanOrEqual(5);
    const broken = shared.cells.find((cell) => cell.case === FRAMING_BREAKER.case.id && cell.protocolVersion === '2026-07-28')!;
    expect(broken.recording?.exchanges.map((exchange) => exchange.response?.body.length)).toEqual([38, JSON.stringify(SUCCESS_JSON).length + 7]);
    expect(broken.actual.map((verdict) => verdict?.outcome)).toEqual(['INVALID_ENVELOPE', 'TOOL_SUCCESS']);
  });
});

// Issue 11 item 15: an SDK client that times out sends notifications/cancelled without awaiting
// it; the worker closed the transport at once, so the POST was recorded in some runs and not in
// others (an extra `schema.request@5` check in 4 of 5 identical runs). The checks a cell gets,
// and the requests recorded, must not depend on that race.
describeWithSchemas('determinism of a real client that times out (SDK target)', () => {
  test(`${RUNS} runs of the timeout cases give the same checks and the same recorded requests`, { timeout: 60_000 * Math.max(1, RUNS / 3) }, async () => {
    const validator = createSchemaValidator(await resolveSchemas({ env: process.env, download: false }));
    const cases = (await loadCases()).filter((loaded) => ['no-response-hang', 'sse-hang-after-progress'].includes(loaded.case.id));
    expect(cases).toHaveLength(2);
    const target = await resolveTarget('ts-sdk@1.32.2', { cwd: process.cwd() });
    const shapes: string[][] = [];
    // A cell whose outcome came from a deadline while a process was starved (this shared thread's
    // loop, or the worker's) is run again by runMatrix itself (runner/run/confirm-cells.ts, tested on
    // its own in runner/targets/sdk/starved-worker.test.ts). On a loaded machine such a cell gave
    // 'sse-hang-after-progress: error []' before it was.
    for (let run = 0; run < RUNS; run++) {
      const result = await runMatrix({ cases, targets: [target], versions: ['2025-11-25'], mode: 'http', timeoutMs: 1000, checkRequest: (version, message) => validator.checkRequestMessage(version, message) });
      shapes.push(
        result.cells.map((cell) => {
          const requests = (cell.recording?.exchanges ?? []).map((exchange) => `${exchange.request.method} ${exchange.request.rpc?.method ?? ''}`);
          return `${cell.case}: ${cell.status} [${cell.checks.map((check) => `${check.id}=${check.passed}`).join(' ')}] ${requests.join(', ')}`;
        }),
      );
    }
    // The cancellation the client sent is always recorded, and checked as the fifth request.
    for (const line of shapes[0]!) expect(line).toMatch(/schema\.request@5=true.*POST notifications\/cancelled$/);
    for (const [run, shape] of shapes.entries()) expect(shape, `run ${run + 1}`).toEqual(shapes[0]);
  });
});
