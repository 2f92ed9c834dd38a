// Version ranges as targets, with a stubbed registry (no network): which versions a range picks,
// the cached list and its time to live, and the errors for a bad range, no match and offline.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TargetSpecError } from '../../util/errors.js';
import { expandTargetRanges, MAX_RANGE_TARGETS, parseSdkRangeSpec, selectRangeVersions, VERSION_LIST_TTL_MS } from './expand-version-range.js';
import { listBundledSdkTargets, type RunNpm } from './resolve-sdk-package.js';

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

// The rules issue 29's mutation run found unstated. The registry is a stub answering a given list
// (as `npm view <package> versions --json` prints it); nothing here needs the network.
function answering(stdout: string): RunNpm & { calls: number } {
  const npm = async () => {
    npm.calls++;
    return { stdout };
  };
  npm.calls = 0;
  return npm;
}
/** npm failing as execFile reports it: its stderr (possibly empty) and the error's message. */
function failing(stderr: string, message = 'Command failed: npm view @modelcontextprotocol/sdk versions --json'): RunNpm {
  return async () => Promise.reject(Object.assign(new Error(message), { stderr }));
}

describe('a range spec is read as npm reads a range', () => {
  it('white space around the range and before #all is not part of it', () => {
    expect(parseSdkRangeSpec('ts-sdk@ ^1.10.0 ')).toEqual({ kind: 'ts-sdk', range: '^1.10.0', all: false });
    expect(parseSdkRangeSpec('ts-client@2.x #all')).toEqual({ kind: 'ts-client', range: '2.x', all: true });
  });
  it('an exact version, a pre-release included, is resolved as it is; with a leading v or = it is a range of one', () => {
    expect(parseSdkRangeSpec('ts-client@2.0.0-dev.1')).toBeUndefined();
    expect(parseSdkRangeSpec('ts-sdk@v1.32.2')).toEqual({ kind: 'ts-sdk', range: 'v1.32.2', all: false });
    expect(parseSdkRangeSpec('ts-sdk@=1.32.2')).toEqual({ kind: 'ts-sdk', range: '=1.32.2', all: false });
  });
  it('a kind is read only at the start of the spec: a command naming an SDK range in its arguments is a command', () => {
    expect(parseSdkRangeSpec('command:npx ts-sdk@1.x')).toBeUndefined();
    expect(parseSdkRangeSpec('my-ts-sdk@1.x')).toBeUndefined();
  });
});

describe('the versions a range selects follow npm order, not the order the registry lists them', () => {
  // A backport: 1.10.3 published after 1.11.0.
  const published = ['1.10.0', '1.11.0', '1.10.3', '1.9.0'];
  it('oldest first, and the latest patch of each minor is the highest, not the last published', () => {
    expect(selectRangeVersions('^1.9.0', published, false)).toEqual(['1.9.0', '1.10.3', '1.11.0']);
    expect(selectRangeVersions('^1.9.0', published, true)).toEqual(['1.9.0', '1.10.0', '1.10.3', '1.11.0']);
  });
});

