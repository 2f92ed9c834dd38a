// The one atlas with real client libraries: `atlas` through the CLI with the two bundled
// ts-client versions (no install: a cached registry list holding only them), three cases at one
// protocol version. The site verifies after it moved; a second atlas with --since reuses both
// versions, starts no worker and says nothing changed.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithSchemas } from './describe-requiring.js';
import { runCli } from './run-cli.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs();
const ARGS = ['atlas', '--out', 'site', '--stack', 'ts-client@2.x', '--case', 'tool-is-error', '--case', 'http-503-empty-body', '--case', 'malformed-json', '--version', '2025-11-25', '--workers', '2'];

describeWithSchemas('atlas through the CLI, with the bundled ts-client versions', () => {
  let dir: string;
  let savedCache: string | undefined;
  beforeAll(() => {
    dir = tempDir('mem-atlas-cli-');
    savedCache = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(dir, 'cache');
    const lists = join(dir, 'cache', 'mcp-error-matrix', 'clients', '.versions');
    mkdirSync(lists, { recursive: true });
    writeFileSync(join(lists, '@modelcontextprotocol+client.json'), JSON.stringify({ fetchedAt: Date.now(), versions: ['2.0.0-beta.5', '2.0.0', '2.4.0'] }));
  });
  afterAll(() => {
    if (savedCache === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = savedCache;
  });

  it('writes a site that verifies after it moved, and a second atlas reuses it and says nothing changed', async () => {
    const first = await runCli(ARGS, { cwd: dir });
    expect(first.stderr).toContain('mcp-error-matrix atlas: 1 stacks, up to 2 versions');
    expect(first.stderr).toMatch(/\[\d\] ts-client@2\.4\.0 measured in \d+ s: 3 pass, 0 fail/);
    expect(first.stderr).toMatch(/site written to site\/ \(\d+ files\): 1 stacks, 2 versions, 6 cells\n/);
    expect(first.code).toBe(0);
    const index = JSON.parse(readFileSync(join(dir, 'site', 'atlas.json'), 'utf8'));
    expect(index.stacks[0].versions.map((v: { spec: string; state: string; speaks: string[] }) => [v.spec, v.state, v.speaks])).toEqual([
      ['ts-client@2.4.0', 'measured', ['2025-11-25']],
      ['ts-client@2.0.0', 'measured', ['2025-11-25']],
    ]);
    expect(readFileSync(join(dir, 'site', 'stacks', 'ts-client', '2.4.0', 'matrix.html'), 'utf8')).toContain('ts-client@2.4.0');

    cpSync(join(dir, 'site'), join(dir, 'moved', 'site'), { recursive: true });
    const verify = await runCli(['verify', 'site'], { cwd: join(dir, 'moved') });
    expect(verify.stdout).toMatch(/^OK: \d+ files checked, 0 mismatches\n$/m);
    expect(verify.code).toBe(0);

    const second = await runCli([...ARGS, '--since', 'site'], { cwd: dir });
    expect(second.stderr).toContain('[1] ts-client@2.4.0 reused from the previous atlas: 3 pass');
    expect(second.stderr).not.toMatch(/measured in/);
    expect(second.stdout).toContain('Nothing changed: no new release, and every cell measured again answers as before.');
    expect(second.code).toBe(0);
  }, 120_000);
});
