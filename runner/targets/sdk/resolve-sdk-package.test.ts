// Where a client package comes from: a pinned alias in the project's own node_modules (a clone after
// `npm ci`), else the user cache, else an install into it that says so in one line; and what a
// failed install says, by cause. npm is the seam: these tests never start it. A cache that cannot
// hold the install is an input error naming the folder and the remedy (issue 28 item 7:
// XDG_CACHE_HOME naming a file ended the run with ENOTDIR as an internal error).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/run-cli.js';
import { useTempDirs } from '../../../test/temp-dirs.js';
import { TargetSpecError } from '../../util/errors.js';
import { getPackageRoot } from '../../util/package-paths.js';
import { getDefaultCacheDir, resolveSdkPackage, SDK_KINDS, type RunNpm } from './resolve-sdk-package.js';

const makeTempDir = useTempDirs();
const SDK = '@modelcontextprotocol/sdk';

/** An npm that installs `<name>@<version>` by writing its package.json (optionally failing after that, with `stderr`). */
function createFakeNpm(failWith?: string): RunNpm & { installs: string[] } {
  const installs: string[] = [];
  const npm = async (args: string[]) => {
    const prefix = args[args.indexOf('--prefix') + 1]!;
    const spec = args.at(-1)!;
    const at = spec.lastIndexOf('@');
    installs.push(spec);
    const dir = join(prefix, 'node_modules', ...spec.slice(0, at).split('/'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: spec.slice(0, at), version: spec.slice(at + 1) }));
    if (failWith !== undefined) throw Object.assign(new Error('Command failed: npm install'), { stderr: failWith });
    return { stdout: '' };
  };
  return Object.assign(npm, { installs });
}

/** A package root like an installed mcp-error-matrix: no aliases in its node_modules. */
function makeInstalledRoot(): string {
  const root = join(makeTempDir('mem-installed-'), 'lib', 'node_modules', 'mcp-error-matrix');
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  return root;
}