describe('expandTargetRanges: what it says when a range cannot be run', () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'mem-ranges-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('the published span names releases only, in npm order, whatever order the registry lists them in', async () => {
    const npm = answering(JSON.stringify(['1.10.0', '0.6.0-alpha.1', '0.7.0', '1.32.2', '1.9.0', '2.0.0-beta.1']));
    await expect(expandTargetRanges(['ts-sdk@^3'], { cacheDir, npm })).rejects.toThrow('no published version of @modelcontextprotocol/sdk matches "^3"; published releases run from 0.7.0 to 1.32.2');
  });
  it('with only pre-releases published, the span says it knows no release', async () => {
    const npm = answering(JSON.stringify(['2.0.0-alpha.1', '2.0.0-alpha.2']));
    await expect(expandTargetRanges(['ts-client@2.x'], { cacheDir, npm })).rejects.toThrow('no published version of @modelcontextprotocol/client matches "2.x"; published releases run from ? to ?');
  });
  it(`a range may select up to ${MAX_RANGE_TARGETS} versions (one worker each), not one more`, async () => {
    const minors = (count: number) => JSON.stringify(Array.from({ length: count }, (_, minor) => `1.${minor}.0`));
    expect((await expandTargetRanges(['ts-sdk@^1.0.0'], { cacheDir, npm: answering(minors(MAX_RANGE_TARGETS)) })).specs).toHaveLength(MAX_RANGE_TARGETS);
    rmSync(join(cacheDir, '.versions'), { recursive: true });
    await expect(expandTargetRanges(['ts-sdk@^1.0.0'], { cacheDir, npm: answering(minors(MAX_RANGE_TARGETS + 1)) })).rejects.toThrow(
      `--target ts-sdk@^1.0.0: "^1.0.0" selects ${MAX_RANGE_TARGETS + 1} versions, more than ${MAX_RANGE_TARGETS} (one worker process each); narrow the range`,
    );
  });
});

describe("the registry's answer and the cached list", () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'mem-ranges-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));
  const cacheFile = (dir: string) => join(dir, '.versions', '@modelcontextprotocol+sdk.json');
  const writeCache = (content: unknown) => {
    mkdirSync(join(cacheDir, '.versions'), { recursive: true });
    writeFileSync(cacheFile(cacheDir), JSON.stringify(content));
  };

  it('a package with one version is printed as a bare string, and is a list of one', async () => {
    expect((await expandTargetRanges(['ts-client@2.x'], { cacheDir, npm: answering('"2.0.0"') })).specs).toEqual(['ts-client@2.0.0']);
  });
  it('what is not a version string is dropped from the answer, and from the list cached', async () => {
    const npm = answering(JSON.stringify(['1.10.0', 'not-a-version', 7, null, '1.10.2']));
    expect((await expandTargetRanges(['ts-sdk@1.10.x#all'], { cacheDir, npm, now: () => 1 })).specs).toEqual(['ts-sdk@1.10.0', 'ts-sdk@1.10.2']);
    expect(JSON.parse(readFileSync(cacheFile(cacheDir), 'utf8'))).toEqual({ fetchedAt: 1, versions: ['1.10.0', '1.10.2'] });
  });
  it('an answer with no version is a failure to fetch: npm view answered no version', async () => {
    const error = await expandTargetRanges(['ts-sdk@1.x'], { cacheDir, npm: answering('[]') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetSpecError);
    expect((error as Error).message).toContain('none could be fetched (npm view answered no version)');
    const junk = (await expandTargetRanges(['ts-sdk@1.x'], { cacheDir, npm: answering(JSON.stringify(['junk'])) }).catch((e: unknown) => e)) as Error;
    expect(junk.message).toContain('(npm view answered no version)');
  });
  it('a list cached at this very instant is fresh; one cached exactly the TTL ago, or in the future (the clock went back), is fetched again', async () => {
    writeCache({ fetchedAt: 5_000, versions: ['1.10.0'] });
    const npm = answering(JSON.stringify(['1.10.0', '1.10.2']));
    expect((await expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir, npm, now: () => 5_000 })).specs).toEqual(['ts-sdk@1.10.0']);
    expect(npm.calls).toBe(0);
    writeCache({ fetchedAt: 5_000, versions: ['1.10.0'] });
    expect((await expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir, npm, now: () => 5_000 + VERSION_LIST_TTL_MS })).specs).toEqual(['ts-sdk@1.10.2']);
    expect(npm.calls).toBe(1);
    writeCache({ fetchedAt: 5_000, versions: ['1.10.0'] });
    expect((await expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir, npm, now: () => 4_999 })).specs).toEqual(['ts-sdk@1.10.2']);
    expect(npm.calls).toBe(2);
  });
  it('a cached file without a numeric fetchedAt or a list of versions is not a cached list, even offline', async () => {
    writeCache({ fetchedAt: 'soon', versions: ['1.10.0'] });
    await expect(expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir, npm: failing('npm error code ENOTCACHED') })).rejects.toThrow(/nor found in the cache/);
    writeCache({ fetchedAt: 5_000, versions: '1.10.0' });
    expect((await expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir, npm: answering(JSON.stringify(['1.10.2'])), now: () => 5_000 })).specs).toEqual(['ts-sdk@1.10.2']);
  });
  it('the cache folder is created when it does not exist yet, and written again once the list is stale', async () => {
    const nested = join(cacheDir, 'not', 'yet');
    const npm = answering(JSON.stringify(['1.10.0']));
    await expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir: nested, npm, now: () => 1 });
    expect(JSON.parse(readFileSync(cacheFile(nested), 'utf8'))).toEqual({ fetchedAt: 1, versions: ['1.10.0'] });
    await expandTargetRanges(['ts-sdk@1.10.x'], { cacheDir: nested, npm, now: () => 2 + VERSION_LIST_TTL_MS });
    expect(JSON.parse(readFileSync(cacheFile(nested), 'utf8'))).toEqual({ fetchedAt: 2 + VERSION_LIST_TTL_MS, versions: ['1.10.0'] });
  });
});

