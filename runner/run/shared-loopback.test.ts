// The run's shared listener and keep-alive connections must not change a verdict: every cell of
// the bundled table, and a case that breaks its connection's framing, judged over the shared
// loopback (runMatrix, several cells at once, connection-breaking cells beside the others) equals
// the same cell judged against a server and connections of its own.
import { describe, expect, it } from 'vitest';
import type { LoadedCase, ResponseSpec } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { classifyReference } from '../classify/reference.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import { createClassifierTarget } from '../targets/classifier-target.js';
import type { Cell } from '../types.js';
import { runCell } from './run-cell.js';
import { planCells, runMatrix } from './run-matrix.js';
import { runPool } from './run-pool.js';
import { canShareConnections } from './shares-connections.js';

const CONCURRENCY = 4;
// Per exchange, the run's default; the cells that hang wait this long on both sides. (At 1000 ms,
// on a machine at load 30, the first requests of a run, made while modules still load, timed out
// with and without sharing alike.)
const TIMEOUT_MS = 2000;
const target = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);

// A response that says Content-Length 2 and sends more: the rest stays on the connection, where
// it would be read as the start of the next response on that connection.
const framingBreaker: LoadedCase = {
  case: makeCase([{ headers: { 'Content-Length': '2' }, body: { raw: '{}{"jsonrpc":"2.0","id":1,"result":{}}' } }, { body: { json: SUCCESS_JSON } }], { id: 'synthetic-framing-breaker' }),
  file: 'synthetic.json',
  relativeFile: 'synthetic.json',
  sha256: '0'.repeat(64),
};

/**
 * What decides a cell, and what its recording says happened on the wire (ids and timings aside).
 * A verdict's free-text `detail` is left out: whether the kernel reports a mid-stream RST as a
 * reset or as a close varies from run to run under load, with or without sharing (raw-http.ts).
 */
function describeCell(cell: Cell) {
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

describe('shared loopback', () => {
  it('gives every cell of the table the verdict and wire record it gets with its own server', { timeout: 120_000 }, async () => {
    const cases = [...(await loadCases()), framingBreaker];
    // Warm up first (module loading, JIT): otherwise the side that runs first starts cold, and on a
    // loaded machine its first initialize alone outlasted the timeout, sharing or not.
    await runMatrix({ cases: cases.filter((loaded) => loaded.case.id === 'baseline'), targets: [target], mode: 'http', timeoutMs: TIMEOUT_MS });
    const shared = await runMatrix({ cases, targets: [target], mode: 'http', concurrency: CONCURRENCY, timeoutMs: TIMEOUT_MS });
    const planned = planCells(cases, [target]);
    const signal = new AbortController().signal;
    // No `hosts`: each cell starts its own mock server and the harness its own connections
    // (wide, so the cells that wait on purpose overlap as they do in runMatrix).
    const alone = await runPool(planned, 16, (cell) => runCell({ ...cell, mode: 'http', timeoutMs: TIMEOUT_MS, signal, schema: [] }));
    expect(shared.cells).toHaveLength(planned.length);
    const differing = shared.cells.map(describeCell).flatMap((cell, index) => {
      const own = describeCell(alone[index]!);
      return JSON.stringify(cell) === JSON.stringify(own) ? [] : [{ shared: cell, alone: own }];
    });
    expect(differing).toEqual([]);
    // The connection-breaking cells really ran beside the others, and the framing breaker did break.
    expect(cases.filter((loaded) => !canShareConnections(loaded.case)).length).toBeGreaterThanOrEqual(5);
    const broken = shared.cells.find((cell) => cell.case === framingBreaker.case.id && cell.protocolVersion === '2026-07-28')!;
    expect(broken.recording?.exchanges.map((exchange) => exchange.response?.body.length)).toEqual([38, JSON.stringify(SUCCESS_JSON).length + 7]);
    expect(broken.actual.map((verdict) => verdict?.outcome)).toEqual(['INVALID_ENVELOPE', 'TOOL_SUCCESS']);
  });
});

describe('canShareConnections', () => {
  it('keeps connections only for scripts whose every response ends cleanly on a reusable connection', () => {
    expect(canShareConnections(makeCase([{ body: { json: SUCCESS_JSON } }, { status: 503, headers: { 'Retry-After': '0' } }]))).toBe(true);
    expect(canShareConnections(makeCase([{ body: { sse: { events: [{ data: SUCCESS_JSON, response: true }], end: 'close' } } }]))).toBe(true);
    expect(canShareConnections(framingBreaker.case)).toBe(false);
    const breakers: ResponseSpec[] = [
      { start: 'hang' as const },
      { start: 'reset' as const },
      { status: 101 },
      { headers: { connection: 'close' } },
      { headers: { 'Transfer-Encoding': 'chunked' }, body: { raw: 'x' } },
      { body: { sse: { events: [], end: 'reset' as const } } },
      { body: { sse: { events: [], end: 'hang' as const } } },
    ];
    for (const response of breakers) {
      expect(canShareConnections(makeCase([{ body: { json: SUCCESS_JSON } }, response])), JSON.stringify(response)).toBe(false);
    }
  });
});
