import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCase, makeCell, makeRunResult } from '../../test/make-run-result.js';
import { runCli } from '../../test/run-cli.js';
import type { StoredRunResult } from '../compare/results-file.js';
import { summariseCells } from '../run/run-matrix.js';
import type { Cell, RunSummary } from '../vocabulary/types.js';
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

// Issue 28 item 3: a shard's results.json edited fail → pass was merged (exit 0, passes shown), the
// merged report verified, and `merge --sign` would have signed the forgery.
describe('merge verifies every shard against its own receipts (and key) first', () => {
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { cwd: dir });
  const run = ['run', '--mode', 'direct', '--no-schemas', '--target', 'naive', '--case', 'baseline', '--case', 'content-not-array', '--quiet'];
  const keys = (name: string) => {
    const pair = generateKeyPairSync('ed25519');
    return { name, privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string };
  };
  const ours = keys('ours');
  const theirs = keys('theirs');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-shard-verify-'));
    for (const key of [ours, theirs]) {
      await writeFile(join(dir, `${key.name}.pem`), key.privateKey);
      await writeFile(join(dir, `${key.name}.pub`), key.publicKey);
    }
    await Promise.all([cli(...run, '--shard', '1/2', '--out', 's1'), cli(...run, '--shard', '2/2', '--out', 's2')]);
    await Promise.all([cli(...run, '--shard', '1/2', '--out', 'signed1', '--sign', 'ours.pem'), cli(...run, '--shard', '2/2', '--out', 'signed2', '--sign', 'ours.pem')]);
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A copy of shard folder `from` at `to`, its results.json and the evidence beside it edited alike: every fail made a pass. */
  const forge = async (from: string, to: string) => {
    await cp(join(dir, from), join(dir, to), { recursive: true });
    const file = join(dir, to, 'results.json');
    const text = await readFile(file, 'utf8');
    expect(text).toContain('"status":"fail"');
    await writeFile(file, text.replaceAll('"status":"fail"', '"status":"pass"'));
    const evidence = join(dir, to, 'results.full.json.gz');
    const full = gunzipSync(await readFile(evidence)).toString('utf8');
    expect(full).toContain('"status":"fail"');
    await writeFile(evidence, gzipSync(full.replaceAll('"status":"fail"', '"status":"pass"')));
  };

  it('an edited results.json: exit 2 naming the shard and the file, nothing merged or signed', async () => {
    await forge('s2', 'forged2');
    for (const extra of [[], ['--sign', 'ours.pem']]) {
      const result = await cli('merge', 's1', 'forged2', '--out', 'merged-forged', ...extra);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^mcp-error-matrix merge: the shard forged2 does not verify against its own receipts, so it is not merged \(edited, or not the report its run wrote\):\n/);
      expect(result.stderr).toMatch(/\n {2}- results\.json: expected [0-9a-f]{64}, found [0-9a-f]{64}\n/);
      expect(result.stderr).toMatch(/\n {2}- results\.full\.json\.gz: expected [0-9a-f]{64}, found [0-9a-f]{64}\n/);
      expect(existsSync(join(dir, 'merged-forged'))).toBe(false);
    }
  });

  it('a file added to a shard folder, or its receipts missing, is refused too', async () => {
    await cp(join(dir, 's2'), join(dir, 'added2'), { recursive: true });
    await writeFile(join(dir, 'added2', 'extra.json'), '{}\n');
    expect((await cli('merge', 's1', 'added2', '--out', 'm-added')).stderr).toMatch(/the shard added2 does not verify .*\n {2}- extra\.json: expected absent \(listed in neither receipts\.json nor SHA256SUMS\), found present, unlisted/);
    await cp(join(dir, 's2'), join(dir, 'bare2'), { recursive: true });
    await rm(join(dir, 'bare2', 'receipts.json'));
    const bare = await cli('merge', 's1', 'bare2', '--out', 'm-bare');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/bare2 has no receipts\.json, so it cannot be verified/);
  });

  it('untouched shards merge, and the merged report is signed and verifies', async () => {
    const merged = await cli('merge', 's1', 's2', '--out', 'merged-ok', '--sign', 'ours.pem');
    expect(merged.code, merged.stderr).toBe(1);
    expect(merged.stderr).toMatch(/^Merged 2 shards, each verified against its own receipts: /);
    expect((await cli('verify', 'merged-ok', '--key', 'ours.pub')).stdout).toMatch(/^OK: /m);
  });

  it('with --key, every shard must be signed by that key', async () => {
    const good = await cli('merge', 'signed1', 'signed2', '--out', 'merged-signed', '--key', 'ours.pub', '--quiet');
    expect(good.code, good.stderr).toBe(1);
    const unsigned = await cli('merge', 's1', 'signed2', '--out', 'm-unsigned', '--key', 'ours.pub');
    expect(unsigned.code).toBe(2);
    expect(unsigned.stderr).toMatch(/the shard s1 does not verify .*\n {2}- receipts\.json\.sig: expected an Ed25519 signature of receipts\.json by the --key key .*found missing \(the report is not signed\)/);
    const other = await cli('merge', 'signed1', 'signed2', '--out', 'm-other', '--key', 'theirs.pub');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/the shard signed1 does not verify .*receipts\.json\.sig: .*a signature that does not match receipts\.json with this key/s);
    expect(existsSync(join(dir, 'm-unsigned'))).toBe(false);
    expect(existsSync(join(dir, 'm-other'))).toBe(false);
  });

  it('signed shards merged without --key say that their signatures were not checked', async () => {
    const merged = await cli('merge', 'signed1', 'signed2', '--out', 'merged-nokey');
    expect(merged.code, merged.stderr).toBe(1);
    expect(merged.stderr).toMatch(/NOTE: signed1, signed2 are signed, but no --key was given: the signatures were not checked/);
  });
});