describe("offline: npm's own reason, quoted", () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'mem-ranges-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));
  const reasonOf = async (npm: RunNpm) => {
    const message = ((await expandTargetRanges(['ts-sdk@1.x'], { cacheDir, npm }).catch((e: unknown) => e)) as Error).message;
    return /none could be fetched \((.*)\) nor found in the cache/s.exec(message)?.[1];
  };

  it("is npm's first error line that is not the log's path, whatever npm printed before it", async () => {
    const stderr = [
      'npm warn config production Use `--omit=dev` instead.',
      'npm error code ENOTCACHED',
      "npm error request to https://registry.npmjs.org/@modelcontextprotocol%2fsdk failed: cache mode is 'only-if-cached' but no cached response is available.",
      'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-05T18_00_00_000Z-debug-0.log',
      '',
    ].join('\n');
    expect(await reasonOf(failing(stderr))).toBe('npm error code ENOTCACHED');
    expect(await reasonOf(failing('npm warn something\nnpm ERR! code E404\nnpm ERR! A complete log of this run can be found in: /x.log\n'))).toBe('npm ERR! code E404');
    expect(await reasonOf(failing('npm error A complete log of this run can be found in: /x.log\nnpm error code ENOTFOUND\n'))).toBe('npm error code ENOTFOUND');
  });
  it('is quoted without the white space around it (a CRLF line included)', async () => {
    expect(await reasonOf(failing('npm error code ENOTFOUND  \r\nnpm error network\r\n'))).toBe('npm error code ENOTFOUND');
  });
  it("without an npm error line, is the first line npm printed, blank lines before it left out", async () => {
    expect(await reasonOf(failing('\n\nsh: 1: npm: Permission denied\nmore\n'))).toBe('sh: 1: npm: Permission denied');
  });
  it("with nothing but white space on stderr (npm stopped by its time limit), is the error's own message; with no words at all, 'npm failed'", async () => {
    expect(await reasonOf(failing('', 'Command failed: npm view @modelcontextprotocol/sdk versions --json'))).toBe('Command failed: npm view @modelcontextprotocol/sdk versions --json');
    expect(await reasonOf(failing('  \n', 'Command failed: npm view @modelcontextprotocol/sdk versions --json'))).toBe('Command failed: npm view @modelcontextprotocol/sdk versions --json');
    expect(await reasonOf(failing('  \n', ''))).toBe('npm failed');
  });
  it('names every pinned version as a remedy', async () => {
    const message = ((await expandTargetRanges(['ts-sdk@1.x'], { cacheDir, npm: failing('npm error code ENOTFOUND') }).catch((e: unknown) => e)) as Error).message;
    expect(message).toContain(`(pinned: ${listBundledSdkTargets().join(', ')}).`);
  });
});
