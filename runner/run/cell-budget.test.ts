import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import { createCommandTarget, getDefaultCellTimeout } from '../targets/command-target.js';
import { parseCommandSpec } from '../targets/command/parse-command-spec.js';
import type { Target, TargetContext } from '../vocabulary/types.js';
import { CELL_BUDGET_SLACK_MS, getCellBudgetMs, MAX_CELL_EXCHANGE_TIMEOUTS, MAX_TARGET_CELL_MS } from './cell-budget.js';
import { runCell } from './run-cell.js';

const ROOT = resolve(import.meta.dirname, '../..');
const load = (item = makeCase([{ body: { json: SUCCESS_JSON } }])): LoadedCase => ({ case: item, file: 'x.json', relativeFile: 'x.json', sha256: '0'.repeat(64) });

// The two tests that wait out a budget (5.3 s and 6 s of wall, next to no CPU) wait side by side:
// both suites are concurrent.
describe.concurrent('the cell budget', () => {
  it('keeps the old room for small cases: every exchange may time out, plus one, plus slack', () => {
    expect(getCellBudgetMs(2000, 1)).toBe(2000 * 3 + CELL_BUDGET_SLACK_MS);
    expect(getCellBudgetMs(2000, 3)).toBe(2000 * 5 + CELL_BUDGET_SLACK_MS);
  });

  it('caps a case with 100 hanging exchanges at a ceiling independent of the exchanges (was 205 s, now 25 s)', () => {
    const hanging = makeCase(Array.from({ length: 100 }, () => ({ start: 'hang' as const })));
    expect(getCellBudgetMs(2000, hanging.exchanges.length)).toBe(2000 * MAX_CELL_EXCHANGE_TIMEOUTS + CELL_BUDGET_SLACK_MS);
    expect(getCellBudgetMs(2000, hanging.exchanges.length)).toBeLessThanOrEqual(25_000);
    // The client process is killed first, so its run record is kept.
    expect(getDefaultCellTimeout({ timeoutMs: 2000, case: hanging })).toBe(2000 * MAX_CELL_EXCHANGE_TIMEOUTS);
  });

  it("raises the budget to a client's own #timeout, up to a documented ceiling", () => {
    expect(getCellBudgetMs(2000, 1, 30_000)).toBe(30_000 + CELL_BUDGET_SLACK_MS);
    expect(getCellBudgetMs(2000, 1, 1000)).toBe(getCellBudgetMs(2000, 1));
    expect(getCellBudgetMs(2000, 1, 10 * MAX_TARGET_CELL_MS)).toBe(MAX_TARGET_CELL_MS + CELL_BUDGET_SLACK_MS);
    expect(() => parseCommandSpec(`command:node c.mjs #timeout=${MAX_TARGET_CELL_MS + 1}`)).toThrow(/at most 300000/);
  });

  it('keeps the verdict and run record of a target that overran the budget, as evidence beside the error', async () => {
    // Never settles on its own; when told to stop it hands over what it had.
    const target: Target = {
      info: { name: 'stubborn', kind: 'test' },
      usesServer: () => false,
      run: (context: TargetContext) =>
        new Promise((settle) => {
          context.signal.addEventListener('abort', () => settle({ verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }], run: { timedOut: false, durationMs: 1 } }), { once: true });
        }),
    };
    const cell = await runCell({ loaded: load(), protocolVersion: '2026-07-28', target, mode: 'direct', timeoutMs: 100, signal: new AbortController().signal, schema: [] });
    expect(cell.status).toBe('error');
    expect(cell.reason).toBe(`the target did not finish within the cell budget of ${getCellBudgetMs(100, 1)} ms`);
    expect(cell.actual).toEqual([{ outcome: 'TOOL_SUCCESS', layer: 'application' }]);
    expect(cell.targetRun).toMatchObject({ durationMs: 1 });
  }, 15_000);
});

describe.concurrent("a client's own #timeout is honoured", () => {
  it('passes a client that needs longer than the default cell budget but within its #timeout', async () => {
    const baseline = (await loadCases({ cwd: ROOT })).find((item) => item.case.id === 'baseline')!;
    // --timeout 100: the default budget is 100 × 3 + 5000 = 5300 ms; the client waits 6000 ms first,
    // so the cell lasts longer than that budget whatever the machine's load.
    const env = { ...process.env, MCP_MATRIX_FIXTURE_DELAY_MS: '6000' };
    const slow = createCommandTarget({ command: 'node test/fixtures/clients/slow-with-own-timeout.mjs', cwd: ROOT, timeoutMs: 30_000, env });
    const cell = await runCell({ loaded: baseline, protocolVersion: '2026-07-28', target: slow, mode: 'http', timeoutMs: 100, signal: new AbortController().signal, schema: [] });
    expect(cell.durationMs).toBeGreaterThan(getCellBudgetMs(100, 1));
    expect(cell.checks.filter((c) => !c.passed), JSON.stringify(cell.targetRun)).toEqual([]);
    expect(cell).toMatchObject({ status: 'pass', conclusion: 'verdict', actual: [{ outcome: 'TOOL_SUCCESS' }] });
    expect(cell.targetRun?.timedOut).toBe(false);
  }, 60_000);
});