describe('a pinned version', () => {
  it("comes from the project's own node_modules in a clone after npm ci, without npm", async () => {
    const npm = createFakeNpm();
    const lines: string[] = [];
    const resolved = await resolveSdkPackage('ts-sdk@1.32.2', { cacheDir: makeTempDir('mem-cache-'), npm, onInstall: (line) => lines.push(line) });
    expect(resolved).toMatchObject({ bundled: true, version: '1.32.2', dir: join(getPackageRoot(), 'node_modules', 'mcp-sdk-1.32.2') });
    expect(npm.installs).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('is installed into the user cache by an installed package, with one line as the install starts, and taken from there next time', async () => {
    const npm = createFakeNpm();
    const lines: string[] = [];
    const options = { cacheDir: makeTempDir('mem-cache-'), packageRoot: makeInstalledRoot(), npm, onInstall: (line: string) => lines.push(line) };
    const first = await resolveSdkPackage('ts-sdk@1.32.2', options);
    const prefix = join(options.cacheDir, '@modelcontextprotocol+sdk@1.32.2');
    expect(first).toMatchObject({ bundled: false, version: '1.32.2', dir: join(prefix, 'node_modules', '@modelcontextprotocol', 'sdk') });
    expect(lines).toEqual([`installing ${SDK}@1.32.2 for --target ts-sdk@1.32.2 into ${prefix} (once: later runs use it)`]);
    const again = await resolveSdkPackage('ts-sdk@1.32.2', options);
    expect(again.dir).toBe(first.dir);
    expect(npm.installs).toEqual([`${SDK}@1.32.2`]);
    expect(lines).toHaveLength(1);
  });

  it("is not taken from a parent project's node_modules: only the package's own", async () => {
    const root = makeInstalledRoot();
    // <prefix>/lib/node_modules/mcp-sdk-1.32.2: a folder of that name above the package, not installed by it.
    const above = join(root, '..', 'mcp-sdk-1.32.2');
    mkdirSync(above, { recursive: true });
    writeFileSync(join(above, 'package.json'), JSON.stringify({ name: SDK, version: '1.32.2' }));
    const npm = createFakeNpm();
    const resolved = await resolveSdkPackage('ts-sdk@1.32.2', { cacheDir: makeTempDir('mem-cache-'), packageRoot: root, npm });
    expect(resolved.bundled).toBe(false);
    expect(npm.installs).toEqual([`${SDK}@1.32.2`]);
  });

  it('brings the packages its stack needs beside the library in the same install, and says so (cloudflare-agents: workerd, esbuild)', async () => {
    const args: string[][] = [];
    const fake = createFakeNpm();
    const npm = async (given: string[]) => {
      args.push(given);
      return fake(given);
    };
    const lines: string[] = [];
    const options = { cacheDir: makeTempDir('mem-cache-'), packageRoot: makeInstalledRoot(), npm, onInstall: (line: string) => lines.push(line) };
    const resolved = await resolveSdkPackage('cloudflare-agents@0.32.0', options);
    expect(resolved).toMatchObject({ kind: 'cloudflare-agents', flavor: 'cloudflare-agents', version: '0.32.0', bundled: false });
    expect(args).toHaveLength(1);
    expect(args[0]!.slice(-3)).toEqual(['workerd@1.20261123.1', 'esbuild@0.28.2', 'agents@0.32.0']);
    // The same versions a clone's `npm ci` installs beside the pinned alias.
    const pkg = JSON.parse(readFileSync(join(getPackageRoot(), 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(SDK_KINDS['cloudflare-agents'].companions.map((companion) => `${companion.slice(0, companion.lastIndexOf('@'))}@${pkg.devDependencies[companion.slice(0, companion.lastIndexOf('@'))]}`)).toEqual([...SDK_KINDS['cloudflare-agents'].companions]);
    expect(lines).toEqual([`installing agents@0.32.0 with workerd@1.20261123.1, esbuild@0.28.2 for --target cloudflare-agents@0.32.0 into ${join(options.cacheDir, 'agents@0.32.0')} (once: later runs use it)`]);
  });
});

describe('a failed install says why, by cause', () => {
  const ENOSPC = 'npm error code ENOSPC\nnpm error syscall write\nnpm error errno -28\nnpm error nospc There appears to be insufficient space on your system to finish.\n';

  it('a full disk is reported as such, never as "go online", and the half-finished install is not used next time', async () => {
    const options = { cacheDir: makeTempDir('mem-cache-'), packageRoot: makeInstalledRoot(), npm: createFakeNpm(ENOSPC) };
    const failure = resolveSdkPackage('ts-sdk@1.20.0', options);
    await expect(failure).rejects.toThrow(/could not be installed into .*: npm error code ENOSPC\. The disk \(or your quota\) holding .* is full\. Remedy: free some space, or set XDG_CACHE_HOME to a folder on a disk with room/);
    await expect(failure).rejects.not.toThrow(/go online/);
    // The fake npm wrote the package.json before failing, as a real one stopped mid-way can.
    expect(existsSync(join(options.cacheDir, '@modelcontextprotocol+sdk@1.20.0'))).toBe(false);
    await expect(resolveSdkPackage('ts-sdk@1.20.0', options)).rejects.toThrow(/is full/);
    expect(options.npm.installs).toEqual([`${SDK}@1.20.0`, `${SDK}@1.20.0`]);
  });

  it('a cache folder that cannot be written names XDG_CACHE_HOME', async () => {
    const npm = createFakeNpm('npm error code EACCES\nnpm error syscall mkdir\nnpm error path /x\n');
    await expect(resolveSdkPackage('ts-sdk@1.20.0', { cacheDir: makeTempDir('mem-cache-'), packageRoot: makeInstalledRoot(), npm })).rejects.toThrow(
      /This user cannot write there\. Remedy: set XDG_CACHE_HOME to a folder you can write/,
    );
  });

  it('a registry npm cannot reach says to go online once', async () => {
    const npm = createFakeNpm('npm error code ECONNREFUSED\nnpm error errno ECONNREFUSED\nnpm error network request to https://registry.npmjs.org/x failed\n');
    await expect(resolveSdkPackage('ts-sdk@1.20.0', { cacheDir: makeTempDir('mem-cache-'), packageRoot: makeInstalledRoot(), npm })).rejects.toThrow(/Remedy: go online once so it can be installed and cached/);
  });

  it('any other npm failure keeps npm\'s reason and does not blame the network', async () => {
    const npm = createFakeNpm('npm error code EINTEGRITY\nnpm error sha512-x integrity checksum failed\n');
    const failure = resolveSdkPackage('ts-sdk@1.20.0', { cacheDir: makeTempDir('mem-cache-'), packageRoot: makeInstalledRoot(), npm });
    await expect(failure).rejects.toThrow(/: npm error code EINTEGRITY\. Remedy: fix what npm reports/);
    await expect(failure).rejects.not.toThrow(/go online/);
  });
});

const work = mkdtempSync(join(tmpdir(), 'mem-sdk-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the client cache', () => {
  it('is $XDG_CACHE_HOME/mcp-error-matrix/clients, else ~/.cache/…; a relative XDG_CACHE_HOME is ignored, as the XDG spec says', () => {
    expect(getDefaultCacheDir({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/mcp-error-matrix/clients');
    expect(getDefaultCacheDir({ XDG_CACHE_HOME: 'relative/cache' })).toBe(join(homedir(), '.cache', 'mcp-error-matrix', 'clients'));
    expect(getDefaultCacheDir({})).toBe(join(homedir(), '.cache', 'mcp-error-matrix', 'clients'));
  });

  it('that cannot be created is a TargetSpecError naming the file in the way, before npm runs', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'not a folder\n');
    const npm = async () => {
      throw new Error('npm must not run');
    };
    const failure = resolveSdkPackage('ts-sdk@1.20.0', { cacheDir: join(file, 'clients'), npm });
    await expect(failure).rejects.toThrow(TargetSpecError);
    await expect(failure).rejects.toThrow(`${file} is a file, not a folder`);
  });

  it('XDG_CACHE_HOME naming a file is exit 2 before any cell, naming the file and the variable, not ENOTDIR as an internal error', async () => {
    const file = join(work, 'cache-is-a-file');
    writeFileSync(file, 'not a folder\n');
    const run = await runCli(['run', '--target', 'reference', '--target', 'ts-sdk@1.20.0', '--case', 'baseline', '--no-schemas', '--no-baseline', '--mode', 'direct'], {
      cwd: work,
      env: { ...process.env, CI: 'true', XDG_CACHE_HOME: file },
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`mcp-error-matrix run: --target ts-sdk@1.20.0: it must be installed into the client cache, but the folder ${file}/mcp-error-matrix/clients/@modelcontextprotocol+sdk@1.20.0 cannot be created: ${file} is a file, not a folder.`);
    expect(run.stderr).toMatch(/point XDG_CACHE_HOME at a folder you can write/);
  }, 60_000);
});
