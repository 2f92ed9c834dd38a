import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { readFullResults } from '../../test/read-results.js';
import { runCli } from '../../test/run-cli.js';
import type { Cell } from '../vocabulary/types.js';
import { compareResults } from './compare-results.js';
import { renderComparison } from './render-comparison.js';

const cells = (...list: [string, Cell['status']][]) => list.map(([id, status]) => makeCell({ case: id, target: 'naive', status }));

describe('compareResults', () => {
  it('matches cells by case, target and version and sorts them into regressions, fixes, added and removed', () => {
    const before = makeRunResult({ cells: cells(['a', 'pass'], ['b', 'fail'], ['c', 'xfail'], ['d', 'pass'], ['e', 'skip'], ['gone', 'pass'], ['f', 'pass']) });
    const after = makeRunResult({ cells: cells(['a', 'fail'], ['b', 'pass'], ['c', 'xpass'], ['d', 'non_strict'], ['e', 'fail'], ['new', 'pass'], ['f', 'pass']) });
    const { comparison } = compareResults(before, after, 'old.json');
    const ids = (list: { case: string }[]) => list.map((c) => c.case);
    expect(ids(comparison.regressions)).toEqual(['a', 'd']);
    expect(ids(comparison.fixes)).toEqual(['b', 'c']);
    expect(comparison.added).toEqual([{ case: 'new', target: 'naive', protocolVersion: '2025-11-25', after: 'pass' }]);
    expect(comparison.removed).toEqual([{ case: 'gone', target: 'naive', protocolVersion: '2025-11-25', before: 'pass' }]);
    expect(comparison.regressions[0]).toEqual({ case: 'a', target: 'naive', protocolVersion: '2025-11-25', before: 'pass', after: 'fail' });
    expect(comparison.baselineLabel).toBe('old.json');
  });

  it('does not count a cell moving between fail and xfail (a baseline change) as either', () => {
    const { comparison } = compareResults(makeRunResult({ cells: cells(['a', 'fail']) }), makeRunResult({ cells: cells(['a', 'xfail']) }));
    expect(comparison.regressions).toEqual([]);
    expect(comparison.fixes).toEqual([]);
  });

  it('names cases whose files changed between the runs', () => {
    const before = makeRunResult();
    const after = makeRunResult({ cases: before.cases.map((c, i) => (i === 0 ? { ...c, sha256: 'f'.repeat(64) } : c)) });
    expect(compareResults(before, after).changedCases).toEqual([before.cases[0]!.id]);
  });

  it('renders Markdown with escaped names and TAP-like text', () => {
    const { comparison } = compareResults(makeRunResult({ cells: cells(['a|<b>', 'pass']) }), makeRunResult({ cells: cells(['a|<b>', 'fail']) }), 'old');
    expect(renderComparison(comparison, 'markdown')).toContain('- a\\|\\<b\\> · naive · 2025-11-25 (pass → fail)');
    expect(renderComparison(comparison, 'text')).toBe('1..1\nnot ok 1 - regression: a|<b> · naive · 2025-11-25 (pass → fail)\n# 1 regressions · 0 fixes · 0 added · 0 removed\n');
  });
});

describe('compare command and run --compare', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-compare-'));
    await writeFile(join(dir, 'old.json'), JSON.stringify(makeRunResult({ cells: cells(['a', 'pass'], ['b', 'fail']) })));
    await writeFile(join(dir, 'new.json'), JSON.stringify(makeRunResult({ cells: cells(['a', 'fail'], ['b', 'pass']) })));
    await writeFile(join(dir, 'fixed.json'), JSON.stringify(makeRunResult({ cells: cells(['a', 'pass'], ['b', 'pass']) })));
    await writeFile(join(dir, 'broken.json'), '{"format":"mcp-error-matrix/results@1"');
    await writeFile(join(dir, 'other.json'), '{"format":"something-else"}');
    await writeFile(join(dir, 'invalid.json'), JSON.stringify({ ...makeRunResult(), summary: undefined }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runCli(args, { cwd: dir });

  it('exits 1 on regressions and prints them', async () => {
    const result = await cli('compare', 'old.json', 'new.json');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('### Regressions (1)\n\n- a · naive · 2025-11-25 (pass → fail)');
    expect(result.stdout).toContain('### Fixes (1)');
  });

  it('exits 0 when nothing regressed; --format text prints TAP-like lines', async () => {
    const result = await cli('compare', 'old.json', 'fixed.json', '--format', 'text');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^1\.\.1\nok 1 - fix: b · naive/);
  });

  it.each([
    [['compare', 'old.json'], /expected two results\.json files/],
    [['compare', 'old.json', 'missing.json'], /missing\.json: no such file/],
    [['compare', 'old.json', 'broken.json'], /broken\.json: not JSON/],
    [['compare', 'other.json', 'new.json'], /other\.json: format is "something-else", expected "mcp-error-matrix\/results@2" \(or "mcp-error-matrix\/results@1" from an earlier version/],
    [['compare', 'old.json', 'invalid.json'], /invalid\.json: does not match schemas\/results\.schema\.json:\n  - \/summary: missing required field "summary"/],
    [['compare', 'old.json', 'new.json', '--format', 'html'], /expected "markdown" or "text"/],
    [['run', '--compare', 'broken.json'], /broken\.json: not JSON/],
  ])('exits 2 for %j', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('run --compare stores the comparison in results.json and shows it in summary.md', async () => {
    const args = ['run', '--mode', 'direct', '--no-schemas', '--target', 'reference', '--case', 'baseline', '--case', 'malformed-json'];
    expect((await cli(...args, '--out', 'first', '--quiet')).code).toBe(0);
    // The whole model (results@1, as earlier versions wrote results.json), edited and compared with.
    const first = JSON.parse(JSON.stringify(readFullResults(join(dir, 'first'))));
    first.cells[0].status = 'fail';
    first.summary = { ...first.summary, pass: first.summary.pass - 1, fail: 1 };
    first.cells.push({ ...first.cells[1], case: 'removed-case' });
    await writeFile(join(dir, 'first.json'), JSON.stringify(first));
    const second = await cli(...args, '--compare', 'first.json', '--out', 'second');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Compared with first.json: 0 regressions, 1 fixes, 0 added, 1 removed');
    const stored = JSON.parse(await readFile(join(dir, 'second', 'results.json'), 'utf8'));
    expect(stored.comparison).toMatchObject({ baselineLabel: 'first.json', fixes: [{ case: first.cells[0].case, before: 'fail', after: 'pass' }], removed: [{ case: 'removed-case' }] });
    expect(await readFile(join(dir, 'second', 'summary.md'), 'utf8')).toMatch(/1 fixes/);
  });
});
