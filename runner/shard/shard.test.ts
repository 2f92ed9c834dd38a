import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCase, makeCell, makeRunResult } from '../../test/make-run-result.js';
import { runCli } from '../../test/run-cli.js';
import type { StoredRunResult } from '../compare/results-file.js';
import { summariseCells } from '../run/run-matrix.js';
import type { Cell, RunSummary } from '../types.js';
import { mergeShardResults } from './merge-results.js';
import { parseShard, selectShardCases } from './select-shard.js';

describe('parseShard and selectShardCases', () => {
  it('parses i/n and refuses anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/2/3']) expect(() => parseShard(bad)).toThrow(/expected i\/n with 1 ≤ i ≤ n/);
  });

  it('deals cases round-robin: the shards partition the table', () => {
    const cases = Array.from({ length: 7 }, (_, i) => ({ case: { id: `c${i}` } })) as never[];
    const shards = [1, 2, 3].map((index) => selectShardCases(cases, { index, count: 3 }).map((c: { case: { id: string } }) => c.case.id));
    expect(shards).toEqual([['c0', 'c3', 'c6'], ['c1', 'c4'], ['c2', 'c5']]);
  });
});

// Two shards of a 3-case × 1-target plan, built from the report fixtures.
function makeShards(): { file: string; result: StoredRunResult }[] {
  const caseA = makeCase({ id: 'a' });
  const caseB = makeCase({ id: 'b', sha256: 'b'.repeat(64) });
  const caseC = makeCase({ id: 'c', sha256: 'c'.repeat(64) });
  const shard = (index: number, cases: ReturnType<typeof makeCase>[], statuses: ('pass' | 'fail')[]) => {
    const cells = cases.map((c, i) => makeCell({ case: c.id, status: statuses[i]! }));
    const result: StoredRunResult = { ...makeRunResult({ cases, cells, targets: [{ name: 'reference', kind: 'classifier' }] }), shard: { index, count: 2, planDigest: 'e'.repeat(64), plannedCells: 3 } };
    return { file: `shard-${index}/results.json`, result };
  };
  return [shard(1, [caseA, caseC], ['pass', 'fail']), shard(2, [caseB], ['pass'])];
}

