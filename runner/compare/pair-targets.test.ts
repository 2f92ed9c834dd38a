// Comparing across versions (issue 14 §4): cells of differently named targets pair through
// --pair OLD=NEW or, with one target per family in each run, by themselves; a comparison that
// pairs nothing is exit 2 naming the targets of each file.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { runCli } from '../../test/run-cli.js';
import type { Cell, RunResult } from '../vocabulary/types.js';
import { compareResults } from './compare-results.js';
import { AmbiguousPairingError, canPairPlannedRun, checkPairs, choosePairs, listResultTargets, parsePairs } from './pair-targets.js';
import { renderComparison } from './render-comparison.js';

function runOf(target: string | string[], ...list: [string, Cell['status']][]): RunResult {
  const names = Array.isArray(target) ? target : [target];
  return makeRunResult({
    targets: names.map((name) => ({ name, kind: 'client', version: name.split('@')[1] ?? '0.1.0' })),
    cells: names.flatMap((name) => list.map(([id, status]) => makeCell({ case: id, target: name, status }))),
  });
}

describe('pairing targets of different names', () => {
  const old = runOf('ts-client@2.0.0', ['a', 'fail'], ['b', 'pass'], ['c', 'pass']);
  const now = runOf('ts-client@2.4.0', ['a', 'pass'], ['b', 'fail'], ['c', 'pass']);

  it('matches cells of a pair by case and version and names both targets', () => {
    const outcome = compareResults(old, now, 'old.json', [{ before: 'ts-client@2.0.0', after: 'ts-client@2.4.0' }]);
    expect(outcome.paired).toBe(3);
    expect(outcome.comparison.fixes).toEqual([{ case: 'a', target: 'ts-client@2.4.0', beforeTarget: 'ts-client@2.0.0', protocolVersion: '2025-11-25', before: 'fail', after: 'pass' }]);
    expect(outcome.comparison.regressions.map((c) => c.case)).toEqual(['b']);
    expect(outcome.comparison).toMatchObject({ added: [], removed: [], pairs: [{ before: 'ts-client@2.0.0', after: 'ts-client@2.4.0' }] });
    expect(renderComparison(outcome.comparison, 'text')).toContain('not ok 1 - regression: b · ts-client@2.0.0 → ts-client@2.4.0 · 2025-11-25 (pass → fail)');
    expect(renderComparison(outcome.comparison, 'markdown')).toContain('> Paired targets (old → new): ts-client@2.0.0 → ts-client@2.4.0');
  });

  it('without pairs the same runs pair nothing', () => {
    expect(compareResults(old, now).paired).toBe(0);
  });

  it('pairs a family by itself only when each run has one target of it under different names', () => {
    expect(choosePairs(old, now)).toEqual([{ before: 'ts-client@2.0.0', after: 'ts-client@2.4.0' }]);
    expect(choosePairs(runOf(['reference', 'ts-sdk@1.25.0']), runOf(['reference', 'ts-sdk@1.32.2']))).toEqual([{ before: 'ts-sdk@1.25.0', after: 'ts-sdk@1.32.2' }]);
    expect(() => choosePairs(runOf(['ts-sdk@1.25.0', 'ts-sdk@1.32.2']), runOf('ts-sdk@1.33.0'))).toThrow(AmbiguousPairingError);
    expect(choosePairs(old, old)).toEqual([]);
    expect(choosePairs(runOf('naive'), runOf('reference'))).toEqual([]);
    expect(choosePairs(old, now, [{ before: 'x', after: 'y' }])).toEqual([{ before: 'x', after: 'y' }]);
  });

  it('reads --pair OLD=NEW and refuses anything else with the expected form', () => {
    expect(parsePairs(['ts-sdk@1.25.0=ts-sdk@1.32.2'], 'compare')).toEqual([{ before: 'ts-sdk@1.25.0', after: 'ts-sdk@1.32.2' }]);
    expect(() => parsePairs(['ts-sdk@1.25.0'], 'compare')).toThrow('compare --pair ts-sdk@1.25.0: expected OLD=NEW, two target names');
    expect(() => parsePairs(['=b'], 'run')).toThrow(/run --pair =b: expected OLD=NEW/);
  });

  it('predicts before a run whether any cell will pair', () => {
    const plan = { targets: ['ts-client@2.4.0'], cases: ['a'] };
    expect(canPairPlannedRun(old, plan, [])).toBe(false);
    expect(canPairPlannedRun(old, plan, [{ before: 'ts-client@2.0.0', after: 'ts-client@2.4.0' }])).toBe(true);
    expect(canPairPlannedRun(old, { ...plan, cases: ['z'] }, [{ before: 'ts-client@2.0.0', after: 'ts-client@2.4.0' }])).toBe(false);
    expect(canPairPlannedRun(old, { ...plan, versions: ['2026-07-28'] }, [{ before: 'ts-client@2.0.0', after: 'ts-client@2.4.0' }])).toBe(false);
  });
});

