// An SDK older than 1.24 is measured at the protocol versions it speaks (issue 14 §1): ts-sdk@1.14.0
// lists 2025-06-18 and 2025-03-26 in SUPPORTED_PROTOCOL_VERSIONS, offers 2025-06-18 at initialize
// and accepts the mock server's answer with the cell's version. Its non-2xx POST throws a plain
// Error whose only trace of the status is its text, which the mapper reads as HTTP_ERROR + status.
// It takes no `fetch` option (added in 1.15) and calls the global fetch, through which the worker
// still sees each tools/call's HTTP status: its timeout on a 2xx stream that ended without a result
// reads STREAM_INCOMPLETE, as in 1.15 and later (it read NO_RESPONSE, a change that was the adapter's).
// The version is not bundled: it is installed on demand from the npm registry into the tests' own
// cache (XDG_CACHE_HOME, vitest.config.ts; once; a slow registry gets a generous budget).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../cases/load-cases.js';
import type { LoadedCase } from '../../cases/case-types.js';
import type { Cell, ProtocolVersion } from '../../vocabulary/types.js';
import { runWaitingBesideAnswered } from '../../../test/run-waiting-beside-answered.js';
import { createSdkTarget } from './sdk-target.js';
import { declareLoadedByPath } from '../../../test/loaded-by-path.js';

// The worker process that drives each SDK version, started by path.
declareLoadedByPath(() => import('./worker.mjs' as string));

const SPEC = 'ts-sdk@1.14.0';
const STREAM_ENDS_EARLY = ['batch-sse-result', 'sse-end-without-result'];
const CASE_IDS = ['baseline', 'http-503-then-200', 'tool-is-error', 'jsonrpc-invalid-params', 'block-resource-link', 'batch-sse-result', 'sse-end-without-result'];

let cases: LoadedCase[];
let target: Awaited<ReturnType<typeof createSdkTarget>>;

beforeAll(async () => {
  cases = (await loadCases()).filter((loaded) => CASE_IDS.includes(loaded.case.id));
  target = await createSdkTarget(SPEC);
}, 240_000); // an npm install from the registry the first time, then a worker start

afterAll(async () => {
  await target?.close?.();
});

function summarise(cell: Cell): string {
  if (cell.status === 'skip' || cell.status === 'error') return `${cell.status}: ${cell.reason}`;
  return cell.actual.map((v) => (v ? [v.outcome, v.status ?? v.code].filter((x) => x !== undefined).join(' ') : 'null')).join(', ');
}

describe(`${SPEC} (an SDK from before 1.24)`, () => {
  it('speaks 2025-03-26 and 2025-06-18, read from its SUPPORTED_PROTOCOL_VERSIONS, and skips the others with the reason', () => {
    expect(target.skipReason?.('2025-03-26')).toBeUndefined();
    expect(target.skipReason?.('2025-06-18')).toBeUndefined();
    expect(target.skipReason?.('2025-11-25')).toMatch(/ts-sdk@1\.14\.0 does not speak 2025-11-25 \(it supports 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07\)/);
    expect(target.skipReason?.('2026-07-28')).toMatch(/does not speak 2026-07-28/);
  });

  it('is measured at 2025-03-26 and 2025-06-18, its plain "(HTTP 503)" Error read as HTTP_ERROR 503, the status of a POST sent through the global fetch seen', async () => {
    // This SDK waits out its timeout on a stream that ends without the result (2,000 ms here); the
    // other cells are answered at once and run beside them with a timeout they never wait for.
    const waits = (loaded: LoadedCase) => STREAM_ENDS_EARLY.includes(loaded.case.id);
    const options = { targets: [target], versions: ['2025-03-26', '2025-06-18'] as ProtocolVersion[], mode: 'http' as const, concurrency: 4 };
    // A waiting cell the load left not measured runs again (runMatrix confirms it, confirm-cells.ts).
    const result = { cells: await runWaitingBesideAnswered({ ...options, cases }, waits, 2000) };
    const got = Object.fromEntries(result.cells.map((cell) => [`${cell.case} ${cell.protocolVersion}`, summarise(cell)]));
    for (const version of ['2025-03-26', '2025-06-18'] as const) {
      expect(got[`baseline ${version}`]).toBe('TOOL_SUCCESS');
      expect(got[`http-503-then-200 ${version}`]).toBe('HTTP_ERROR 503, TOOL_SUCCESS');
      expect(got[`tool-is-error ${version}`]).toBe('TOOL_ERROR');
      expect(got[`jsonrpc-invalid-params ${version}`]).toBe('JSONRPC_ERROR -32602');
      expect(got[`sse-end-without-result ${version}`]).toBe('STREAM_INCOMPLETE');
    }
    // What this SDK does with the version-dependent cases is recorded, not asserted to be right:
    // whatever it concludes, the cell is measured (a verdict), never skipped or an error.
    for (const id of ['block-resource-link', 'batch-sse-result']) {
      for (const version of ['2025-03-26', '2025-06-18']) expect(got[`${id} ${version}`], `${id} ${version}`).not.toMatch(/^(skip|error)/);
    }
    console.info(`${SPEC}: ${JSON.stringify(got)}`);
  }, 60_000);
});
