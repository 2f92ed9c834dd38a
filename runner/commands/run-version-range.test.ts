// Integration: `run --target ts-client@2.x` expands through the cached registry list into one
// target per minor, each run side by side. The cached list holds only the bundled versions, so
// nothing is fetched or installed (no network).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';

describe('run with a version range as target', () => {
  let dir: string;
  let savedCache: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mem-range-run-'));
    savedCache = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(dir, 'cache');
    const lists = join(dir, 'cache', 'mcp-error-matrix', 'clients', '.versions');
    mkdirSync(lists, { recursive: true });
    writeFileSync(join(lists, '@modelcontextprotocol+client.json'), JSON.stringify({ fetchedAt: Date.now(), versions: ['2.0.0-beta.5', '2.0.0', '2.4.0', '3.0.0'] }));
  });
  afterAll(() => {
    if (savedCache === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = savedCache;
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs every version the range selects as its own target', async () => {
    const result = await runCli(['run', '--no-schemas', '--no-baseline', '--target', 'ts-client@2.x', '--case', 'baseline', '--out', 'out'], { cwd: dir });
    expect(result.stderr).toContain('--target ts-client@2.x: 2 version(s): 2.0.0, 2.4.0\n');
    expect(result.code).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as { targets: { name: string; version: string }[]; cells: { target: string; status: string }[] };
    expect(stored.targets.map((t) => [t.name, t.version])).toEqual([
      ['ts-client@2.0.0', '2.0.0'],
      ['ts-client@2.4.0', '2.4.0'],
    ]);
    const perTarget = (name: string) => stored.cells.filter((c) => c.target === name && c.status === 'pass').length;
    expect(perTarget('ts-client@2.0.0')).toBeGreaterThan(0);
    expect(perTarget('ts-client@2.0.0')).toBe(perTarget('ts-client@2.4.0'));
  }, 60_000);
});
