// Version ranges as targets, with a stubbed registry (no network): which versions a range picks,
// the cached list and its time to live, and the errors for a bad range, no match and offline.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TargetSpecError } from '../../util/errors.js';
import { expandTargetRanges, parseSdkRangeSpec, selectRangeVersions, VERSION_LIST_TTL_MS } from './expand-version-range.js';
import type { RunNpm } from './resolve-sdk-package.js';

// The registry's lists as of this writing, trimmed to what the ranges below reach.
const SDK_VERSIONS = ['0.7.0', '1.0.0', '1.9.0', '1.10.0', '1.10.1', '1.10.2', '1.11.0', '1.11.5', '1.17.0', '1.17.5', '1.18.2', '1.23.0-beta.0', '1.23.0', '1.23.1', '1.24.3', '1.29.0', '1.30.1', '1.32.2'];
const CLIENT_VERSIONS = ['2.0.0-alpha.2', '2.0.0-beta.5', '2.0.0', '2.1.0', '2.2.0', '2.3.0', '2.3.1', '2.4.0'];

function stubNpm(): RunNpm & { calls: string[][] } {
  const calls: string[][] = [];
  const npm = async (args: string[]) => {
    calls.push(args);
    const list = args[1] === '@modelcontextprotocol/sdk' ? SDK_VERSIONS : CLIENT_VERSIONS;
    return { stdout: JSON.stringify(list) };
  };
  return Object.assign(npm, { calls });
}

describe('selectRangeVersions', () => {
  it.each([
    ['^1.10.0', false, ['1.10.2', '1.11.5', '1.17.5', '1.18.2', '1.23.1', '1.24.3', '1.29.0', '1.30.1', '1.32.2']],
    ['>=1.17 <1.30', false, ['1.17.5', '1.18.2', '1.23.1', '1.24.3', '1.29.0']],
    ['1.10.x', true, ['1.10.0', '1.10.1', '1.10.2']],
    ['~1.23.0', true, ['1.23.0', '1.23.1']], // the beta is left out: the range names no pre-release
    ['>=1.23.0-beta.0 <1.24', true, ['1.23.0-beta.0', '1.23.0', '1.23.1']],
  ])('%s (all: %s) picks %j', (range, all, expected) => {
    expect(selectRangeVersions(range, SDK_VERSIONS, all)).toEqual(expected);
  });

  it('takes the latest patch of each minor of ts-client 2.x, never a pre-release', () => {
    expect(selectRangeVersions('2.x', CLIENT_VERSIONS, false)).toEqual(['2.0.0', '2.1.0', '2.2.0', '2.3.1', '2.4.0']);
  });
});

describe('version-range expansion never takes pre-releases the range did not name', () => {
  // Pre-releases on every side: newest in a minor (1.10.3-beta.1), before a new minor (1.11.0-rc.0), after the last release.
  const published = ['1.10.0', '1.10.2', '1.10.3-beta.1', '1.11.0-rc.0', '1.11.0', '1.23.0-beta.0', '1.23.0-beta.2', '1.23.0', '1.23.1-beta.0', '1.23.1', '1.33.0-rc.0', '2.0.0-beta.1', '2.0.0-beta.5', '2.0.0', '2.1.0-beta.0'];

  it.each([
    ['^1.10.0', false, ['1.10.2', '1.11.0', '1.23.1']],
    ['^1.10.0', true, ['1.10.0', '1.10.2', '1.11.0', '1.23.0', '1.23.1']],
    ['*', true, ['1.10.0', '1.10.2', '1.11.0', '1.23.0', '1.23.1', '2.0.0']],
    ['>=1.23', true, ['1.23.0', '1.23.1', '2.0.0']],
    // The range names 1.23.0-beta.0: pre-releases of 1.23.0 only (npm's rule), not 1.23.1-beta.0 nor 1.33.0-rc.0.
    ['>=1.23.0-beta.0 <2', true, ['1.23.0-beta.0', '1.23.0-beta.2', '1.23.0', '1.23.1']],
    ['>=1.23.0-beta.0 <2', false, ['1.23.1']],
    ['^2.0.0-beta.1', true, ['2.0.0-beta.1', '2.0.0-beta.5', '2.0.0']],
  ])('%s (all: %s) picks %j', (range, all, expected) => {
    expect(selectRangeVersions(range, published, all)).toEqual(expected);
  });

  it('every pre-release picked has its release numbers named by a pre-release in the range', () => {
    for (const range of ['^1.10.0', '1.x', '*', '>=1.0.0', '>=1.23.0-beta.0 <2', '~1.23.0-beta.0', '^2.0.0-beta.1', '1.10.3-beta.1 || 1.11.x']) {
      for (const all of [false, true]) {
        for (const version of selectRangeVersions(range, published, all).filter((v) => v.includes('-'))) {
          expect(range, `${range} (all: ${all}) picked ${version}`).toContain(`${version.slice(0, version.indexOf('-'))}-`);
        }
      }
    }
  });
});

