// A target that cannot run makes its own cells say so and the run goes on (issue 28 item 2):
// `--target ts-sdk@0.4.0` (no Streamable HTTP client: "Cannot find module …/client/index.js")
// used to end the run with exit 1, no report, every other target's cells lost. The versions are
// fabricated in a temporary client cache (XDG_CACHE_HOME), as npm would have installed them, so the
// test needs no registry: 0.4.0 laid out as the real 0.4.0 is (dist/client/, no esm/ build, no
// streamableHttp.js), and a 1.10.0 whose Streamable HTTP client is there but whose other modules
// are not, so its worker exits before it is ready.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from '../../test/answered-at-once.js';
import { runCli } from '../../test/run-cli.js';
import type { RunResult } from '../vocabulary/types.js';
import { resolveTargets } from './resolve-target.js';

const work = mkdtempSync(join(tmpdir(), 'mem-unstarted-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cacheHome = join(work, 'xdg');
const clients = join(cacheHome, 'mcp-error-matrix', 'clients');

/** A package as npm installs it into the client cache, with these files (relative path → text). */
function fabricate(version: string, files: Record<string, string>): void {
  const dir = join(clients, `@modelcontextprotocol+sdk@${version}`, 'node_modules', '@modelcontextprotocol', 'sdk');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version, type: 'module' }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

fabricate('0.4.0', { 'dist/client/index.js': 'export class Client {}\n', 'dist/client/sse.js': 'export class SSEClientTransport {}\n' });
fabricate('0.5.0', { 'dist/client/index.js': 'export class Client {}\n' });
fabricate('1.10.0', { 'dist/esm/client/streamableHttp.js': 'export class StreamableHTTPClientTransport {}\n' });
// The registry's version list, as a range expansion cached it a moment ago (no npm view needed).
mkdirSync(join(clients, '.versions'), { recursive: true });
writeFileSync(join(clients, '.versions', '@modelcontextprotocol+sdk.json'), JSON.stringify({ fetchedAt: Date.now(), versions: ['0.4.0', '0.5.0', '1.10.0'] }));

const env = { ...process.env, CI: 'true', XDG_CACHE_HOME: cacheHome };

function readResult(out: string): RunResult {
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
}

describe('a target that cannot run', () => {
  it('leaves every other target measured: its cells are skip (no Streamable HTTP client) or error (could not start), and the reports are written', async () => {
    const out = join(work, 'report');
    const run = await runCli(
      ['run', '--target', 'reference', '--target', 'ts-sdk@0.4.0', '--target', 'ts-sdk@1.10.0', '--target', 'ts-sdk@1.32.2', '--case', 'baseline', '--version', '2025-11-25', '--no-schemas', '--no-baseline', '--quiet', '--out', out, '--timeout', String(ANSWERED_AT_ONCE_TIMEOUT_MS)],
      { cwd: work, env },
    );
    expect(run.stderr).not.toMatch(/internal error/);
    // The error cells fail the run, and a target with nothing measured is named: exit 1, not a crash.
    expect(run.code).toBe(1);
    const result = readResult(out);
    expect(result.complete).toBe(true);
    const byTarget = Object.fromEntries(result.cells.map((cell) => [cell.target, cell]));
    expect(byTarget['reference']?.status).toBe('pass');
    expect(byTarget['ts-sdk@1.32.2']?.status, byTarget['ts-sdk@1.32.2']?.reason).toBe('pass');
    expect(byTarget['ts-sdk@0.4.0']).toMatchObject({ status: 'skip' });
    expect(byTarget['ts-sdk@0.4.0']?.reason).toMatch(/^ts-sdk@0\.4\.0 has no Streamable HTTP client \(dist\/esm\/client\/streamableHttp\.js is not in the package\)/);
    expect(byTarget['ts-sdk@1.10.0']).toMatchObject({ status: 'error', errorKind: 'target-start' });
    expect(byTarget['ts-sdk@1.10.0']?.reason).toMatch(/^ts-sdk@1\.10\.0 could not start, so none of its cells was measured: its worker exited \(code \d+\) before it was ready; its stderr ends: .*Cannot find module .*client\/index\.js/s);
    expect(result.targets.map((target) => [target.name, target.version])).toEqual([
      ['reference', result.tool.version],
      ['ts-sdk@0.4.0', '0.4.0'],
      ['ts-sdk@1.10.0', '1.10.0'],
      ['ts-sdk@1.32.2', '1.32.2'],
    ]);
    expect(run.stderr).toMatch(/nothing measured for ts-sdk@0\.4\.0: all 1 of its cells were skipped: ts-sdk@0\.4\.0 has no Streamable HTTP client/);
  }, 120_000);

  it('a range reaching 0.x runs too: each version in it is its own target, skipped with the reason', async () => {
    const run = await runCli(['run', '--target', 'ts-sdk@<1.0', '--target', 'reference', '--case', 'baseline', '--version', '2025-11-25', '--no-schemas', '--no-baseline', '--mode', 'direct'], { cwd: work, env });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.stderr).toMatch(/--target ts-sdk@<1\.0: 2 version\(s\): 0\.4\.0, 0\.5\.0/);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/# Subtest: ts-sdk@0\.4\.0\n {4}1\.\.1\n {4}ok 1 - baseline \[2025-11-25\] # SKIP ts-sdk@0\.4\.0 has no Streamable HTTP client/);
    expect(run.stdout).toMatch(/# Subtest: ts-sdk@0\.5\.0\n {4}1\.\.1\n {4}ok 1 - baseline \[2025-11-25\] # SKIP ts-sdk@0\.5\.0 has no Streamable HTTP client/);
    expect(run.stdout).toMatch(/# Subtest: reference\n {4}1\.\.1\n {4}ok 1 - baseline/);
  }, 60_000);

  it('while the run is being stopped, a target that fails to resolve is left unstarted instead of ending the run (issue 28 item 1)', async () => {
    const stop = new AbortController();
    stop.abort('SIGTERM');
    // Not an exact version: refused at once (as a killed `npm install` is refused, only later).
    const [target] = await resolveTargets(['ts-sdk@latest'], { cwd: work, cacheDir: join(work, 'no-such-cache'), signal: stop.signal });
    expect(target?.info).toEqual({ name: 'ts-sdk@latest', kind: 'client' });
    const outcome = await target!.run({} as never);
    expect(outcome).toMatchObject({ errorKind: 'target-start', error: expect.stringMatching(/^ts-sdk@latest could not start, so none of its cells was measured: the run was stopped while it started/) });
  }, 60_000);
});
