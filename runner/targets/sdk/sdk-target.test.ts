import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../cases/load-cases.js';
import type { LoadedCase } from '../../cases/case-types.js';
import { TargetSpecError } from '../../util/errors.js';
import { runMatrix } from '../../run/run-matrix.js';
import type { Cell, Target } from '../../vocabulary/types.js';
import { resolveTarget } from '../resolve-target.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from '../../../test/answered-at-once.js';
import { runWaitingBesideAnswered } from '../../../test/run-waiting-beside-answered.js';
import { listBundledSdkTargets, resolveSdkPackage, runNpm, type RunNpm } from './resolve-sdk-package.js';
import { createSdkTarget } from './sdk-target.js';
import { declareLoadedByPath } from '../../../test/loaded-by-path.js';

// The worker process that drives each SDK version, started by path.
declareLoadedByPath(() => import('./worker.mjs' as string));

const CASE_IDS = ['baseline', 'http-503-then-200', 'tool-is-error', 'jsonrpc-invalid-params', 'malformed-json', 'no-response-hang', 'input-required', 'mrtr-form-without-requested-schema'];
const BUNDLED = ['ts-sdk@1.25.0', 'ts-sdk@1.32.2', 'ts-client@2.0.0', 'ts-client@2.4.0'];
const RESOLVED = 'ts-client@2.4.0';

let cases: LoadedCase[];
let targets: Awaited<ReturnType<typeof createSdkTarget>>[];

beforeAll(async () => {
  cases = (await loadCases()).filter((loaded) => CASE_IDS.includes(loaded.case.id));
  // ts-client@2.4.0 comes through --target's resolver (checked below), the others straight from the
  // factory: one worker each, shared by the tests that are not about a worker's life.
  targets = await Promise.all(BUNDLED.map((spec) => (spec === RESOLVED ? (resolveTarget(spec, { cwd: process.cwd() }) as ReturnType<typeof createSdkTarget>) : createSdkTarget(spec))));
}, 60_000); // four workers start and warm up; seconds on a loaded machine

afterAll(async () => {
  await Promise.all(targets.map((target) => target.close?.()));
});

function summarise(cells: Cell[]): Record<string, string> {
  return Object.fromEntries(
    cells.map((cell) => [
      `${cell.target} ${cell.case} ${cell.protocolVersion}`,
      cell.status === 'skip' ? 'skip' : cell.status === 'error' ? `error: ${cell.reason}` : cell.actual.map((v) => (v ? [v.outcome, v.status ?? v.code].filter((x) => x !== undefined).join(' ') : 'null')).join(', '),
    ]),
  );
}

