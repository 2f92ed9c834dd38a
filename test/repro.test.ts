// Every repro line reproduces its cell: runs small real matrices, takes a sample of cells
// (bundled and --cases tables, classifier, command and SDK targets, a baseline, direct mode, a
// non-default timeout), pastes each cell's repro line into sh, and expects that one cell back
// with the same status. sh reads each line into the CLI's arguments (quotes, spaces, $, \), which
// run in this process as `npx --no mcp-error-matrix` (the words a run in this process starts its
// lines with: there is no command line to repeat) would run them: a CLI process per line cost about
// 1.5 s of CPU each. The classifier target is the compiled naive (dist/: `npm run build`).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { describeWithSchemas } from './describe-requiring.js';
import { BUNDLED_BASELINE } from '../runner/baseline/run-baseline.js';
import { packagePath } from '../runner/util/package-paths.js';
import type { Cell, RunResult } from '../runner/vocabulary/types.js';
import { readFullResults } from './read-results.js';
import { runCli } from './run-cli.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from './answered-at-once.js';

const ROOT = resolve(import.meta.dirname, '..');
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
  return readFullResults(out);
}

/**
 * Pastes the line into sh, where `npx --no mcp-error-matrix` hands the words sh read to this checkout's
 * CLI (NUL-separated, so no word is split or joined again); runs them and returns the run's results.
 */
async function pasteIntoShell(repro: string): Promise<RunResult> {
  const out = join(work, `repro-${++runs}`);
  const script = `npx() { [ "$1 $2" = '--no mcp-error-matrix' ] || exit 3; shift 2; printf '%s\\0' "$@"; }\n${repro} --out "$MEM_OUT" --quiet`;
  const { stdout } = await promisify(execFile)('sh', ['-c', script], { cwd: ROOT, env: { ...process.env, MEM_OUT: out }, timeout: 60_000 });
  const run = await runCli(stdout.split('\0').slice(0, -1), { cwd: ROOT });
  // Exit 1 is a run with unexpected failures, which a failing cell is; anything else is not a run.
  expect([0, 1], `${repro}\n${run.stderr}`).toContain(run.code);
  return readFullResults(out);
}


function pick(result: RunResult, target: string, caseId: string): Cell {
  const cell = result.cells.find((item) => item.target === target && item.case === caseId);
  if (!cell) throw new Error(`no cell ${target} × ${caseId} in ${result.cells.map((item) => `${item.target} × ${item.case}`).join(', ')}`);
  return cell;
}

describeWithSchemas('a repro line pasted into sh gives its cell again, with the same status', () => {
  test('bundled table with its baseline, SDK client; --cases table, classifier module, command with quotes; direct mode', { timeout: 180_000 }, async () => {
    if (!existsSync(resolve(ROOT, 'dist/runner/cli/cli.js'))) throw new Error('test/repro.test.ts runs the compiled naive classifier as a module target: run `npm run build` first');
    // One run at a time, here and for the pasted lines: runs in this process share its event loop,
    // and one run's loading (the case table, the schemas) stalled a neighbour's SDK cell past the
    // stall guard ("not measured"), which separate CLI processes never did.
    // The bundled baseline, so naive's failure is xfail; given as an absolute path, so the line
    // must carry the baseline the run applied (as a path from the run's folder), not the text of
    // --baseline. Without --target a run applies that file by itself (run-baseline-rules.test.ts),
    // through the same repro context; it would start every default client's worker (7 SDK workers,
    // about 9 s of CPU) for two sampled cells.
    // A non-default --timeout the line must carry: long, since the SDK cell is answered at once and a
    // loop stall of half the timeout would leave it not measured (test/answered-at-once.ts).
    const defaults = await runMatrixOnce(['--target', 'naive', '--target', 'ts-sdk@1.32.2', '--baseline', packagePath(BUNDLED_BASELINE), '--case', 'tool-is-error', '--version', '2025-11-25', '--timeout', String(ANSWERED_AT_ONCE_TIMEOUT_MS), '--no-schemas']);
    // --timeout 10000: the command client starts a process per cell, which at load 15-18 outlasted the default 2 s.
    const mine = await runMatrixOnce(['--cases', table, '--target', CLASSIFIER_TARGET, '--target', COMMAND_TARGET, '--version', '2025-11-25', '--timeout', '10000']);
    const direct = await runMatrixOnce(['--cases', table, '--target', CLASSIFIER_TARGET, '--mode', 'direct', '--case', 'tool-is-error', '--version', '2026-07-28']);
    const sample = [
      pick(defaults, 'naive', 'tool-is-error'),
      pick(defaults, 'ts-sdk@1.32.2', 'tool-is-error'),
      pick(mine, CLASSIFIER_TARGET, 'tool-is-error'),
      pick(mine, COMMAND_TARGET, 'baseline'),
      pick(direct, CLASSIFIER_TARGET, 'tool-is-error'),
    ];
    // The sample covers what a repro line must carry.
    expect(sample.map((cell) => (cell.status === 'error' ? `error: ${cell.reason}` : cell.status))).toEqual(['xfail', 'pass', 'fail', 'pass', 'fail']);
    expect(sample[0]!.repro).toMatch(new RegExp(` --timeout ${ANSWERED_AT_ONCE_TIMEOUT_MS} --baseline baselines/default\\.yaml --no-schemas$`));
    expect(sample[2]!.repro).toContain(` --cases '${table}' `);
    expect(sample[4]!.repro).toContain(' --mode direct');

    const again: RunResult[] = [];
    for (const cell of sample) again.push(await pasteIntoShell(cell.repro));
    again.forEach((result, index) => {
      const cell = sample[index]!;
      expect(result.cells.map((item) => [item.case, item.target, item.protocolVersion, item.status]), cell.repro).toEqual([[cell.case, cell.target, cell.protocolVersion, cell.status]]);
    });
  });
});
