// The composite action's steps, executed with bash as a runner would: inputs as environment
// variables, outputs in $GITHUB_OUTPUT, the Markdown summary appended to $GITHUB_STEP_SUMMARY. The
// install step runs in a copy of the sources (as the runner checks the action out), offline from
// npm's cache, and the run step then runs from that copy.
import { execa } from 'execa';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../runner/util/package-paths.js';
import { ensureDist } from './build-dist.js';
import { readFullResults } from './read-results.js';
import { SDK_KINDS } from '../runner/targets/sdk/resolve-sdk-package.js';
import { isCi } from './requirements.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  'working-directory'?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

/** What the runner checks out for `uses: owner/mcp-error-matrix@sha`: the sources, without node_modules or dist/. */
const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'action.yml', 'bin', 'runner', 'reports', 'cases', 'schemas', 'baselines', 'scripts'];

const action = parse(await readFile(packagePath('action.yml'), 'utf8')) as Action;
// The run step runs the compiled dist/: built here when missing or older than a source, so the
// step never skips for want of a build nor tests code older than the sources.
ensureDist();

describe('action.yml', () => {
  it('is a composite action whose outputs all come from the run step', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['targets', 'cases', 'baseline', 'out', 'args']));
    for (const [name, output] of Object.entries(action.outputs)) expect(output.value).toBe(`\${{ steps.run.outputs.${name} }}`);
    // Every input a script reads arrives through env, never spliced into the script text.
    const scripts = action.runs.steps.filter((step) => step.run !== undefined);
    expect(scripts.map((step) => step.id)).toEqual(['cache', 'install', 'run']);
    for (const step of scripts) expect(step.run).not.toMatch(/\$\{\{/);
  });

  it('caches the client installs, keyed by the lockfile and the targets, in the folder the tool installs them into', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mem-action-cache-'));
    try {
      const step = action.runs.steps.find((s) => s.id === 'cache')!;
      const output = join(dir, 'output');
      await writeFile(output, '');
      const env = { GITHUB_ACTION_PATH: packagePath(), GITHUB_OUTPUT: output, RUNNER_OS: 'Linux', HOME: '/home/runner', PATH: process.env.PATH ?? '', MEM_TARGETS: 'ts-sdk@1.32.2', MEM_ARGS: '' };
      await execa('bash', ['-e', '-c', step.run!], { env, extendEnv: false });
      const outputs = Object.fromEntries((await readFile(output, 'utf8')).trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
      expect(outputs).toEqual({ dir: '/home/runner/.cache/mcp-error-matrix', key: expect.stringMatching(/^mcp-error-matrix-Linux-[0-9a-f]{16}$/), 'restore-key': 'mcp-error-matrix-Linux-' });
      await writeFile(output, '');
      await execa('bash', ['-e', '-c', step.run!], { env: { ...env, MEM_TARGETS: 'ts-sdk@1.25.0', XDG_CACHE_HOME: '/x' }, extendEnv: false });
      const other = Object.fromEntries((await readFile(output, 'utf8')).trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
      expect(other['dir']).toBe('/x/mcp-error-matrix');
      expect(other['key']).not.toBe(outputs['key']);
      const restore = action.runs.steps.find((s) => s.uses?.startsWith('actions/cache@'))!;
      expect(restore.with).toEqual({ path: '${{ steps.cache.outputs.dir }}', key: '${{ steps.cache.outputs.key }}', 'restore-keys': '${{ steps.cache.outputs.restore-key }}' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('installs the runtime dependencies only, compiles dist/ and runs from that install', { timeout: 600_000 }, async (context) => {
    const work = await mkdtemp(join(tmpdir(), 'mem-action-install-'));
    try {
      const checkout = join(work, 'action');
      for (const source of SOURCES) await cp(packagePath(source), join(checkout, source), { recursive: true, filter: (from) => !/\.test\.ts$/.test(from) });
      const step = action.runs.steps.find((s) => s.id === 'install')!;
      expect(step['working-directory']).toBe('${{ github.action_path }}');
      // Offline: npm takes the tarballs from the cache the dev install (npm ci) filled.
      const env = { ...process.env, GITHUB_ACTION_PATH: checkout, RUNNER_TEMP: work, npm_config_offline: 'true' };
      const install = await execa('bash', ['-e', '-c', step.run!], { cwd: checkout, env, reject: false });
      if (install.exitCode !== 0 && /ENOTCACHED/.test(install.stderr) && !isCi()) {
        console.warn(`test/action.test.ts: install step skipped: npm's cache lacks a package (run \`npm ci\` once online to fill it):\n${install.stderr.trim()}`);
        context.skip();
      }
      expect(install.exitCode, install.stderr).toBe(0);
      const installed = readdirSync(join(checkout, 'node_modules'));
      const devOnly = ['typescript', 'vitest', '@stryker-mutator', 'playwright-core', ...Object.values(SDK_KINDS).map((kind) => kind.aliasPrefix)];
      expect(installed.filter((name) => devOnly.some((dev) => name.startsWith(dev)))).toEqual([]);
      expect(existsSync(join(checkout, 'dist', 'runner', 'cases', 'case-validator.generated.cjs'))).toBe(true);
      console.info(`test/action.test.ts: the install step installed ${installed.filter((name) => !name.startsWith('.')).length} top-level packages`);

      // The workspace is not where the runner keeps actions.
      const workspace = join(work, 'workspace');
      await mkdir(workspace);
      const result = await runStepIn(checkout, workspace, { targets: 'reference', cases: 'content-not-array', args: '--mode direct --no-schemas' });
      expect(result.code, result.stderr).toBe(0);
      expect(result.outputs).toMatchObject({ 'exit-code': '0', total: '4', pass: '4' });
      // Repro lines start the CLI the action ran, by its path: never `npx` (the package is not published).
      // (results.json is an index; the repro lines are in the whole model beside it.)
      const cells = readFullResults(join(workspace, 'mcp-error-matrix-report')).cells;
      expect(cells[0]!.repro).toMatch(new RegExp(`^node ${checkout}/bin/mcp-error-matrix\\.js run --target reference `));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  describe('run step (the compiled dist/)', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'mem-action-'));
      await writeFile(join(dir, 'known.yaml'), '- { target: naive, case: content-not-array, reason: naive checks only the status }\n');
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const runStep = (inputs: Record<string, string>) => runStepIn(packagePath(), dir, inputs);

    it('passes targets, cases and baseline through, sets the outputs and appends the summary', async () => {
      const result = await runStep({ targets: 'reference\n  naive  \n', cases: 'content-not-*  baseline', baseline: 'known.yaml', args: '--mode direct --no-schemas' });
      expect(result.stderr).toMatch(/16 cells/); // 2 targets × 2 cases × 4 protocol versions
      expect(result.code).toBe(0);
      expect(result.outputs).toMatchObject({ 'report-path': join(dir, 'mcp-error-matrix-report'), 'exit-code': '0', total: '16', pass: '12', fail: '0', xfail: '4', xpass: '0', 'non-strict': '0' });
      // Each target's line: unexpected and known failures apart, by consequence (naive's known failures
      // are graded by the judge; without a consequence they count as "other").
      expect(result.outputs).toMatchObject({ unexpected: '0', known: '4', failures: expect.stringMatching(/^reference: 0 unexpected · 0 known; naive: 0 unexpected · 4 known: 4 [a-z ()]+$/) });
      expect(result.summary).toContain('mcp-error-matrix');
    });

    it('fails the step with the run\'s exit code and still reports', async () => {
      const result = await runStep({ targets: 'naive', cases: 'content-not-array', out: 'failing', args: '--mode direct --no-schemas' });
      expect(result.code).toBe(1);
      expect(result.outputs).toMatchObject({ 'exit-code': '1', fail: '4', unexpected: '4', known: '0', failures: expect.stringMatching(/^naive: 4 unexpected: 4 [a-z ()]+ · 0 known$/) });
      expect(result.summary).not.toBe('');
    });

    it('an empty out input writes the default report folder, never the workspace itself', async () => {
      const result = await runStep({ targets: 'naive', cases: 'content-not-array', out: '', args: '--mode direct --no-schemas' });
      expect(result.stderr).not.toMatch(/--out ""/);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^::warning title=mcp-error-matrix::the out input is empty; writing the reports to mcp-error-matrix-report$/m);
      expect(result.outputs).toMatchObject({ 'report-path': join(dir, 'mcp-error-matrix-report'), 'exit-code': '1', fail: '4' });
      // The workspace's own files are still there.
      await expect(readFile(join(dir, 'known.yaml'), 'utf8')).resolves.toContain('naive');
    });
  });
});

/** The run step with `inputs`, the action at `actionPath`, in the workspace `dir`; its exit code, output, outputs and step summary. */
async function runStepIn(actionPath: string, dir: string, inputs: Record<string, string>) {
  const step = action.runs.steps.find((s) => s.id === 'run')!;
  const env: Record<string, string> = { GITHUB_ACTION_PATH: actionPath, GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary'), GITHUB_WORKSPACE: dir, RUNNER_TEMP: dir, CI: 'true' };
  for (const [name, value] of Object.entries(step.env ?? {})) {
    const input = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)![1]!;
    env[name] = inputs[input] ?? action.inputs[input]?.default ?? '';
  }
  await writeFile(env['GITHUB_OUTPUT']!, '');
  await writeFile(env['GITHUB_STEP_SUMMARY']!, '');
  // A runner's environment, not this test run's: no npm_* variables of the `npm test` or `npx vitest` that started it.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
  const result = await execa('bash', ['-e', '-c', step.run!], { cwd: dir, env: { ...inherited, ...env }, extendEnv: false, reject: false });
  const outputs = Object.fromEntries((await readFile(env['GITHUB_OUTPUT']!, 'utf8')).trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr, outputs, summary: await readFile(env['GITHUB_STEP_SUMMARY']!, 'utf8') };
}
