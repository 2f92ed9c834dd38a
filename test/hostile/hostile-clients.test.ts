import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadCases } from '../../runner/cases/load-cases.js';
import { runMatrix } from '../../runner/run/run-matrix.js';
import { createCommandTarget } from '../../runner/targets/command-target.js';
import type { Cell, RunResult } from '../../runner/vocabulary/types.js';
import { countMarkedProcesses, isAlive } from './process-census.js';
import { CELL_BUDGET_GRACE_MS, getCellBudgetMs } from '../../runner/run/cell-budget.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from '../answered-at-once.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/hostile');
const CORRECT = resolve(import.meta.dirname, '../fixtures/clients/correct-client.mjs');
const CELL_TIMEOUT_MS = 3000;
const MARK = `mem-hostile-${process.pid}-${Date.now()}`;
const pidDir = mkdtempSync(join(tmpdir(), 'mem-hostile-pids-'));
afterAll(() => rmSync(pidDir, { recursive: true, force: true }));

const HOSTILE = [
  'hangs',
  'exits-at-once',
  'crashes-with-signal',
  'stopped-from-outside',
  'leaves-children',
  'floods-output',
  'huge-verdict',
  'invalid-verdict',
  'many-connections',
  'huge-body',
  'malformed-http',
] as const;

// The correct clients are the control: a loaded CI machine must not turn them into timeouts.
function target(name: string, file: string, timeoutMs = CELL_TIMEOUT_MS) {
  return createCommandTarget({
    name,
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`,
    timeoutMs,
    env: { ...process.env, HOSTILE_MARK: MARK, HOSTILE_PID_DIR: pidDir },
  });
}

let result: RunResult;
let peakRssGrowth = 0;

describe('hostile command clients', () => {
  test('the whole matrix finishes; every hostile cell ends error or fail in time; the correct client passes', { timeout: 120_000 }, async () => {
    const cases = (await loadCases()).filter((loaded) => loaded.case.id === 'baseline');
    const hostile = HOSTILE.map((name) => target(name, join(FIXTURES, `${name}.mjs`)));
    const baseline = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRssGrowth = Math.max(peakRssGrowth, process.memoryUsage().rss - baseline)), 25);
    let controls: RunResult[];
    try {
      // The controls run in the same process beside the hostile clients, one as they start and one
      // once half of them have ended, with the long timeout of cells answered at once: at the
      // hostile run's 3000 ms a 2.2 s stall of this thread (a loaded machine) made 'correct-before'
      // 'not measured', which is the stall guard's job (runner/run/stalled-client.test.ts).
      const runControl = (name: string) => runMatrix({ cases, targets: [target(name, CORRECT, 10_000)], versions: ['2026-07-28'], timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS });
      let halfEnded: () => void = () => {};
      const half = new Promise<void>((resolve) => (halfEnded = resolve));
      const onCell = (_cell: Cell, done: number) => {
        if (done === Math.floor(HOSTILE.length / 2)) halfEnded();
      };
      const hostileRun = runMatrix({ cases, targets: hostile, versions: ['2026-07-28'], timeoutMs: 3000, concurrency: 4, onCell });
      [result, ...controls] = await Promise.all([hostileRun, runControl('correct-before'), half.then(() => runControl('correct-after'))]);
    } finally {
      clearInterval(sampler);
    }
    const byTarget = new Map([...result.cells, ...controls.flatMap((run) => run.cells)].map((cell) => [cell.target, cell]));
    const summary = (cell: Cell | undefined) => `${cell?.status} ${cell?.reason ?? ''} ${JSON.stringify(cell?.checks.filter((c) => !c.passed).map((c) => c.id))}`;
    expect(byTarget.get('correct-before')?.status, summary(byTarget.get('correct-before'))).toBe('pass');
    expect(byTarget.get('correct-after')?.status, summary(byTarget.get('correct-after'))).toBe('pass');
    for (const name of HOSTILE) {
      const cell = byTarget.get(name);
      expect(['error', 'fail'], `${name}: ${summary(cell)}`).toContain(cell?.status);
      // In time: within the runner's own bound (the cell budget and its grace), not a speed check;
      // at load 14 the huge verdict's cell took 8,014 ms against the 8,000 ms once asserted here.
      expect(cell!.durationMs, name).toBeLessThan(getCellBudgetMs(3000, 1, CELL_TIMEOUT_MS) + CELL_BUDGET_GRACE_MS + 2000);
    }
    expect(result.complete).toBe(true);
    expect(controls.map((run) => run.complete)).toEqual([true, true]);
  });

  test('specific endings: timeout, crash by signal, flood capped, huge and invalid verdicts read as invalid', () => {
    const cell = (name: string) => result.cells.find((item) => item.target === name)!;
    expect(cell('hangs').targetRun?.timedOut).toBe(true);
    // Dead by a signal before any request: nothing was concluded, a MUST failure (no longer an error cell).
    expect(cell('crashes-with-signal')).toMatchObject({ status: 'fail', conclusion: 'none', targetRun: { crashed: true } });
    expect(cell('crashes-with-signal').checks.find((check) => check.id === 'wire.tool-called')?.passed).toBe(false);
    // Dead by a stop signal the runner did not send (issue 28 item 1): not the client's doing, so not judged.
    expect(cell('stopped-from-outside')).toMatchObject({ status: 'error', errorKind: 'interrupted', checks: [], targetRun: { crashed: true } });
    expect(cell('stopped-from-outside').reason).toMatch(/^the client was stopped by SIGTERM from outside the runner \(a signal to the whole process group, such as Ctrl-C, `timeout` or a CI cancel\), so this cell was not measured$/);
    const flood = cell('floods-output').targetRun!;
    expect((flood.stdout ?? '').length + (flood.stderr ?? '').length).toBeLessThan(8 * 1024 * 1024);
    // A 50 MB verdict is not carried into the results whole.
    expect(JSON.stringify(cell('huge-verdict')).length).toBeLessThan(4 * 1024 * 1024);
    expect(JSON.stringify(cell('invalid-verdict').actual)).not.toContain('<script>');
  });

  test('runner memory stays bounded (100 MB floods, a 50 MB verdict)', () => {
    console.info(`peak RSS growth ${Math.round(peakRssGrowth / 1048576)} MiB; cells ${result.cells.map((c) => `${c.target}=${c.status}`).join(" ")}`);
    expect(peakRssGrowth).toBeLessThan(400 * 1024 * 1024);
  });

  test('no process started by the run is left: children that outlived their client are gone', async () => {
    // The group kill is synchronous, the kernel's reaping is not: allow it a moment.
    await new Promise((wait) => setTimeout(wait, 300));
    const files = readdirSync(pidDir);
    const pids = files.map((file) => Number(readFileSync(join(pidDir, file), 'utf8')));
    expect(files.filter((file) => file.startsWith('child-')).length).toBe(3);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(countMarkedProcesses('HOSTILE_MARK', MARK)).toBe(0);
  });
});
