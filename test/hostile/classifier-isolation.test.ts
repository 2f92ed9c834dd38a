// Issue 11 items 11 and 12: a classifier module runs in a worker thread of its own. Whatever it
// does — exit, throw from a timer, leave a rejection unhandled, block its event loop, patch
// globals, mutate its input, return something that is not data — its own cells become `error`
// with the reason, and the runner, the other targets and the evidence are untouched.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadCases } from '../../runner/cases/load-cases.js';
import { classifyReference } from '../../runner/classify/reference.js';
import { runMatrix } from '../../runner/run/run-matrix.js';
import { createClassifierTarget } from '../../runner/targets/classifier-target.js';
import type { Cell, ClassifierInput, RunResult } from '../../runner/vocabulary/types.js';
import { readFullResults } from '../read-results.js';
import { runCli } from '../run-cli.js';
// @ts-expect-error -- a plain .mjs fixture without type declarations
import { mutate } from '../fixtures/hostile/classifier-mutates-input.mjs';
import { declareLoadedByPath } from '../loaded-by-path.js';

// The worker thread each classifier runs in, started by path.
declareLoadedByPath(() => import('../../runner/targets/classifier-worker.mjs' as string));

const FIXTURES = resolve(import.meta.dirname, '../fixtures/hostile');
const work = mkdtempSync(join(tmpdir(), 'mem-isolation-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Inputs of one module queue behind each other: on a loaded machine a cell may also reach its
// overall budget ("the target did not finish within N ms") while waiting its turn, or wait while
// the worker is replaced again and again because of the module's other inputs.
const OR_BUDGET = String.raw`|the target did not finish within (the cell budget of )?\d+ ms|the classifier's worker had to be replaced \d+ times while this input waited`;
const HOSTILE: Record<string, RegExp> = {
  'classifier-exits': new RegExp(String.raw`ended its worker thread \(process\.exit\(0\)\)${OR_BUDGET}`),
  'classifier-throws-later': new RegExp(String.raw`crashed its worker: thrown from a timer by the classifier${OR_BUDGET}`),
  'classifier-rejects-unhandled': new RegExp(String.raw`crashed its worker: .*rejection nobody handles${OR_BUDGET}`),
  'classifier-busy-loop': new RegExp(String.raw`gave no answer within 1300 ms \(a blocked event loop${OR_BUDGET}`),
  'classifier-returns-function': /cannot be passed back as plain data/,
  // Issue 28 item 4: the cap says why, instead of "no answer within 2000 ms", and nothing is copied.
  'classifier-huge-answer': /exchange 1: the classifier's answer is larger than the 1048576 characters a classifier may answer for one exchange \(a string of 419430400 characters at `detail`\); it was not passed back/,
};
// One protocol version: a hostile module breaks its cells alike at every version, and each cell of
// the busy loop spins a core for its whole deadline (1.3 s), which four versions paid eight times.
const SELECT = ['--case', 'baseline', '--case', 'tool-is-error', '--version', '2026-07-28', '--mode', 'direct', '--timeout', '300', '--no-schemas', '--no-baseline', '--quiet'];

function readResults(dir: string): RunResult {
  return readFullResults(dir);
}

/** What a target's cells concluded, without timings. */
function verdictsOf(result: RunResult, target: string) {
  return result.cells.filter((cell) => cell.target === target).map((cell: Cell) => ({ id: `${cell.case}@${cell.protocolVersion}`, status: cell.status, actual: cell.actual, checks: cell.checks }));
}

describe('classifier modules run isolated', () => {
  test('hostile modules break only their own cells: the run finishes, writes complete reports and exits 1; reference and naive are unchanged', { timeout: 60_000 }, async () => {
    const control = join(work, 'control');
    const alone = await runCli(['run', '--target', 'reference', '--target', 'naive', ...SELECT, '--out', control]);
    expect(alone.code).toBe(1); // naive fails tool-is-error: the control must show a failure to protect

    const out = join(work, 'hostile');
    const hostile = [...Object.keys(HOSTILE), 'classifier-patches-globals'].flatMap((name) => ['--target', `classifier:${join(FIXTURES, `${name}.mjs`)}`]);
    const started = performance.now();
    const run = await runCli(['run', '--target', 'reference', '--target', 'naive', ...hostile, ...SELECT, '--out', out]);
    const elapsedMs = performance.now() - started;
    expect(run.code).toBe(1);
    const result = readResults(out);
    expect(result.complete).toBe(true);
    for (const [name, reason] of Object.entries(HOSTILE)) {
      const cells = result.cells.filter((cell) => cell.target.endsWith(`${name}.mjs`));
      expect(cells, name).toHaveLength(2); // two cases × one protocol version
      for (const cell of cells) {
        expect(cell.status, `${name} ${cell.case}@${cell.protocolVersion}`).toBe('error');
        expect(cell.reason, name).toMatch(reason);
      }
    }
    // Patched JSON.stringify / Object.prototype live in the module's worker only.
    expect(verdictsOf(result, 'reference')).toEqual(verdictsOf(readResults(control), 'reference'));
    expect(verdictsOf(result, 'naive')).toEqual(verdictsOf(readResults(control), 'naive'));
    expect(verdictsOf(result, 'naive').some((cell) => cell.status === 'fail')).toBe(true);
    // Every blocked input costs its deadline (and a restart), no more: 2 cells of the busy loop, ~1.3 s each.
    expect(elapsedMs).toBeLessThan(40_000);
  });

  test('a module that blocks on one input fails only those cells: inputs that waited behind it are sent again', { timeout: 60_000 }, async () => {
    const out = join(work, 'blocks-on-5xx');
    const file = join(FIXTURES, 'classifier-blocks-on-5xx.mjs');
    const run = await runCli(['run', '--target', `classifier:${file}`, '--case', 'baseline', '--case', 'tool-is-error', '--case', 'http-500-success-body', '--version', '2026-07-28', '--mode', 'direct', '--timeout', '1000', '--concurrency', '6', '--no-schemas', '--no-baseline', '--quiet', '--out', out]);
    expect(run.code).toBe(1);
    const status = Object.fromEntries(readResults(out).cells.map((cell) => [`${cell.case}@${cell.protocolVersion}`, cell.status]));
    // All three inputs are out at once; tool-is-error was queued behind the blocked 500 and is
    // judged on its own answer (TOOL_SUCCESS: a fail), not an error.
    expect(status).toEqual({ 'baseline@2026-07-28': 'pass', 'http-500-success-body@2026-07-28': 'error', 'tool-is-error@2026-07-28': 'fail' });
  });

  test('a module whose top-level code exits is a clear --target error, not a dead runner', async () => {
    const file = join(work, 'exits-on-load.mjs');
    (await import('node:fs')).writeFileSync(file, 'process.exit(0);\nexport default () => ({});\n');
    const run = await runCli(['run', '--target', `classifier:${file}`, ...SELECT]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--target classifier:.*exits-on-load\.mjs: cannot import .*ended its worker thread \(process\.exit\(0\)\)/);
  });
});

describe('each target gets its own copy of the input (item 12)', () => {
  test('an in-process classifier that mutates every field leaves the evidence of the other target byte-identical', { timeout: 60_000 }, async () => {
    const cases = (await loadCases()).filter((loaded) => ['baseline', 'tool-is-error', 'mrtr-loop', 'session-expired-404'].includes(loaded.case.id));
    const evidence = (result: RunResult) =>
      result.cells
        .filter((cell) => cell.target === 'reference')
        .map((cell) => ({ id: `${cell.case}@${cell.protocolVersion}`, status: cell.status, bodies: cell.recording?.exchanges.map((exchange) => exchange.request.body) }));
    const reference = () => createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
    const mutator = createClassifierTarget({ name: 'mutator', kind: 'classifier' }, (input: ClassifierInput) => {
      mutate(input);
      return classifyReference(input);
    });
    const control = await runMatrix({ cases, targets: [reference()], concurrency: 1 });
    // The mutator's cells run first (concurrency 1): any mutation that leaked would reach the reference's requests.
    const mixed = await runMatrix({ cases, targets: [mutator, reference()], concurrency: 1 });
    expect(evidence(control).length).toBeGreaterThan(0);
    expect(JSON.stringify(evidence(mixed))).toBe(JSON.stringify(evidence(control)));
    expect(JSON.stringify(mixed.cells.filter((cell) => cell.target === 'mutator').map((cell) => cell.recording?.exchanges.map((e) => e.request.body)))).not.toContain('mutated');
  });

  test('the loaded case table is frozen: a mutation throws instead of reaching the evidence', async () => {
    const [loaded] = await loadCases();
    expect(Object.isFrozen(loaded!.case)).toBe(true);
    expect(() => {
      (loaded!.case.exchanges as unknown[]).push({});
    }).toThrow(TypeError);
  });
});
