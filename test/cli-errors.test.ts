import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { getPackageVersion, packagePath } from '../runner/util/package-paths.js';
import { listTargetKinds } from '../runner/targets/resolve-target.js';
import { pickNearestVersions, resolveSdkPackage, type RunNpm } from '../runner/targets/sdk/resolve-sdk-package.js';
import { runCli } from './run-cli.js';
import { useTempDirs } from './temp-dirs.js';

const makeTempDir = useTempDirs();

function brokenTable(mutate: (baseline: Record<string, unknown>) => unknown): string {
  const root = makeTempDir('mem-broken-');
  mkdirSync(join(root, 'application'));
  const baseline = JSON.parse(readFileSync(packagePath('cases/application/baseline.json'), 'utf8')) as Record<string, unknown>;
  const content = mutate(baseline);
  writeFileSync(join(root, 'application', 'baseline.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return root;
}

describe('usage and input errors exit 2 with a message that says what to fix', () => {
  test.each([
    ['a broken case file', () => ['run', '--cases', brokenTable((b) => ({ ...b, exchanges: 'none' }))], /application\/baseline\.json at \/exchanges: expected array/],
    ['a case file that is not JSON', () => ['run', '--cases', brokenTable(() => '{"id":')], /application\/baseline\.json: is not valid JSON/],
    ['an unknown target', () => ['run', '--target', 'referense'], /--target referense: unknown target \(did you mean "reference"\?\)/],
    ['a classifier module that does not exist', () => ['run', '--target', 'classifier:./nope.js'], /--target classifier:\.\/nope\.js: module not found/],
    ['an unknown flag', () => ['run', '--targett', 'reference'], /run: unknown option --targett \(did you mean --target\?\); see `mcp-error-matrix run --help`/],
    ['a negative --timeout', () => ['run', '--timeout', '-5'], /^mcp-error-matrix run: --timeout -5: expected a positive whole number\n$/],
    ['a flag missing its value', () => ['run', '--out', '--quiet'], /run: --out needs a value, but the next argument "--quiet" starts with "-"; write --out=VALUE/],
    ['a value given to a switch', () => ['list', '--json=yes'], /list: --json takes no value/],
    ['an unknown flag of another command', () => ['show', 'baseline', '--verison', '2025-11-25'], /show: unknown option --verison \(did you mean --version\?\)/],
    ['a bad --mode', () => ['run', '--mode', 'socket'], /--mode socket: expected "http"/],
    ['a bad --version', () => ['run', '--version', '2024-01-01'], /--version 2024-01-01: expected one of 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28/],
    ['an unknown case id', () => ['run', '--case', 'baselin'], /--case baselin: no case matches \(did you mean "baseline"\?\)/],
    ['an unknown command', () => ['rn'], /unknown command "rn" \(did you mean "run"\?\)/],
    ['help for an unknown command', () => ['help', 'nosuch'], /^mcp-error-matrix: unknown command "nosuch"\n/],
    ['help for a misspelt command', () => ['help', 'shwo'], /^mcp-error-matrix: unknown command "shwo" \(did you mean "show"\?\)/],
    ['an unknown case id to show, a typo away', () => ['show', 'baselin'], /^mcp-error-matrix show baselin: no such case \(did you mean "baseline"\?\)/],
    ['an unknown case id to show, part of some ids', () => ['show', 'reset'], /^mcp-error-matrix show reset: no such case \(did you mean one of "no-response-reset", "sse-reset-mid-stream"\?\); `mcp-error-matrix list` shows the ids\n$/],
    ['an unknown case id to show, near none', () => ['show', 'nope'], /^mcp-error-matrix show nope: no such case; no case id is a typo away from it or contains it; `mcp-error-matrix list` shows all \d+ \(`--layer` narrows them\)\n$/],
    ['an unknown case id to serve', () => ['serve', 'reset'], /^mcp-error-matrix serve reset: no such case \(did you mean one of /],
  ])('%s', async (_name, argv, message) => {
    const run = await runCli(argv());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // The command is named once: never "run: run: unknown option".
    expect(run.stderr).not.toMatch(/^mcp-error-matrix (\w+):? \1:/);
    expect(run.stdout).toBe('');
  });

  test('an unknown flag names the command once', async () => {
    const run = await runCli(['run', '--targt', 'reference']);
    expect(run.stderr).toBe('mcp-error-matrix run: unknown option --targt (did you mean --target?); see `mcp-error-matrix run --help`\n');
  });
});

describe('list', () => {
  test('prints the table with filters', async () => {
    const run = await runCli(['list', '--origin', 'article']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^id\s+layer\s+origin\s+versions\s+title$/m);
    expect(run.stdout).toMatch(/^http-503-then-200\s+transport\s+article\s+25-03\+25-06\+25-11\+26-07\s+HTTP 503/m);
    expect(run.stdout).toMatch(/^11 cases$/m);
  });
});

describe('every command helps itself', () => {
  const commands = ['run', 'list', 'show', 'serve', 'schemas', 'validate', 'verify', 'compare', 'merge'];

  test.each(commands.flatMap((command) => [[command, '--help'], [command, '-h']]))('%s %s prints that command\'s usage and exits 0', async (command, flag) => {
    const run = await runCli([command, flag]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(new RegExp(`^Usage:\\s+mcp-error-matrix ${command}\\b`));
    // Its own text, not the top-level one.
    expect(run.stdout).not.toMatch(/^Commands:/m);
  });

  test('--help wins over other arguments, and `help <command>` prints the same text', async () => {
    const flagged = await runCli(['show', 'no-such-case', '--version', '1999-01-01', '--help']);
    expect(flagged.code).toBe(0);
    const viaHelp = await runCli(['help', 'show']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(flagged.stdout);
  });

  test('run --help documents every run flag', async () => {
    const { RUN_FLAGS } = await import('../runner/cli/options.js');
    const { stdout } = await runCli(['run', '--help']);
    for (const flag of Object.keys(RUN_FLAGS)) expect(stdout).toContain(`--${flag}`);
  });

  test.each(['--version', '-v', '-V'])('%s prints the package version', async (flag) => {
    const run = await runCli([flag]);
    expect(run).toEqual({ code: 0, stdout: `${getPackageVersion()}\n`, stderr: '' });
  });

  test('the help says what runs where: a classifier in a worker thread, clients installed into the cache (none is bundled)', async () => {
    for (const argv of [['--help'], ['run', '--help']]) {
      const { stdout } = await runCli(argv);
      expect(stdout).toMatch(/^ {2}classifier:<module>\[#export\] .*\n?.* worker thread/m);
      expect(stdout).not.toMatch(/in-process|bundled or installed|bundled: /);
      expect(stdout).toMatch(/installed once (with npm )?into the user cache/);
    }
  });

  test('the top-level help lists every command and every target kind', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of commands) expect(run.stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
    for (const spec of ['reference', 'naive', ...listTargetKinds().map((kind) => kind)]) expect(run.stdout).toMatch(new RegExp(`^  ${spec}[:@\\s]`, 'm'));
  });
});

describe('an SDK version npm does not have', () => {
  // In publish order, as npm lists them: a backport (1.24.3) after a newer release.
  const published = ['1.0.0', '1.25.0', '1.32.1', '1.33.0', '1.24.3', '1.32.2', '2.0.0-beta.1'];
  const cacheDirs: string[] = [];
  afterAll(() => cacheDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const makeCacheDir = (): string => {
    cacheDirs.push(mkdtempSync(join(tmpdir(), 'mem-sdk-cache-')));
    return cacheDirs.at(-1)!;
  };
  const npmSaying = (installError: string): RunNpm => async (args) => {
    if (args[0] === 'view') return { stdout: JSON.stringify(published) };
    throw Object.assign(new Error('Command failed: npm install'), { stderr: installError });
  };

  test('says the version does not exist and lists the nearest published ones (ETARGET)', async () => {
    const cacheDir = makeCacheDir();
    const npm = npmSaying('npm error code ETARGET\nnpm error notarget No matching version found for @modelcontextprotocol/sdk@1.32.5.\n');
    const failure = resolveSdkPackage('ts-sdk@1.32.5', { cacheDir, npm });
    await expect(failure).rejects.toThrow(
      /^--target ts-sdk@1\.32\.5: @modelcontextprotocol\/sdk has no version 1\.32\.5 on the npm registry; the nearest published: ts-sdk@1\.25\.0, ts-sdk@1\.32\.1, ts-sdk@1\.32\.2, ts-sdk@1\.33\.0 \(newest: ts-sdk@1\.33\.0\)\. Pinned: /,
    );
    await expect(failure).rejects.not.toThrow(/go online/);
  });

  test('offline with the version list in npm\'s cache, it says where the answer came from', async () => {
    const npm = npmSaying('npm error code ETARGET\nnpm error notarget No matching version found for @modelcontextprotocol/sdk@1.32.5.\n');
    await expect(resolveSdkPackage('ts-sdk@1.32.5', { cacheDir: makeCacheDir(), npm, offline: true })).rejects.toThrow(
      /has no version 1\.32\.5 in npm's cached copy of the registry \(offline; go online to refresh it\); the nearest published: /,
    );
  });

  test('offline, it still says to go online once', async () => {
    const cacheDir = makeCacheDir();
    const npm = npmSaying('npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/@modelcontextprotocol%2fsdk failed: cache mode is \'only-if-cached\'\n');
    await expect(resolveSdkPackage('ts-sdk@1.32.5', { cacheDir, npm, offline: true })).rejects.toThrow(/could not be installed into .*\(offline\).*Remedy: go online once/s);
  });

  test.each([
    ['9.9.9', ['1.25.0', '1.32.1', '1.32.2', '1.33.0']],
    ['0.0.1', ['1.0.0', '1.24.3', '1.25.0', '1.32.1']],
    ['1.30.0', ['1.24.3', '1.25.0', '1.32.1', '1.32.2']],
    // npm's order: 1.32.2-beta.1 comes after 1.32.1 and before 1.32.2.
    ['1.32.2-beta.1', ['1.25.0', '1.32.1', '1.32.2', '1.33.0']],
  ])('the nearest published to %s', (requested, nearest) => {
    expect(pickNearestVersions(requested, published)).toEqual(nearest);
  });
});

describe('run checks its inputs before it starts any target', () => {
  test("a missing schema is reported before any target's worker starts", async () => {
    const dir = makeTempDir('mem-schemas-first-');
    // A classifier whose module leaves a file behind as its worker loads it.
    const started = join(dir, 'started');
    writeFileSync(join(dir, 'classifier.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(started)}, 'x');\nexport default () => ({ outcome: 'TOOL_SUCCESS', layer: 'application' });\n`);
    mkdirSync(join(dir, 'no-schemas'));
    const run = await runCli(['run', '--target', `classifier:${join(dir, 'classifier.mjs')}`, '--schemas', join(dir, 'no-schemas'), '--case', 'baseline']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no-schemas\/2025-03-26\/schema\.json: not found/);
    expect(existsSync(started)).toBe(false);
  });
});

describe('installing a client version', () => {
  test('an install into the user cache prints one line as it starts', async () => {
    // Real npm, offline, into an empty cache: the install starts (and most likely fails: nothing cached).
    vi.stubEnv('XDG_CACHE_HOME', makeTempDir('mem-xdg-'));
    vi.stubEnv('npm_config_offline', 'true');
    try {
      const run = await runCli(['run', '--target', 'ts-sdk@1.0.1', '--case', 'baseline', '--no-schemas']);
      expect(run.stderr).toMatch(/^mcp-error-matrix run: installing @modelcontextprotocol\/sdk@1\.0\.1 for --target ts-sdk@1\.0\.1 into \S+\/mcp-error-matrix\/clients\/@modelcontextprotocol\+sdk@1\.0\.1 \(once: later runs use it\)\n/);
      expect(run.stderr.match(/ installing /g)).toHaveLength(1);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