describe('pairing rules', () => {
  // A sweep: two versions of one package in one run, as `run --target ts-sdk@1.24.3 --target ts-sdk@1.25.3` writes it.
  const sweep = makeRunResult({
    targets: [{ name: 'ts-sdk@1.24.3', kind: 'client', version: '1.24.3' }, { name: 'ts-sdk@1.25.3', kind: 'client', version: '1.25.3' }],
    cells: [
      ...[['a', 'pass'], ['b', 'pass'], ['c', 'fail']].map(([id, status]) => makeCell({ case: id, target: 'ts-sdk@1.24.3', status: status as Cell['status'] })),
      ...[['a', 'pass'], ['b', 'fail'], ['c', 'pass']].map(([id, status]) => makeCell({ case: id, target: 'ts-sdk@1.25.3', status: status as Cell['status'] })),
    ],
  });
  const pair = [{ before: 'ts-sdk@1.24.3', after: 'ts-sdk@1.25.3' }];

  it('pairs two versions inside one run: the old version\'s cells against the new one\'s, none counted as added or removed', () => {
    const outcome = compareResults(sweep, sweep, 'ab/results.json', pair);
    expect(outcome.comparison.regressions).toEqual([{ case: 'b', target: 'ts-sdk@1.25.3', beforeTarget: 'ts-sdk@1.24.3', protocolVersion: '2025-11-25', before: 'pass', after: 'fail' }]);
    expect(outcome.comparison.fixes.map((c) => c.case)).toEqual(['c']);
    expect(outcome.comparison).toMatchObject({ added: [], removed: [] });
    expect(outcome.paired).toBe(3);
    // The old run's own 1.25.3 and the new run's own 1.24.3 stand on the other side of the pair: named, not compared.
    expect(outcome.setAside).toEqual({ before: ['ts-sdk@1.25.3'], after: ['ts-sdk@1.24.3'] });
  });

  it('a chain of pairs (A=B, B=C) compares each old target with its own new one', () => {
    const three = runOf(['ts-sdk@1.0.0', 'ts-sdk@1.1.0', 'ts-sdk@1.2.0'], ['a', 'pass']);
    three.cells[1] = { ...three.cells[1]!, status: 'fail' }; // 1.1.0 fails
    const outcome = compareResults(three, three, undefined, [{ before: 'ts-sdk@1.0.0', after: 'ts-sdk@1.1.0' }, { before: 'ts-sdk@1.1.0', after: 'ts-sdk@1.2.0' }]);
    expect(outcome.comparison.regressions.map((c) => `${c.beforeTarget} → ${c.target}`)).toEqual(['ts-sdk@1.0.0 → ts-sdk@1.1.0']);
    expect(outcome.comparison.fixes.map((c) => `${c.beforeTarget} → ${c.target}`)).toEqual(['ts-sdk@1.1.0 → ts-sdk@1.2.0']);
    expect(outcome.setAside).toEqual({ before: ['ts-sdk@1.2.0'], after: ['ts-sdk@1.0.0'] });
  });

  it('refuses two pairs onto one new target (one old target\'s cells would silently replace the other\'s)', () => {
    const old = runOf(['ts-sdk@1.24.3', 'ts-sdk@1.25.3'], ['a', 'pass']);
    const labels = { old: 'old.json', new: 'new.json', command: 'compare' };
    expect(() => checkPairs([{ before: 'ts-sdk@1.24.3', after: 'ts-sdk@1.32.2' }, { before: 'ts-sdk@1.25.3', after: 'ts-sdk@1.32.2' }], listResultTargets(old), ['ts-sdk@1.32.2'], labels)).toThrow(
      'compare --pair ts-sdk@1.25.3=ts-sdk@1.32.2: ts-sdk@1.32.2 is already paired with ts-sdk@1.24.3; give each new target one --pair',
    );
  });

  it('ranks error with fail: pass → error is a regression, error → pass a fix', () => {
    const { comparison } = compareResults(runOf('naive', ['a', 'pass'], ['b', 'error'], ['c', 'fail']), runOf('naive', ['a', 'error'], ['b', 'pass'], ['c', 'error']));
    expect(comparison.regressions.map((c) => `${c.case}: ${c.before} → ${c.after}`)).toEqual(['a: pass → error']);
    expect(comparison.fixes.map((c) => `${c.case}: ${c.before} → ${c.after}`)).toEqual(['b: error → pass']);
  });

  it('pairs a family by itself only when that is unambiguous, else names the choices in version order', () => {
    const old = runOf(['reference', 'ts-sdk@1.24.3'], ['a', 'pass']);
    const two = runOf(['reference', 'ts-sdk@1.9.0', 'ts-sdk@1.10.0'], ['a', 'pass']);
    const attempt = () => choosePairs(old, runOf(['reference', 'ts-sdk@1.10.0', 'ts-sdk@1.9.0'], ['a', 'pass']), [], { old: 'old.json', new: 'new.json', command: 'compare' });
    expect(attempt).toThrow(AmbiguousPairingError);
    expect(attempt).toThrow(
      'compare: ts-sdk could pair more than one way (old.json has ts-sdk@1.24.3; new.json has ts-sdk@1.9.0, ts-sdk@1.10.0), and a comparison never guesses; name the pair to compare: --pair ts-sdk@1.24.3=ts-sdk@1.9.0 or --pair ts-sdk@1.24.3=ts-sdk@1.10.0.',
    );
    expect(() => choosePairs(two, old)).toThrow(/--pair ts-sdk@1\.9\.0=ts-sdk@1\.24\.3 or --pair ts-sdk@1\.10\.0=ts-sdk@1\.24\.3/);
    // Old {1.24.3, 1.25.3} and new {1.25.3, 1.26.0}: 1.24.3 → 1.26.0 or 1.25.3 → 1.26.0 is the user's call.
    expect(() => choosePairs(runOf(['ts-sdk@1.24.3', 'ts-sdk@1.25.3'], ['a', 'pass']), runOf(['ts-sdk@1.25.3', 'ts-sdk@1.26.0'], ['a', 'pass']))).toThrow(
      /--pair ts-sdk@1\.24\.3=ts-sdk@1\.26\.0 or --pair ts-sdk@1\.25\.3=ts-sdk@1\.26\.0\./,
    );
    // Nothing to choose: every version in both runs, or no version only in one of them.
    expect(choosePairs(two, two)).toEqual([]);
    expect(choosePairs(old, runOf(['reference', 'ts-sdk@1.24.3', 'ts-sdk@1.25.3'], ['a', 'pass']))).toEqual([]);
    expect(choosePairs(two, old, [{ before: 'ts-sdk@1.9.0', after: 'ts-sdk@1.24.3' }])).toEqual([{ before: 'ts-sdk@1.9.0', after: 'ts-sdk@1.24.3' }]);
  });
});

