// Every repro line reproduces its cell: runs small real matrices, takes a sample of cells
// (bundled and --cases tables, classifier, command and SDK targets, a baseline, direct mode, a
// non-default timeout), pastes each cell's repro line into sh, and expects that one cell back
// with the same status. The pasted lines run the compiled CLI (bin/ → dist/: `npm run build`).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { describeWithSchemas } from './describe-requiring.js';
import { packagePath } from '../runner/package-paths.js';
import type { Cell, RunResult } from '../runner/types.js';
import { runCli } from './run-cli.js';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = resolve(ROOT, 'bin/mcp-error-matrix.js');
const work = mkdtempSync(join(tmpdir(), 'mem-repro-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A copy of two bundled cases: a table that is not the bundled one.
const table = join(work, 'my cases');
for (const file of ['application/baseline.json', 'application/tool-is-error.json']) {
  mkdirSync(join(table, 'application'), { recursive: true });
  cpSync(packagePath('cases', file), join(table, file));
}

// A command spec with spaces and both kinds of quotes: it must survive the paste into sh.
const COMMAND_TARGET = `command:MEM_NOTE="it's a \\"test\\"" node test/fixtures/clients/correct-client.mjs`;
const CLASSIFIER_TARGET = 'classifier:./dist/runner/classify/naive.js#classifyNaive';

let runs = 0;
async function runMatrixOnce(args: string[]): Promise<RunResult> {
  const out = join(work, `run-${++runs}`);
  const run = await runCli(['run', ...args, '--out', out, '--quiet'], { cwd: ROOT });
  expect(run.stderr).toBe('');
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
}

/** Pastes the line into sh, where `npx mcp-error-matrix` is this checkout's CLI; returns the run's results. */
async function pasteIntoShell(repro: string): Promise<RunResult> {
  const out = join(work, `repro-${++runs}`);
  const script = `npx() { shift; node "$MEM_BIN" "$@"; }\n${repro} --out "$MEM_OUT" --quiet > /dev/null`;
  await promisify(execFile)('sh', ['-c', script], { cwd: ROOT, env: { ...process.env, MEM_BIN: BIN, MEM_OUT: out }, timeout: 60_000 }).catch((error: { code?: unknown }) => {
    // Exit 1 is a run with unexpected failures, which a failing cell is; anything else is not a run.
    if (error.code !== 1) throw error;
  });
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
}

function pick(result: RunResult, target: string, caseId: string): Cell {
  const cell = result.cells.find((item) => item.target === target && item.case === caseId);
  if (!cell) throw new Error(`no cell ${target} × ${caseId} in ${result.cells.map((item) => `${item.target} × ${item.case}`).join(', ')}`);
  return cell;
}

describeWithSchemas('a repro line pasted into sh gives its cell again, with the same status', () => {
  test('bundled table with its baseline, SDK client; --cases table, classifier module, command with quotes; direct mode', { timeout: 180_000 }, async () => {
    if (!existsSync(resolve(ROOT, 'dist/runner/cli.js'))) throw new Error('test/repro.test.ts pastes repro lines into sh, which run the compiled CLI: run `npm run build` first');
    const [defaults, mine, direct] = await Promise.all([
      // No --target: the built-in targets and the bundled baseline, so naive's failure is xfail.
      runMatrixOnce(['--case', 'tool-is-error', '--version', '2025-11-25', '--timeout', '3000', '--no-schemas']),
      // --timeout 10000: the command client starts a process per cell, which at load 15-18 outlasted the default 2 s.
      runMatrixOnce(['--cases', table, '--target', CLASSIFIER_TARGET, '--target', COMMAND_TARGET, '--version', '2025-11-25', '--timeout', '10000']),
      runMatrixOnce(['--cases', table, '--target', CLASSIFIER_TARGET, '--mode', 'direct', '--case', 'tool-is-error', '--version', '2026-07-28']),
    ]);
    const sample = [
      pick(defaults, 'naive', 'tool-is-error'),
      pick(defaults, 'ts-sdk@1.32.2', 'tool-is-error'),
      pick(mine, CLASSIFIER_TARGET, 'tool-is-error'),
      pick(mine, COMMAND_TARGET, 'baseline'),
      pick(direct, CLASSIFIER_TARGET, 'tool-is-error'),
    ];
    // The sample covers what a repro line must carry.
    expect(sample.map((cell) => (cell.status === 'error' ? `error: ${cell.reason}` : cell.status))).toEqual(['xfail', 'pass', 'fail', 'pass', 'fail']);
    expect(sample[0]!.repro).toMatch(/ --timeout 3000 --baseline baselines\/default\.yaml --no-schemas$/);
    expect(sample[2]!.repro).toContain(` --cases '${table}' `);
    expect(sample[4]!.repro).toContain(' --mode direct');

    const again = await Promise.all(sample.map((cell) => pasteIntoShell(cell.repro)));
    again.forEach((result, index) => {
      const cell = sample[index]!;
      expect(result.cells.map((item) => [item.case, item.target, item.protocolVersion, item.status]), cell.repro).toEqual([[cell.case, cell.target, cell.protocolVersion, cell.status]]);
    });
  });
});