describe('ts-sdk / ts-client targets', () => {
  it('lists the bundled versions', () => {
    // The SDK versions; the client stacks' bundled versions are tested in stacks/stack-targets.test.ts.
    expect(listBundledSdkTargets().filter((target) => /^ts-(sdk|client)@/.test(target)).sort()).toEqual([...BUNDLED].sort());
  });

  it('gives sensible verdicts on a handful of cases with every bundled version', async () => {
    // The hang waits out its timeout of 2,500 ms (room for a cold first call on a loaded 2-core
    // machine: at 1,000 ms a full-suite run at load 15 had one end as "the SDK worker gave no
    // answer"); the cells answered at once run beside it with a timeout they never wait for.
    const isHang = (loaded: LoadedCase) => loaded.case.id === 'no-response-hang';
    // A hang cell whose runner or worker was starved meanwhile runs again (runMatrix's confirmation).
    const result = { cells: await runWaitingBesideAnswered({ cases, targets, mode: 'http', concurrency: 8 }, isHang, 2500) };
    const got = summarise(result.cells);
    for (const spec of BUNDLED) {
      const v1 = spec.startsWith('ts-sdk@');
      for (const version of ['2025-11-25', '2026-07-28'] as const) {
        const at = (id: string) => got[`${spec} ${id} ${version}`];
        if (v1 && version === '2026-07-28') {
          expect(at('baseline')).toBe('skip');
          continue;
        }
        expect(at('baseline')).toBe('TOOL_SUCCESS');
        expect(at('http-503-then-200')).toBe('HTTP_ERROR 503, TOOL_SUCCESS');
        expect(at('tool-is-error')).toBe('TOOL_ERROR');
        expect(at('jsonrpc-invalid-params')).toBe('JSONRPC_ERROR -32602');
        expect(at('malformed-json')).toBe('MALFORMED_JSON');
        expect(at('no-response-hang')).toBe('NO_RESPONSE');
      }
      // The v2 client validates the embedded elicitation: a valid form is input required, a form without requestedSchema is rejected.
      expect(got[`${spec} input-required 2026-07-28`]).toBe(v1 ? 'skip' : 'INPUT_REQUIRED');
      expect(got[`${spec} mrtr-form-without-requested-schema 2026-07-28`]).toBe(v1 ? 'skip' : 'INVALID_TOOL_RESULT');
    }
    expect(result.cells.every((cell) => cell.status !== 'error')).toBe(true);
  }, 60_000); // about 3 s on an idle 2-core machine; the margin is for a loaded CI runner, whose starved hang cells run again (11 s alone at load 24)

  it('skips the versions an SDK does not speak, with the reason', () => {
    const [sdk125, , , client240] = targets;
    expect(sdk125!.skipReason?.('2026-07-28')).toMatch(/ts-sdk@1\.25\.0 does not speak 2026-07-28 \(it supports 2025-11-25/);
    expect(sdk125!.skipReason?.('2025-11-25')).toBeUndefined();
    expect(client240!.skipReason?.('2026-07-28')).toBeUndefined();
    expect(client240!.skipReason?.('2025-11-25')).toBeUndefined();
  });

  /** Runs a hanging cell on target `index` and kills its worker with `signal` once it is really mid-cell. */
  async function killWorkerMidCell(index: number, signal: NodeJS.Signals): Promise<Cell> {
    const target = targets[index]!;
    const hang = cases.filter((loaded) => loaded.case.id === 'no-response-hang');
    const pid = target.worker.pid!;
    // The worker is killed once it is really mid-cell: when its first request reaches a server
    // that never answers (the cell's URL is pointed at it), not after a guessed 200 ms.
    const silent = createServer();
    const requestSeen = new Promise<void>((resolve) => silent.once('request', () => resolve()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    const redirected: Target = { ...target, run: (context) => target.run({ ...context, serverUrl: silentUrl }) };
    try {
      const running = runMatrix({ cases: hang, targets: [redirected], versions: ['2025-11-25'], mode: 'http', timeoutMs: 1500 });
      await requestSeen;
      process.kill(pid, signal);
      return (await running).cells[0]!;
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }

  it('marks the cell error when the worker dies mid-cell, and the next cell works in a new worker', async () => {
    const target = targets[1]!;
    const baseline = cases.filter((loaded) => loaded.case.id === 'baseline');
    const startsBefore = target.worker.starts;
    const pid = target.worker.pid!;
    const crashed = await killWorkerMidCell(1, 'SIGKILL');
    expect(crashed.status).toBe('error');
    expect(crashed.reason).toMatch(/SDK worker exited \(SIGKILL\)/);
    // The replacement worker starts (and warms up) inside this cell's budget: leave room for a loaded machine.
    const next = (await runMatrix({ cases: baseline, targets: [target], versions: ['2025-11-25'], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS })).cells[0]!;
    expect(next.status).toBe('pass');
    expect(target.worker.starts).toBe(startsBefore + 1);
    expect(target.worker.pid).not.toBe(pid);
  }, 20_000);

  it('a worker stopped by SIGTERM from outside (a signal to the whole process group) leaves its cell error, not measured (issue 28 item 1)', async () => {
    const stopped = await killWorkerMidCell(0, 'SIGTERM');
    expect(stopped.status).toBe('error');
    // An interrupted run, never 'starved' nor 'timeout' (confirm-cells.ts would run it again).
    expect(stopped.errorKind).toBe('interrupted');
    expect(stopped.reason).toMatch(/^the SDK worker was stopped by SIGTERM from outside the runner \(a signal to the whole process group, such as Ctrl-C, `timeout` or a CI cancel\), so this cell was not measured/);
  }, 20_000);

  it('resolves through --target with the package version and package.json as source', () => {
    const target = targets[BUNDLED.indexOf(RESOLVED)]!; // resolved by resolveTarget in beforeAll
    expect(target.info).toMatchObject({ name: 'ts-client@2.4.0', kind: 'client', version: '2.4.0' });
    expect(target.info.source).toMatch(/mcp-client-2\.4\.0[\\/]package\.json$/);
  });

  it('rejects a spec that is not an exact version', async () => {
    await expect(resolveSdkPackage('ts-sdk@latest')).rejects.toThrow(TargetSpecError);
    await expect(resolveSdkPackage('ts-sdk@1.32')).rejects.toThrow(/exact version/);
  });

  it('names the version and the remedy when an unbundled version cannot be installed offline', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'mem-sdk-cache-'));
    // npm's own cache, empty: with the machine's (~/.npm), the test passed only while that lacked 1.0.1.
    const npmCache = mkdtempSync(join(tmpdir(), 'mem-npm-cache-'));
    const npm: RunNpm = (args) => runNpm([...args, '--cache', npmCache]);
    try {
      const failure = resolveSdkPackage('ts-sdk@1.0.1', { cacheDir, offline: true, npm });
      await expect(failure).rejects.toThrow(TargetSpecError);
      await expect(failure).rejects.toThrow(/@modelcontextprotocol\/sdk@1\.0\.1 could not be installed into .*\(offline\).*Remedy: go online once/s);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
      rmSync(npmCache, { recursive: true, force: true });
    }
    // No timeout of its own: the real npm starts here (about 2.6 s of CPU; 10.5 s of wall at load 15),
    // and at load 20 a run of this file with the others of its group timed out at the 15 s once set
    // here. The suite's testTimeout guards against a hang; runNpm has its own 180 s limit.
  });
});
