import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import type { LoadedCase } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { runCell } from '../run/run-cell.js';
import { getDefaultTargetLimitMs } from '../run/cell-budget.js';
import { runMatrix } from '../run/run-matrix.js';
import type { Cell } from '../vocabulary/types.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from '../../test/answered-at-once.js';
import { useTempDirs } from '../../test/temp-dirs.js';
import { createCommandTarget, resolveCommandTarget } from './command-target.js';
import { resolveTarget } from './resolve-target.js';

// Removed after the file, also when a test fails before its end.
const makeTempDir = useTempDirs();

const ROOT = resolve(import.meta.dirname, '../..');
// hangs-forever is a shell script: it must have started its grandchild before its short timeout, which
// a node client's start (2-7 s at load 7-15) did not always leave it.
const fixture = (name: string, options = ''): string =>
  name === 'hangs-forever' ? `command:sh test/fixtures/clients/hangs-forever.sh${options}` : `command:node test/fixtures/clients/${name}.mjs${options}`;
const HANGS_TIMEOUT = ' #timeout=3000';
const CASES = ['baseline', 'http-503-empty-body', 'mrtr-form-with-state'];

let table: LoadedCase[];
let cells: Cell[];
const cellOf = (target: string, caseId: string, version = '2026-07-28'): Cell => {
  const cell = cells.find((c) => c.target === fixture(target, target === 'hangs-forever' ? HANGS_TIMEOUT : '') && c.case === caseId && c.protocolVersion === version);
  if (!cell) throw new Error(`no cell ${target} ${caseId} ${version}`);
  return cell;
};
const failedIds = (cell: Cell): string[] => cell.checks.filter((c) => !c.passed && c.level !== 'INFO').map((c) => c.id);

// Each fixture runs on the cases its tests read (every client process is 0.2-0.5 s of CPU): the
// case where its fault shows and, where a test asserts "nothing else", one where it does not.
// Run side by side with these many cells in flight each, six in all (as when they were one matrix).
const FIXTURE_CASES: [names: string[], caseIds: string[], concurrency: number][] = [
  [['correct-client', 'conformance-style'], CASES, 2],
  [['crashes', 'retries-destructive'], ['baseline', 'http-503-empty-body'], 2],
  [['omits-accept-header', 'reuses-id-on-follow-up'], ['baseline', 'mrtr-form-with-state'], 1],
  [['hangs-forever', 'floods-stdout', 'prints-garbage', 'speaks-2025-only'], ['baseline'], 1],
];

// Every fixture at once: each is judged as expected and none disturbs another.
beforeAll(async () => {
  table = (await loadCases({ cwd: ROOT })).filter((item) => CASES.includes(item.case.id));
  const runs = FIXTURE_CASES.map(([names, caseIds, concurrency]) => {
    const targets = names.map((name) => resolveCommandTarget(fixture(name, name === 'hangs-forever' ? HANGS_TIMEOUT : ''), { cwd: ROOT }));
    // 8 s per exchange: no fixture here waits it out (hangs-forever has its own #timeout=3000), and on
    // a machine at load 18 the default clients' start and the hanging client's kill took seconds.
    return runMatrix({ cases: table.filter((item) => caseIds.includes(item.case.id)), targets, versions: ['2026-07-28'], timeoutMs: 8000, concurrency });
  });
  cells = (await Promise.all(runs)).flatMap((run) => run.cells);
}, 120_000);

