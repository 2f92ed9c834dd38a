import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CELL_BUDGET_GRACE_MS, getCellBudgetMs } from '../runner/run/cell-budget.js';
import { OUTCOMES, type RunResult } from '../runner/vocabulary/types.js';
import { compileFixture } from './compile-fixture.js';
import { describeWithSchemas } from './describe-requiring.js';
import { readFullResults } from './read-results.js';
import { runCli } from './run-cli.js';

const ELEVEN = [
  'baseline',
  'http-503-then-200',
  'jsonrpc-invalid-params',
  'tool-is-error',
  'http-500-success-body',
  'malformed-json',
  'result-and-error',
  'wrong-response-id',
  'input-required',
  'legacy-no-result-type',
  'content-not-array',
];
const selectEleven = ELEVEN.flatMap((id) => ['--case', id]);
const work = mkdtempSync(join(tmpdir(), 'mem-eleven-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function readResults(dir: string): RunResult {
  return readFullResults(dir);
}

describeWithSchemas('the eleven published cases', () => {
  test.each(['http', 'direct'])('all pass on the reference target (%s mode) and show all eight published outcomes', async (mode) => {
    const out = mkdtempSync(join(work, 'out-'));
    const run = await runCli(['run', '--target', 'reference', '--mode', mode, ...selectEleven, '--out', out, '--tap', '--quiet']);
    expect(run.stderr).toBe('');
    // The failing cell first, by name (under load a cell of the http run failed, and exit 1 said nothing more).
    expect(run.stdout.split('\n').filter((line) => /^\s*not ok/.test(line))).toEqual([]);
    expect(run.code).toBe(0);
    const results = readResults(out);
    expect(results.format).toBe('mcp-error-matrix/results@1');
    expect(new Set(results.cells.map((cell) => cell.case))).toEqual(new Set(ELEVEN));
    expect(results.cells.every((cell) => cell.status === 'pass')).toBe(true);
    const seen = new Set(results.cells.flatMap((cell) => cell.actual.map((verdict) => verdict?.outcome)));
    for (const outcome of OUTCOMES.slice(0, 8)) expect(seen).toContain(outcome);
    expect(readFileSync(join(out, 'results.tap'), 'utf8')).toBe(run.stdout);
  });

  test('the naive HTTP-status-only control fails exactly the cases a status check cannot see', async () => {
    const out = mkdtempSync(join(work, 'out-'));
    const run = await runCli(['run', '--target', 'naive', ...selectEleven, '--out', out, '--tap', '--quiet']);
    expect(run.code).toBe(1);
    const failing = new Set(readResults(out).cells.filter((cell) => cell.status === 'fail').map((cell) => cell.case));
    expect([...failing].sort()).toEqual(
      ['content-not-array', 'input-required', 'jsonrpc-invalid-params', 'malformed-json', 'result-and-error', 'tool-is-error', 'wrong-response-id'].sort(),
    );
    expect(run.stdout).toMatch(/not ok \d+ - tool-is-error \[2025-11-25\]\n\s+---\n[\s\S]*?repro: .*--case tool-is-error/);
  });

  test('a classifier written for the published { status, body, expectedId } shape runs unchanged', async () => {
    const run = await runCli(['run', '--target', `classifier:${compileFixture('test/fixtures/classifiers/published-shape.ts', work)}`, ...selectEleven, '--quiet']);
    expect(run.stdout).not.toMatch(/^\s*not ok/m);
    expect(run.code).toBe(0);
  });

  test('a classifier that throws gives error cells, not a crash', async () => {
    const run = await runCli(['run', '--target', `classifier:${compileFixture('test/fixtures/classifiers/throws.ts', work)}`, '--case', 'baseline', '--quiet']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/not ok 1 - baseline \[2025-03-26\] \(error\)/);
    expect(run.stdout).toMatch(/reason: .*threw/);
  });
});

describeWithSchemas('a classifier that never returns', () => {
  test('gives an error cell within the cell budget instead of hanging the run', async () => {
    const out = join(work, 'never-returns');
    const run = await runCli(['run', '--target', `classifier:${compileFixture('test/fixtures/classifiers/never-returns.ts', work)}`, '--case', 'baseline', '--version', '2026-07-28', '--timeout', '200', '--mode', 'direct', '--quiet', '--out', out, '--tap']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/not ok 1 - baseline \[2026-07-28\] \(error\)[\s\S]*gave no answer within 1200 ms/);
    // The cell ended within the runner's own bound (its budget and grace), not a speed check: the
    // 8 s once asserted here timed the whole in-process run, the fixture's compilation included,
    // which a loaded machine stretches (+2 s, as in hostile-clients.test.ts, for a loop stall).
    expect(readResults(out).cells[0]!.durationMs).toBeLessThan(getCellBudgetMs(200, 1) + CELL_BUDGET_GRACE_MS + 2000);
  });
});
