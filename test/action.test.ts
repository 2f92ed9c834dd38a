// The composite action's run step, executed with bash as a runner would: inputs as environment
// variables, outputs in $GITHUB_OUTPUT, the Markdown summary appended to $GITHUB_STEP_SUMMARY.
import { execa } from 'execa';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../runner/package-paths.js';
import { ensureDist } from './build-dist.js';

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: { id?: string; run?: string; env?: Record<string, string> }[] };
}

const action = parse(await readFile(packagePath('action.yml'), 'utf8')) as Action;
// The run step runs the compiled dist/: built here when missing or older than a source, so the
// step never skips for want of a build nor tests code older than the sources.
ensureDist();

describe('action.yml', () => {
  it('is a composite action whose outputs all come from the run step', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['targets', 'cases', 'baseline', 'out', 'args']));
    const run = action.runs.steps.find((step) => step.id === 'run')!;
    for (const [name, output] of Object.entries(action.outputs)) expect(output.value).toBe(`\${{ steps.run.outputs.${name} }}`);
    // Every input the script reads arrives through env, never spliced into the script text.
    expect(run.run).not.toMatch(/\$\{\{/);
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

    async function runStep(inputs: Record<string, string>) {
      const step = action.runs.steps.find((s) => s.id === 'run')!;
      const env: Record<string, string> = { GITHUB_ACTION_PATH: packagePath(), GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary'), GITHUB_WORKSPACE: dir, RUNNER_TEMP: dir, CI: 'true' };
      for (const [name, value] of Object.entries(step.env ?? {})) {
        const input = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)![1]!;
        env[name] = inputs[input] ?? action.inputs[input]?.default ?? '';
      }
      await writeFile(env['GITHUB_OUTPUT']!, '');
      await writeFile(env['GITHUB_STEP_SUMMARY']!, '');
      const result = await execa('bash', ['-e', '-c', step.run!], { cwd: dir, env, reject: false });
      const outputs = Object.fromEntries((await readFile(env['GITHUB_OUTPUT']!, 'utf8')).trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
      return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr, outputs, summary: await readFile(env['GITHUB_STEP_SUMMARY']!, 'utf8') };
    }

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