describe('command target: fixture clients, each wrong in one way, run together', () => {
  it('passes the correct client and the conformance-style client (no verdict, an exit status) on every case', () => {
    for (const id of CASES) {
      expect(cellOf('correct-client', id).status, id).toBe('pass');
      expect(cellOf('correct-client', id).conclusion, id).toBe('verdict');
      const silent = cellOf('conformance-style', id);
      expect(silent.status, id).toBe('pass');
      expect(silent.actual).toEqual([null]);
      expect(silent.checks.find((c) => c.id === 'client.outcome')).toMatchObject({ level: 'INFO', actual: 'not reported' });
    }
    // Exit 0 on a result is judged on the wire alone; exit 1 on a failed call is its conclusion.
    expect(cellOf('conformance-style', 'baseline').conclusion).toBe('wire_only');
    expect(cellOf('conformance-style', 'http-503-empty-body').conclusion).toBe('exit_status');
    expect(cellOf('correct-client', 'mrtr-form-with-state').actual).toMatchObject([{ outcome: 'TOOL_SUCCESS' }]);
    expect(cellOf('conformance-style', 'baseline').targetRun?.stderr).toContain('scenario baseline at http://127.0.0.1:');
  });

  it('kills a client that hangs when its time is up, with its whole process tree', () => {
    // It hangs before it sends anything, the same on every case: one cell shows it.
    const cell = cellOf('hangs-forever', 'baseline');
    expect(cell.status).toBe('fail');
    expect(cell.targetRun).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    // Killed at its own 3 s, not at the limit the run gives a client without one (3 x 8 s): a loaded
    // machine may add seconds to the kill (4.7 s measured for 1.5 s at load 18), never 21.
    expect(cell.targetRun!.durationMs).toBeGreaterThanOrEqual(3000);
    expect(cell.targetRun!.durationMs).toBeLessThan(getDefaultTargetLimitMs(8000, 1));
    expect(failedIds(cell).sort()).toEqual(['client.finished', 'client.outcome', 'wire.tool-call-posts', 'wire.tool-called']);
    expect(cell.checks.find((c) => c.id === 'client.outcome')).toMatchObject({ level: 'MUST', consequence: 'no-conclusion' });
    const pid = Number(/grandchild pid (\d+)/.exec(cell.targetRun!.stderr ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid), `grandchild ${pid} outlived the cell`).toBe(false);
  });

  it('judges a client that crashes by a signal without a verdict as concluding nothing (issue 13: no-conclusion)', () => {
    for (const id of ['baseline', 'http-503-empty-body']) {
      const cell = cellOf('crashes', id);
      // A crash is not the client's conclusion that the call failed, even on a call that did fail.
      expect(cell, id).toMatchObject({ status: 'fail', conclusion: 'none', targetRun: { crashed: true } });
      expect(cell.checks.find((c) => c.id === 'client.outcome'), id).toMatchObject({ level: 'MUST', passed: false, consequence: 'no-conclusion', message: expect.stringMatching(/nothing concluded: crashed, .*SIGSEGV.*, without a verdict/) });
      expect(cell.checks.some((c) => c.id === 'client.exit'), id).toBe(false);
      expect(cell.recording?.exchanges.some((e) => e.request.rpc?.method === 'tools/call'), id).toBe(true);
    }
  });

  it('caps a flood on stdout and still reads the verdict on its last line', () => {
    const cell = cellOf('floods-stdout', 'baseline');
    expect(cell.status).toBe('pass');
    expect(cell.actual).toMatchObject([{ outcome: 'TOOL_SUCCESS' }]);
    expect(cell.targetRun!.stdout!.length).toBeLessThan(1.2 * 1024 * 1024);
    expect(cell.targetRun!.stdout).toMatch(/bytes cut: output is capped/);
  });

  it('fails a client that prints garbage instead of a verdict', () => {
    const cell = cellOf('prints-garbage', 'baseline');
    expect(cell.status).toBe('fail');
    expect(failedIds(cell)).toEqual(['client.outcome']);
    expect(cell.checks.find((c) => c.id === 'client.outcome')?.message).toContain('not JSON');
  });

  it("fails a replay of a destructive tool after a 503 as an unsafe retry at MUST, beside the case's POLICY count", () => {
    expect(cellOf('retries-destructive', 'baseline').status).toBe('pass');
    const cell = cellOf('retries-destructive', 'http-503-empty-body');
    expect(cell.status).toBe('fail');
    expect(failedIds(cell)).toEqual(['wire.tool-call-posts', 'wire.no-unsafe-retry']);
    expect(cell.checks.find((c) => c.id === 'wire.no-unsafe-retry')).toMatchObject({ level: 'MUST', consequence: 'unsafe-retry' });
  });

  it('fails a client that leaves both media types out of Accept', () => {
    const cell = cellOf('omits-accept-header', 'baseline');
    expect(cell.status).toBe('fail');
    expect(failedIds(cell)).toEqual(['header.accept@1']);
    expect(failedIds(cellOf('omits-accept-header', 'mrtr-form-with-state'))).toEqual(['header.accept@1', 'header.accept@2']);
  });

  it('fails an MRTR follow-up that reuses the id, and nothing else', () => {
    expect(cellOf('reuses-id-on-follow-up', 'baseline').status).toBe('pass');
    const cell = cellOf('reuses-id-on-follow-up', 'mrtr-form-with-state');
    expect(cell.status).toBe('fail');
    expect(failedIds(cell)).toEqual(['wire.mrtr-follow-up']);
  });

  it('skips a version the client does not speak, with its reason', () => {
    const cell = cellOf('speaks-2025-only', 'baseline');
    expect(cell).toMatchObject({ status: 'skip', reason: 'speaks only 2025-11-25, not 2026-07-28', checks: [] });
  });
});

