// `npm pack` gives a tarball that installs with its runtime dependencies only and runs: the packed
// package goes into a fresh project folder and `mcp-error-matrix run --target reference` runs from it,
// by its name on PATH, in an empty user cache (the whole table in direct mode, and over loopback the
// cases answered at once: no verdict of this test may depend on the machine's load).
//
// No network: the install is `npm ci --offline` against a lockfile made of the tarball and the
// non-dev entries of package-lock.json (the versions and integrity the project pins), so npm needs
// only tarballs, which the dev install (`npm ci`) left in npm's cache. (`npm install ./x.tgz --offline`
// would need the registry's metadata for every dependency, which npm ci never fetches.) When npm's
// cache lacks one, the test is skipped with a notice, except under CI=true, where it fails.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../runner/util/package-paths.js';
import { SDK_KINDS } from '../runner/targets/sdk/resolve-sdk-package.js';
import type { RunResult } from '../runner/vocabulary/types.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from './answered-at-once.js';
import { ensureDist } from './build-dist.js';
import { isCi } from './requirements.js';
import { useTempDirs } from './temp-dirs.js';
import { readFullResults } from './read-results.js';

const run = promisify(execFile);
const makeTempDir = useTempDirs();
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}
interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  bin: Record<string, string>;
  engines?: Record<string, string>;
  license?: string;
}

/** `npm pack` of this checkout (dist/ as built; no lifecycle scripts) into `dir`; its file name and what npm reports. */
async function packInto(dir: string): Promise<{ file: string; size: number; entryCount: number; files: string[] }> {
  ensureDist();
  const { stdout } = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: packagePath(), maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as { filename: string; size: number; entryCount: number; files: { path: string }[] }[];
  return { file: packed!.filename, size: packed!.size, entryCount: packed!.entryCount, files: packed!.files.map((entry) => entry.path) };
}

/** A project that depends on the tarball alone, locked to the tarball and the project's own runtime entries. */
function writeProject(dir: string, tarball: string): void {
  const manifest = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as Manifest;
  const lock = JSON.parse(readFileSync(packagePath('package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const runtime = Object.entries(lock.packages).filter(([key, entry]) => key !== '' && !entry.dev && !entry.devOptional);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(join(dir, tarball))).digest('base64')}`;
  const dependencies = { [manifest.name]: `file:${tarball}` };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mem-package-check', private: true, dependencies }, null, 2));
  const packages = {
    '': { name: 'mem-package-check', dependencies },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: `file:${tarball}`,
      integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
    ...Object.fromEntries(runtime),
  };
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'mem-package-check', lockfileVersion: 3, requires: true, packages }, null, 2));
}

/** The packages installed in a node_modules folder, nested ones included (`@scope/name` counts once). */
function listInstalled(nodeModules: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const names = entry.name.startsWith('@') ? readdirSync(join(nodeModules, entry.name)).map((inner) => `${entry.name}/${inner}`) : [entry.name];
    for (const name of names) {
      if (!existsSync(join(nodeModules, name, 'package.json'))) continue;
      found.push(name);
      if (existsSync(join(nodeModules, name, 'node_modules'))) found.push(...listInstalled(join(nodeModules, name, 'node_modules')));
    }
  }
  return found;
}

