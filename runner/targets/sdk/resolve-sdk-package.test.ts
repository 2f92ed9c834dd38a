// Where an SDK version that is not bundled is installed: the client cache under XDG_CACHE_HOME.
// A cache that cannot hold the install is an input error naming the folder and the remedy
// (issue 28 item 7: XDG_CACHE_HOME naming a file ended the run with ENOTDIR as an internal error).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/run-cli.js';
import { TargetSpecError } from '../../errors.js';
import { getDefaultCacheDir, resolveSdkPackage } from './resolve-sdk-package.js';

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
    expect(run.stderr).toContain(`mcp-error-matrix run: --target ts-sdk@1.20.0: it is not bundled and must be installed into the client cache, but the folder ${file}/mcp-error-matrix/clients/@modelcontextprotocol+sdk@1.20.0 cannot be created: ${file} is a file, not a folder.`);
    expect(run.stderr).toMatch(/point XDG_CACHE_HOME at a folder you can write/);
  }, 60_000);
});
