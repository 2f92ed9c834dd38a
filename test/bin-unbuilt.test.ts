// bin/ in a checkout that was never built or installed: one line naming the command that fixes it,
// exit 2, no stack trace (it used to print Node's ERR_MODULE_NOT_FOUND stack). A fresh clone is told
// `npm ci` (`npm run build` fails there: tsc is not installed), an installed copy to reinstall.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { declareLoadedByPath } from './loaded-by-path.js';

// The package's bin, copied and run by path.
declareLoadedByPath(() => import('../bin/mcp-error-matrix.js' as string));

const BIN = resolve(import.meta.dirname, '../bin/mcp-error-matrix.js');
const work = mkdtempSync(join(tmpdir(), 'mem-unbuilt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** How the folder looks: a clone (tsconfig.json) with or without its dev dependencies, or an installed package. */
type Layout = 'clone' | 'fresh clone' | 'installed';

/** A package folder holding bin/ and the given dist files; the CLI run there with `list`. */
async function runIn(name: string, distFiles: Record<string, string>, layout: Layout = 'clone') {
  const root = join(work, name);
  mkdirSync(join(root, 'bin'), { recursive: true });
  cpSync(BIN, join(root, 'bin', 'mcp-error-matrix.js'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  if (layout !== 'installed') writeFileSync(join(root, 'tsconfig.json'), '{}');
  if (layout === 'clone') {
    mkdirSync(join(root, 'node_modules', 'typescript'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'typescript', 'package.json'), '{"name":"typescript"}');
  }
  for (const [file, text] of Object.entries(distFiles)) {
    mkdirSync(join(root, 'dist', 'runner', 'cli'), { recursive: true });
    writeFileSync(join(root, 'dist', 'runner', 'cli', file), text);
  }
  const run = await promisify(execFile)(process.execPath, [join(root, 'bin', 'mcp-error-matrix.js'), 'list'], { cwd: root }).then(
    (done) => ({ code: 0, ...done }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );
  return { root, ...run };
}

describe('bin/ before `npm run build` or `npm ci`', () => {
  it('names `npm ci` in a fresh clone, where `npm run build` would fail for want of tsc', async () => {
    const run = await runIn('fresh-clone', {}, 'fresh clone');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mcp-error-matrix: the compiled CLI is missing or incomplete (${join(run.root, 'dist/runner/cli/cli-process.js')} not found): run \`npm ci\` in ${run.root}/ (it installs the dependencies and builds)\n`);
  });

  it('says to reinstall an installed copy that lost its compiled CLI', async () => {
    const run = await runIn('installed', {}, 'installed');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcp-error-matrix: the compiled CLI is missing or incomplete \(.*\): this installed copy is incomplete: reinstall mcp-error-matrix\n$/);
  });

  it('names `npm run build` when the compiled CLI is missing in a clone with its dependencies', async () => {
    const run = await runIn('never-built', {});
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mcp-error-matrix: the compiled CLI is missing or incomplete (${join(run.root, 'dist/runner/cli/cli-process.js')} not found): run \`npm run build\` in ${run.root}/\n`);
  });

  it('names `npm run build` when a compiled module it imports is missing', async () => {
    const run = await runIn('half-built', { 'cli-process.js': "export { runCliProcess } from './cli.js';\n" });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcp-error-matrix: the compiled CLI is missing or incomplete \(.*dist\/runner\/cli\/cli\.js not found\): run `npm run build` in /);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names `npm ci` when a package it imports is not installed', async () => {
    const run = await runIn('not-installed', { 'cli-process.js': "import 'mem-no-such-package';\nexport async function runCliProcess() {}\n" });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcp-error-matrix: the package mem-no-such-package is not installed: run `npm ci` \(or `npm install`\) in /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('does not hide any other error as "not built"', async () => {
    const run = await runIn('broken', { 'cli-process.js': "throw new Error('a bug at load');\n" });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('a bug at load');
    expect(run.stderr).not.toContain('npm run build');
  });
});
