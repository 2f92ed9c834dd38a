// The baseline through the CLI (in-process): writing, applying, stale entries, input errors, and
// the bundled baseline against the bundled table. Kept apart from baseline.test.ts, whose unit
// tests StrykerJS runs per mutant (vitest.mutate.config.ts); these run the whole matrix.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import { validateBaselineEntries } from './apply-baseline.js';

describe('run --baseline / --write-baseline', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-baseline-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const run = (...args: string[]) => runCli(['run', '--mode', 'direct', '--no-schemas', '--target', 'naive', '--case', 'content-not-array', '--case', 'baseline', ...args], { cwd: dir });

  it('fails without a baseline, writes one, then passes with every failure as xfail', async () => {
    expect((await run('--quiet')).code).toBe(1);
    const written = await run('--write-baseline', 'known.yaml', '--out', 'report');
    expect(written.code).toBe(0);
    const text = await readFile(join(dir, 'known.yaml'), 'utf8');
    expect(text).toMatch(/^  - target: naive\n    case: content-not-array\n    reason: "observed: reads an invalid tool result as a tool result \(false success\)"$/m);
    const results = JSON.parse(await readFile(join(dir, 'report', 'results.json'), 'utf8'));
    expect(results.baseline).toMatchObject({ file: 'known.yaml', entries: 1, applied: 4, stale: 0 }); // one cell per protocol version
    const again = await run('--baseline', 'known.yaml');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/# SKIP|# TODO|xfail/);
    const receipts = JSON.parse(await readFile(join(dir, 'report', 'receipts.json'), 'utf8'));
    expect(receipts.inputs.some((input: { kind: string }) => input.kind === 'baseline')).toBe(true);
  });

  it('--no-baseline --write-baseline still writes the failures (and applies them), and no baseline at all applies none', async () => {
    const written = await run('--no-baseline', '--write-baseline', 'fresh.yaml', '--quiet');
    expect(written.code).toBe(0);
    expect(await readFile(join(dir, 'fresh.yaml'), 'utf8')).toMatch(/case: content-not-array/);
    const plain = await run('--quiet');
    expect(plain.code).toBe(1);
    expect(plain.stdout).not.toMatch(/xfail/);
  });

  it('fails the run on a stale entry (xpass)', async () => {
    await writeFile(join(dir, 'stale.yaml'), '- { target: naive, case: baseline, reason: was broken once }\n');
    const result = await run('--baseline', 'stale.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/4 xpass/); // baseline passes under each of the four versions
  });

  it('exits 2 naming the file, line and entry for an unknown case id', async () => {
    await writeFile(join(dir, 'typo.yaml'), '# known failures\nentries:\n  - target: naive\n    case: content-not-aray\n    reason: r\n');
    const result = await run('--baseline', 'typo.yaml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('baseline typo.yaml:3 (entry 1): unknown case "content-not-aray" (did you mean "content-not-array"?)');
  });

  it('exits 2 for a missing baseline file and for contradicting flags', async () => {
    expect((await run('--baseline', 'nope.yaml')).stderr).toMatch(/baseline nope\.yaml: no such file; create it with `run --write-baseline FILE`/);
    expect((await run('--baseline', 'x.yaml', '--no-baseline')).code).toBe(2);
  });

  it('exits 2 naming the file for a billion-laughs document given to --baseline or found at --write-baseline, before any cell runs (issue 28 item 7)', async () => {
    const laughs = ['a0: &a0 [lol]', ...Array.from({ length: 9 }, (_, level) => `a${level + 1}: &a${level + 1} [${Array(9).fill(`*a${level}`).join(', ')}]`), 'entries: *a9', ''].join('\n');
    await writeFile(join(dir, 'laughs.yaml'), laughs);
    for (const flag of ['--baseline', '--write-baseline']) {
      const result = await run(flag, 'laughs.yaml');
      expect({ flag, code: result.code, stdout: result.stdout }).toEqual({ flag, code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^mcp-error-matrix run: baseline laughs\.yaml: cannot be read as a baseline: it uses YAML aliases/);
    }
    expect(await readFile(join(dir, 'laughs.yaml'), 'utf8')).toBe(laughs);
  });
});

describe('the bundled baseline', () => {
  it('parses and names only cases of the bundled table and built-in targets', async () => {
    const { loadCases } = await import('../cases/load-cases.js');
    const { loadBaselineFile } = await import('./load-baseline.js');
    const { packagePath } = await import('../util/package-paths.js');
    const { BUNDLED_BASELINE } = await import('./run-baseline.js');
    const { DEFAULT_TARGETS } = await import('../targets/resolve-target.js');
    const table = await loadCases({ cwd: process.cwd() });
    const baseline = await loadBaselineFile(packagePath(BUNDLED_BASELINE), BUNDLED_BASELINE);
    expect(baseline.entries.length).toBeGreaterThan(0);
    expect(baseline.entries.every((entry) => !/TODO|FIXME|placeholder/i.test(entry.reason))).toBe(true);
    expect(() =>
      validateBaselineEntries(baseline, { cases: table.map((l) => ({ id: l.case.id, versions: l.case.versions })), runTargets: DEFAULT_TARGETS, otherKnownTargets: [] }),
    ).not.toThrow();
  });

  it('is not stale for the classifier targets: reference and naive over the whole table exit 0 with no xpass', async () => {
    const { runCli } = await import('../../test/run-cli.js');
    const { BUNDLED_BASELINE } = await import('./run-baseline.js');
    const { packagePath } = await import('../util/package-paths.js');
    const result = await runCli(['run', '--target', 'reference', '--target', 'naive', '--mode', 'direct', '--no-schemas', '--baseline', packagePath(BUNDLED_BASELINE), '--quiet']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/# TODO expected failure/);
    expect(result.stdout).not.toMatch(/xpass/);
  });
});