describe('mergeShardResults', () => {
  it("adds up the shards' re-runs and combines their concurrency", () => {
    const [one, two] = makeShards();
    one!.result = { ...one!.result, reruns: { cells: 2, confirmed: 1, byReason: { starved: 2 } }, concurrency: { start: 24, lowest: 6, backoffs: 2, pinned: false } };
    two!.result = { ...two!.result, reruns: { cells: 1, confirmed: 1, byReason: { timeout: 1 } }, concurrency: { start: 24, lowest: 3, backoffs: 3, pinned: false } };
    const merged = mergeShardResults([one!, two!]);
    expect(merged.reruns).toEqual({ cells: 3, confirmed: 2, byReason: { starved: 2, timeout: 1 } });
    expect(merged.concurrency).toEqual({ start: 24, lowest: 3, backoffs: 5, pinned: false });
    expect(mergeShardResults(makeShards()).reruns).toBeUndefined();
  });

  it('combines the cells, cases and counts of every shard', () => {
    const merged = mergeShardResults(makeShards());
    expect(merged.cells.map((c) => c.case)).toEqual(['a', 'b', 'c']);
    expect(merged.cases.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(merged.summary).toMatchObject({ total: 3, pass: 2, fail: 1 });
    expect(merged.shard).toEqual({ count: 2, planDigest: 'e'.repeat(64), plannedCells: 3, merged: [1, 2] });
  });

  it('merged records count over every shard: the summary and the baseline\'s applied and stale counts are the sums, never shard 1\'s', () => {
    const baseline = { file: 'baselines/mine.yaml', sha256: 'd'.repeat(64), entries: 4 };
    const withBaseline = (input: ReturnType<typeof makeShards>[number], statuses: Cell['status'][], applied: number, stale: number) => {
      const cells = input.result.cells.map((cell, i) => makeCell({ case: cell.case, status: statuses[i]! }));
      return { ...input, result: { ...input.result, cells, summary: summariseCells(cells), baseline: { ...baseline, applied, stale } } };
    };
    const [one, two] = makeShards();
    const shards = [withBaseline(one!, ['xfail', 'pass'], 1, 0), withBaseline(two!, ['xpass'], 0, 1)];
    const merged = mergeShardResults(shards);
    expect(merged.baseline).toEqual({ ...baseline, applied: 1, stale: 1 });
    expect(merged.summary).toMatchObject({ total: 3, pass: 1, xfail: 1, xpass: 1 });
    for (const key of Object.keys(merged.summary) as (keyof RunSummary)[]) {
      expect(merged.summary[key], key).toBe(shards.reduce((sum, shard) => sum + (shard.result.summary[key] ?? 0), 0));
    }
    // The same in the other order: no shard's counts are special.
    expect(mergeShardResults([...shards].reverse())).toMatchObject({ summary: merged.summary, baseline: merged.baseline });
  });

  it.each([
    ['a missing shard', (s: ReturnType<typeof makeShards>) => [s[0]!], /missing shard 2\/2; merge needs all 2/],
    ['a shard given twice', (s: ReturnType<typeof makeShards>) => [s[0]!, s[1]!, { ...s[0]!, file: 'copy/results.json' }], /shard 1\/2 given twice: shard-1\/results\.json and copy\/results\.json/],
    ['overlapping shards', (s: ReturnType<typeof makeShards>) => [s[0]!, { ...s[1]!, result: { ...s[1]!.result, cells: [...s[1]!.result.cells, s[0]!.result.cells[0]!] } }], /the shards overlap: cell a · reference · 2025-11-25 is in shard-1\/results\.json and shard-2\/results\.json/],
    ['different plan digests', (s: ReturnType<typeof makeShards>) => [s[0]!, { ...s[1]!, result: { ...s[1]!.result, shard: { ...s[1]!.result.shard!, planDigest: 'f'.repeat(64) } } }], /different runs: plan digest/],
    ['different tool versions', (s: ReturnType<typeof makeShards>) => [s[0]!, { ...s[1]!, result: { ...s[1]!.result, tool: { name: 'mcp-error-matrix', version: '9.9.9' } } }], /different runs: tool version is "mcp-error-matrix@0\.1\.0" in shard-1\/results\.json but "mcp-error-matrix@9\.9\.9" in shard-2/],
    ['a case whose file differs', (s: ReturnType<typeof makeShards>) => [s[0]!, { ...s[1]!, result: { ...s[1]!.result, cases: [...s[1]!.result.cases, { ...s[0]!.result.cases[0]!, sha256: '1'.repeat(64) }] } }], /case a differs between shards/],
    ['a result that is not a shard', (s: ReturnType<typeof makeShards>) => [s[0]!, { ...s[1]!, result: { ...s[1]!.result, shard: undefined } }], /shard-2\/results\.json is not a shard result/],
    ['shards with cells missing from the plan', (s: ReturnType<typeof makeShards>) => [s[0]!, { ...s[1]!, result: { ...s[1]!.result, cells: [] } }], /hold 2 cells but their plan has 3/],
  ])('refuses %s', (_name, pick, message) => {
    expect(() => mergeShardResults(pick(makeShards()) as never)).toThrow(message);
  });
});

describe('run --shard and merge', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-shard-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runCli(args, { cwd: dir });
  const run = ['run', '--mode', 'direct', '--no-schemas', '--target', 'reference', '--target', 'naive', '--case', 'baseline', '--case', 'malformed-json', '--case', 'content-not-array', '--quiet'];
  const read = async (path: string) => JSON.parse(await readFile(join(dir, path), 'utf8')) as StoredRunResult;

  it('two shards merged equal the unsharded run, with receipts that verify', async () => {
    await Promise.all([cli(...run, '--out', 'whole'), cli(...run, '--shard', '1/2', '--out', 's1'), cli(...run, '--shard', '2/2', '--out', 's2')]);
    const [whole, s1, s2] = await Promise.all([read('whole/results.json'), read('s1/results.json'), read('s2/results.json')]);
    expect(s1.shard).toMatchObject({ index: 1, count: 2, plannedCells: whole.summary.total });
    expect(s1.cells.length + s2.cells.length).toBe(whole.cells.length);
    const merge = await cli('merge', 's2', 's1', '--out', 'merged');
    expect(merge.code).toBe(1);
    const merged = await read('merged/results.json');
    const key = (r: StoredRunResult) => r.cells.map((c) => `${c.target} ${c.case} ${c.protocolVersion} ${c.status}`).sort();
    expect(key(merged)).toEqual(key(whole));
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.shard).toMatchObject({ merged: [1, 2] });
    const files = (await cli('verify', 'merged')).stdout;
    expect(files).toMatch(/^OK: /m);
    const receipts = JSON.parse(await readFile(join(dir, 'merged', 'receipts.json'), 'utf8'));
    expect(receipts.inputs.filter((i: { kind: string }) => i.kind === 'shard')).toHaveLength(2);
  });

  it('refuses a missing shard, a non-shard result and bad arguments with exit 2', async () => {
    await cli(...run, '--shard', '1/3', '--out', 't1');
    expect((await cli('merge', 't1', '--out', 'x')).stderr).toMatch(/missing shards 2\/3, 3\/3/);
    expect((await cli('merge', 'whole', 't1', '--out', 'x')).stderr).toMatch(/whole\/results\.json is not a shard result/);
    expect((await cli('merge', 't1')).stderr).toMatch(/--out DIR is required/);
    expect((await cli('merge', 'nowhere', '--out', 'x')).stderr).toMatch(/nowhere: no such file/);
    expect((await cli(...run, '--shard', '3/2')).code).toBe(2);
    await writeFile(join(dir, 'junk.json'), '[]');
    expect((await cli('merge', 'junk.json', '--out', 'x')).code).toBe(2);
  });
});