describe('parseSdkRangeSpec', () => {
  it('leaves exact versions and other kinds alone', () => {
    expect(parseSdkRangeSpec('ts-sdk@1.32.2')).toBeUndefined();
    expect(parseSdkRangeSpec('reference')).toBeUndefined();
    expect(parseSdkRangeSpec('command:node client.js @1.x')).toBeUndefined();
  });

  it('reads a range and the #all suffix', () => {
    expect(parseSdkRangeSpec('ts-sdk@>=1.17 <1.30')).toEqual({ kind: 'ts-sdk', range: '>=1.17 <1.30', all: false });
    expect(parseSdkRangeSpec('ts-client@2.x#all')).toEqual({ kind: 'ts-client', range: '2.x', all: true });
  });

  it('names the spec and shows valid forms for what is neither a version nor a range', () => {
    expect(() => parseSdkRangeSpec('ts-sdk@latest-ish')).toThrow(/--target ts-sdk@latest-ish: "latest-ish" is neither an exact version nor an npm semver range; write e\.g\. ts-sdk@1\.32\.2, ts-sdk@\^1\.10\.0/);
    expect(() => parseSdkRangeSpec('ts-sdk@')).toThrow(TargetSpecError);
  });
});

describe('expandTargetRanges', () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'mem-ranges-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('expands ranges in place, keeps other specs, drops duplicates', async () => {
    const npm = stubNpm();
    const { specs, expanded } = await expandTargetRanges(['reference', 'ts-sdk@>=1.29 <2', 'ts-sdk@1.32.2', 'ts-client@2.x'], { cacheDir, npm });
    expect(specs).toEqual(['reference', 'ts-sdk@1.29.0', 'ts-sdk@1.30.1', 'ts-sdk@1.32.2', 'ts-client@2.0.0', 'ts-client@2.1.0', 'ts-client@2.2.0', 'ts-client@2.3.1', 'ts-client@2.4.0']);
    expect(expanded.map((e) => e.spec)).toEqual(['ts-sdk@>=1.29 <2', 'ts-client@2.x']);
    expect(npm.calls).toEqual([
      ['view', '@modelcontextprotocol/sdk', 'versions', '--json'],
      ['view', '@modelcontextprotocol/client', 'versions', '--json'],
    ]);
  });

  it('reuses the cached list while it is fresh and fetches again after the TTL', async () => {
    const npm = stubNpm();
    let now = 1_000_000;
    await expandTargetRanges(['ts-sdk@^1.30'], { cacheDir, npm, now: () => now });
    const file = join(cacheDir, '.versions', '@modelcontextprotocol+sdk.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ fetchedAt: now, versions: SDK_VERSIONS });
    now += VERSION_LIST_TTL_MS - 1;
    await expandTargetRanges(['ts-sdk@^1.30'], { cacheDir, npm, now: () => now });
    expect(npm.calls).toHaveLength(1);
    now += 2;
    await expandTargetRanges(['ts-sdk@^1.30'], { cacheDir, npm, now: () => now });
    expect(npm.calls).toHaveLength(2);
  });

  it('offline with a stale cached list: uses it', async () => {
    mkdirSync(join(cacheDir, '.versions'));
    writeFileSync(join(cacheDir, '.versions', '@modelcontextprotocol+client.json'), JSON.stringify({ fetchedAt: 0, versions: ['2.0.0', '2.4.0'] }));
    const offline: RunNpm = async () => Promise.reject(Object.assign(new Error('failed'), { stderr: 'npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org failed' }));
    expect((await expandTargetRanges(['ts-client@2.x'], { cacheDir, npm: offline })).specs).toEqual(['ts-client@2.0.0', 'ts-client@2.4.0']);
  });

  it('offline with nothing cached: names the package, the cache file, npm\'s reason and the remedy', async () => {
    const offline: RunNpm = async () => Promise.reject(Object.assign(new Error('failed'), { stderr: 'npm error code ENOTFOUND\nnpm error network request failed' }));
    const error = await expandTargetRanges(['ts-sdk@^1.10.0'], { cacheDir, npm: offline }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetSpecError);
    const message = (error as Error).message;
    expect(message).toContain('--target ts-sdk@^1.10.0: a version range needs the list of published versions of @modelcontextprotocol/sdk');
    expect(message).toContain('npm error code ENOTFOUND');
    expect(message).toContain(join(cacheDir, '.versions', '@modelcontextprotocol+sdk.json'));
    expect(message).toMatch(/Remedy: go online once .* or name exact versions \(pinned: ts-sdk@/);
  });

  it('a corrupt cached list is fetched again', async () => {
    mkdirSync(join(cacheDir, '.versions'));
    writeFileSync(join(cacheDir, '.versions', '@modelcontextprotocol+sdk.json'), '{"fetchedAt": "soon"');
    const npm = stubNpm();
    expect((await expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir, npm, now: () => 5 })).specs).toEqual(['ts-sdk@1.10.2']);
    expect(npm.calls).toHaveLength(1);
  });

  it('a range no published version matches names the published span', async () => {
    await expect(expandTargetRanges(['ts-sdk@^3'], { cacheDir, npm: stubNpm() })).rejects.toThrow(
      '--target ts-sdk@^3: no published version of @modelcontextprotocol/sdk matches "^3"; published releases run from 0.7.0 to 1.32.2',
    );
  });
});