describe('command target: 2025-11-25, options, abort', () => {
  it('runs the clients with initialize and a session under 2025-11-25', async () => {
    const baseline = table.filter((item) => item.case.id === 'baseline');
    const targets = ['correct-client', 'conformance-style', 'speaks-2025-only'].map((name) => resolveCommandTarget(fixture(name), { cwd: ROOT }));
    const result = await runMatrix({ cases: baseline, targets, versions: ['2025-11-25'], timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS });
    expect(result.cells.map((cell) => [cell.target, cell.status])).toEqual(targets.map((t) => [t.info.name, 'pass']));
    expect(result.cells[0]!.checks.find((c) => c.id === 'header.session-id@1')?.passed).toBe(true);
  }, 30_000);

  it('skips versions outside the #versions= option without running the command', async () => {
    const target = resolveCommandTarget(`${fixture('hangs-forever')} #versions=2025-11-25`, { cwd: ROOT });
    expect(target.skipReason?.('2026-07-28')).toContain('speaks only 2025-11-25');
    expect(target.skipReason?.('2025-11-25')).toBeUndefined();
  });

  it('stops the process tree at once when the run is aborted', async () => {
    const controller = new AbortController();
    // Aborted once the client has started its grandchild (a fixed delay found it not started yet on a
    // loaded machine, and then proved nothing about the tree).
    const dir = makeTempDir('hangs-forever-');
    const pidFile = join(dir, 'pid');
    const env = { ...process.env, HANGS_FOREVER_PID_FILE: pidFile };
    const target = createCommandTarget({ command: 'sh test/fixtures/clients/hangs-forever.sh', cwd: ROOT, timeoutMs: 20_000, env });
    const loaded = table.find((item) => item.case.id === 'baseline')!;
    const pending = runCell({ loaded, protocolVersion: '2026-07-28', target, mode: 'http', timeoutMs: 4000, signal: controller.signal, schema: [] });
    await vi.waitFor(() => expect(existsSync(pidFile)).toBe(true), { timeout: 15_000, interval: 20 });
    controller.abort();
    const cell = await pending;
    expect(cell).toMatchObject({ status: 'error', reason: 'interrupted: the run was aborted', targetRun: { timedOut: false } });
    // Stopped by the abort, long before its own 20 s.
    expect(cell.targetRun!.durationMs).toBeLessThan(20_000);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(cell.targetRun?.stderr).toContain(`grandchild pid ${pid}`);
    expect(isAlive(pid), `grandchild ${pid} outlived the cell`).toBe(false);
  }, 30_000);

  it('is resolved from --target command:… with the script as its receipt source', async () => {
    const target = await resolveTarget(fixture('correct-client'), { cwd: ROOT });
    expect(target.info).toEqual({ name: fixture('correct-client'), kind: 'command', source: resolve(ROOT, 'test/fixtures/clients/correct-client.mjs') });
  });

  it('runs from the CLI and exits 0 for a passing client', async () => {
    // The run is in this thread (main, in-process), whose loop a loaded machine stalls: at load 20 a
    // 4,000 ms timeout gave exit 1 once (the cell not measured, by the stall guard). The baseline
    // cell is answered at once, so the answered-at-once timeout costs nothing.
    const run = await runCli(['run', '--target', fixture('correct-client'), '--case', 'baseline', '--no-schemas', '--quiet', '--timeout', String(ANSWERED_AT_ONCE_TIMEOUT_MS)], { cwd: ROOT });
    expect(run.stderr).toBe('');
    // The TAP on stdout names a failing cell and its reason.
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('ok');
  }, 30_000);
});

// Alive and not a zombie waiting for its reaper (a zombie runs no code and holds no socket).
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