describe('compare --pair and run --compare --pair', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-pair-'));
    await writeFile(join(dir, 'client-2.0.json'), JSON.stringify(runOf('ts-client@2.0.0', ['a', 'pass'], ['b', 'fail'])));
    await writeFile(join(dir, 'client-2.4.json'), JSON.stringify(runOf('ts-client@2.4.0', ['a', 'pass'], ['b', 'pass'])));
    await writeFile(join(dir, 'sdk.json'), JSON.stringify(runOf('ts-sdk@1.32.2', ['a', 'fail'], ['b', 'pass'])));
    const sweep = runOf(['ts-sdk@1.24.3', 'ts-sdk@1.25.3'], ['a', 'pass'], ['b', 'pass']);
    sweep.cells[3] = { ...sweep.cells[3]!, status: 'fail' }; // 1.25.3 fails b
    await writeFile(join(dir, 'sweep.json'), JSON.stringify(sweep));
    await writeFile(join(dir, 'sdk-two.json'), JSON.stringify(runOf(['naive', 'ts-sdk@1.25.3', 'ts-sdk@1.32.2'], ['a', 'pass'])));
    await writeFile(join(dir, 'sdk-one.json'), JSON.stringify(runOf(['naive', 'ts-sdk@1.24.3'], ['a', 'pass'])));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runCli(args, { cwd: dir });

  it('pairs one target per family by itself (ts-client@2.0.0 with ts-client@2.4.0)', async () => {
    const result = await cli('compare', 'client-2.0.json', 'client-2.4.json', '--format', 'text');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('1..1\nok 1 - fix: b · ts-client@2.0.0 → ts-client@2.4.0 · 2025-11-25 (fail → pass)\n# Paired targets (old → new): ts-client@2.0.0 → ts-client@2.4.0\n# 0 regressions · 1 fixes · 0 added · 0 removed\n');
  });

  it('pairs targets of different families with --pair', async () => {
    const result = await cli('compare', 'sdk.json', 'client-2.0.json', '--pair', 'ts-sdk@1.32.2=ts-client@2.0.0');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('### Regressions (1)\n\n- b · ts-sdk@1.32.2 → ts-client@2.0.0 · 2025-11-25 (pass → fail)');
  });

  it('compares two versions inside one results file: exit 1 on the regression, the set-aside targets named', async () => {
    const result = await cli('compare', 'sweep.json', 'sweep.json', '--pair', 'ts-sdk@1.24.3=ts-sdk@1.25.3', '--format', 'text');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      '1..1\nnot ok 1 - regression: b · ts-sdk@1.24.3 → ts-sdk@1.25.3 · 2025-11-25 (pass → fail)\n' +
        '# Paired targets (old → new): ts-sdk@1.24.3 → ts-sdk@1.25.3\n' +
        '# Not compared, each on the other side of a pair: ts-sdk@1.25.3 of sweep.json (old); ts-sdk@1.24.3 of sweep.json (new)\n' +
        '# 1 regressions · 0 fixes · 0 added · 0 removed\n',
    );
  });

  it('exits 2 naming the choices when a family could pair more than one way', async () => {
    const result = await cli('compare', 'sdk-one.json', 'sdk-two.json');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('compare: ts-sdk could pair more than one way (sdk-one.json has ts-sdk@1.24.3; sdk-two.json has ts-sdk@1.25.3, ts-sdk@1.32.2)');
    expect(result.stderr).toContain('--pair ts-sdk@1.24.3=ts-sdk@1.25.3 or --pair ts-sdk@1.24.3=ts-sdk@1.32.2');
    expect(result.stdout).toBe('');
    expect((await cli('compare', 'sdk-one.json', 'sdk-two.json', '--pair', 'ts-sdk@1.24.3=ts-sdk@1.32.2')).code).toBe(0);
  });

  it('exits 2 naming the targets of each file when no cell pairs', async () => {
    const result = await cli('compare', 'sdk.json', 'client-2.0.json');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('compare: no cell of client-2.0.json pairs with a cell of sdk.json');
    expect(result.stderr).toContain('Targets in sdk.json: ts-sdk@1.32.2; in client-2.0.json: ts-client@2.0.0.');
    expect(result.stderr).toContain('--pair ts-sdk@1.32.2=ts-client@2.0.0');
    expect(result.stdout).toBe('');
  });

  it.each([
    [['compare', 'sdk.json', 'client-2.0.json', '--pair', 'ts-sdk@1.0.0=ts-client@2.0.0'], 'compare --pair ts-sdk@1.0.0=ts-client@2.0.0: "ts-sdk@1.0.0" is not a target of sdk.json (it has: ts-sdk@1.32.2)'],
    [['compare', 'sdk.json', 'client-2.0.json', '--pair', 'ts-sdk@1.32.2=naive'], '"naive" is not a target of client-2.0.json (it has: ts-client@2.0.0)'],
    [['compare', 'sdk.json', 'client-2.0.json', '--pair', 'ts-sdk@1.32.2'], 'expected OLD=NEW'],
    [['run', '--pair', 'a=b'], 'run: --pair pairs targets for --compare FILE; give --compare too'],
  ])('exits 2 for %j', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('run --compare --pair compares this run\'s target with the old file\'s; without a pair it stops before running', async () => {
    // Two of the four protocol versions: one fix per version.
    const args = ['run', '--mode', 'direct', '--no-schemas', '--case', 'baseline', '--case', 'malformed-json', '--version', '2025-11-25', '--version', '2026-07-28'];
    expect((await cli(...args, '--target', 'naive', '--out', 'naive-run', '--quiet')).code).toBe(1); // naive fails malformed-json
    const unpaired = await cli(...args, '--target', 'reference', '--compare', 'naive-run/results.json', '--out', 'never');
    expect(unpaired.code).toBe(2);
    expect(unpaired.stderr).toContain('run --compare: no cell of this run pairs with a cell of naive-run/results.json');
    expect(unpaired.stderr).toContain('Targets in naive-run/results.json: naive; in this run: reference.');
    expect(unpaired.stdout).toBe(''); // nothing ran
    const paired = await cli(...args, '--target', 'reference', '--compare', 'naive-run/results.json', '--pair', 'naive=reference', '--out', 'paired');
    expect(paired.stderr).toContain('Compared with naive-run/results.json: 0 regressions, 2 fixes, 0 added, 0 removed');
    const stored = JSON.parse(await readFile(join(dir, 'paired', 'results.json'), 'utf8'));
    expect(stored.comparison).toMatchObject({ pairs: [{ before: 'naive', after: 'reference' }], fixes: [{ case: 'malformed-json', target: 'reference', beforeTarget: 'naive' }, { case: 'malformed-json', target: 'reference', beforeTarget: 'naive' }] });
    expect(await readFile(join(dir, 'paired', 'matrix.html'), 'utf8')).toContain('<p class="pairs">Paired targets (old → new): <span class="tname">naive → reference</span></p>');
    expect(await readFile(join(dir, 'paired', 'summary.md'), 'utf8')).toContain('Paired targets (old → new): naive → reference\n\n### Fixes (2)\n\n- **malformed-json** · naive → reference · 2025-11-25: fail → pass');
    const wrongSide = await cli(...args, '--target', 'reference', '--compare', 'naive-run/results.json', '--pair', 'naive=ts-sdk@1.32.2');
    expect(wrongSide.code).toBe(2);
    expect(wrongSide.stderr).toContain('run --compare --pair naive=ts-sdk@1.32.2: "ts-sdk@1.32.2" is not a target of this run (it has: reference)');
  });
});
