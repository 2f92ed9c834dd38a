// What `run` prints (issue 30): with --out, TAP goes to results.tap and to stdout only with
// --tap, so the run's last lines on a terminal are its counts and each target's failures by
// consequence; without --out, TAP on stdout is the run's output, as before.
import { readFile, rm } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-run-output-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Two published cases the naive control gets wrong in different ways, at one version, no sockets.
const RUN = ['run', '--target', 'reference', '--target', 'naive', '--case', 'content-not-array', '--case', 'malformed-json', '--version', '2025-11-25', '--mode', 'direct', '--no-schemas', '--no-baseline'];

describe('run output', () => {
  it('with --out prints no TAP, and ends with the counts and each target\'s failures by consequence', async () => {
    const run = await runCli([...RUN, '--out', 'plain'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.slice(-4)).toEqual([
      expect.stringMatching(/^Reports written to plain\/: /),
      '4 cells: 2 pass, 2 fail, 0 non_strict, 0 skip, 0 error, 0 xfail, 0 xpass (schema checks off: --no-schemas)',
      '  reference: 0 unexpected · 0 known',
      '  naive: 2 unexpected: 2 false successes · 0 known (2 unsafe)',
    ]);
    expect(await readFile(join(dir, 'plain', 'results.tap'), 'utf8')).toMatch(/^TAP version 14\n/);
  });

  it('with --out and --tap also prints TAP on stdout, the same as results.tap', async () => {
    const run = await runCli([...RUN, '--out', 'with-tap', '--tap'], { cwd: dir });
    expect(run.stdout).toMatch(/^TAP version 14\n/);
    expect(run.stdout).toBe(await readFile(join(dir, 'with-tap', 'results.tap'), 'utf8'));
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('  naive: 2 unexpected: 2 false successes · 0 known (2 unsafe)');
  });

  it('without --out prints TAP on stdout, and the same closing lines on stderr', async () => {
    const run = await runCli(RUN, { cwd: dir });
    expect(run.stdout).toMatch(/^TAP version 14\n[\s\S]*# naive: 2 unexpected: 2 false successes · 0 known\n$/);
    expect(run.stderr.trimEnd().split('\n').slice(-2)).toEqual(['  reference: 0 unexpected · 0 known', '  naive: 2 unexpected: 2 false successes · 0 known (2 unsafe)']);
  });

  it('with --quiet prints nothing on either stream when --out is given', async () => {
    const run = await runCli([...RUN, '--out', 'quiet', '--quiet'], { cwd: dir });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: '' });
  });
});