describe('the packed tarball', () => {
  it('installs with its runtime dependencies only and runs `mcp-error-matrix run --target reference`', { timeout: 300_000 }, async (context) => {
    const dir = makeTempDir('mem-package-');
    const packed = await packInto(dir);
    // What ships: the compiled CLI, the data it reads, no tests and no TypeScript sources of the runner.
    expect(packed.files).toEqual(expect.arrayContaining(['bin/mcp-error-matrix.js', 'dist/runner/cli/cli-process.js', 'cases/application/baseline.json', 'baselines/default.yaml', 'runner/targets/sdk/worker.mjs', 'package.json']));
    expect(packed.files.filter((file) => /\.test\.|^test\/|\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);

    writeProject(dir, packed.file);
    const install = await run(NPM, ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }).then(
      () => undefined,
      (error: { stderr?: string; message: string }) => String(error.stderr ?? error.message),
    );
    if (install !== undefined && /ENOTCACHED/.test(install) && !isCi()) {
      console.warn(`test/package-install.test.ts: skipped: npm's cache lacks a runtime dependency (run \`npm ci\` once online to fill it):\n${install.trim()}`);
      context.skip();
    }
    expect(install, 'npm ci --offline of the packed package (under CI=true a package missing from npm\'s cache fails: `npm ci` fills it)').toBeUndefined();

    const nodeModules = join(dir, 'node_modules');
    const installed = listInstalled(nodeModules);
    const manifest = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as Manifest;
    // Only runtime dependencies: no client library (an alias or the packages behind them), no test tool.
    const aliasPrefixes = Object.values(SDK_KINDS).map((kind) => kind.aliasPrefix);
    expect(installed.filter((name) => aliasPrefixes.some((prefix) => name.startsWith(prefix)))).toEqual([]);
    expect(installed.filter((name) => Object.keys(manifest.devDependencies).includes(name) || /^@modelcontextprotocol\/|^@ai-sdk\/|^@langchain\/|^@openai\/|^@mastra\//.test(name))).toEqual([]);
    expect(installed).toEqual(expect.arrayContaining(['mcp-error-matrix', ...Object.keys(manifest.dependencies)]));
    console.info(`test/package-install.test.ts: tarball ${packed.file}: ${packed.size} bytes, ${packed.entryCount} files; installs ${installed.length} packages`);

    // Run by its name on PATH, from the project folder, with an empty user cache.
    const cache = makeTempDir('mem-package-cache-');
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: [join(nodeModules, '.bin'), process.env.PATH].join(delimiter), XDG_CACHE_HOME: cache, CI: 'true' };
    for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
    const schemas = process.env.MCP_SCHEMAS_DIR ? [] : ['--no-schemas'];
    const runInstalled = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
      run('mcp-error-matrix', args, { cwd: dir, env: { ...env, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 }).then(
        (done) => ({ code: 0, ...done }),
        (failed: { code: number; stdout: string; stderr: string }) => failed,
      );
    // `run --target reference` over the whole table, in direct mode: every cell is decided by the
    // scripted bytes alone, so no verdict depends on how busy the machine is. (Over loopback a few
    // cells wait on timers: at load 28, sse-hang-after-progress once read NO_RESPONSE, non_strict.)
    const matrix = await runInstalled(['run', '--target', 'reference', '--mode', 'direct', ...schemas, '--out', 'report']);
    expect(matrix.code, matrix.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'report', 'results.json'), 'utf8')) as RunResult;
    expect(result.complete).toBe(true);
    expect(result.summary).toMatchObject({ fail: 0, non_strict: 0, error: 0, xpass: 0 });
    expect(result.summary.pass).toBeGreaterThan(400);
    expect(matrix.stderr).not.toMatch(/installing /);
    // The repro line starts the tool as it was started: by its name, never `npx` (not published).
    // (results.json is an index; the repro lines are in the whole model beside it.)
    expect(readFullResults(join(dir, 'report')).cells[0]!.repro).toMatch(/^mcp-error-matrix run --target reference --case \S+ --version \S+ --mode direct/);
    // And over loopback (the mock server, undici), on cases answered at once, with a timeout they never wait for.
    const cases = ['baseline', 'tool-is-error', 'content-not-array', 'error-with-data', 'http-503-empty-body'].flatMap((id) => ['--case', id]);
    const http = await runInstalled(['run', '--target', 'reference', ...cases, '--timeout', String(ANSWERED_AT_ONCE_TIMEOUT_MS), ...schemas]);
    expect(http.code, http.stderr).toBe(0);
    expect(http.stderr).toMatch(/^20 cells: 20 pass, 0 fail/m);

    // An installed package has no pinned client of its own: it installs one into the user cache, saying so.
    const client = await runInstalled(['run', '--target', 'ts-sdk@1.32.2', '--case', 'baseline', '--no-schemas'], { npm_config_offline: 'true' });
    expect(client.stderr).toMatch(new RegExp(`^mcp-error-matrix run: installing @modelcontextprotocol/sdk@1\\.32\\.2 for --target ts-sdk@1\\.32\\.2 into ${cache}/mcp-error-matrix/clients/`, 'm'));
  });
});
