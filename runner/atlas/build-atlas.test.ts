// The atlas end to end, offline and in-process: a synthetic registry, in-process classifier targets
// standing for the versions of a stack (the reference classifier, the naive one as a "regression",
// one that speaks no protocol version), three bundled cases copied into a folder of the test's own.
// The first atlas measures and writes the site; a second one reuses everything; a new release or a
// changed case runs only what is new; a tampered store is refused; --since says what changed.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/temp-dirs.js';
import { verifyReport } from '../../reports/receipts/index.js';
import type { LoadedCase } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { classifyNaive } from '../classify/naive.js';
import { classifyReference } from '../classify/reference.js';
import { getPackageRoot, packagePath } from '../util/package-paths.js';
import { createClassifierTarget } from '../targets/classifier-target.js';
import type { Classifier, Target } from '../vocabulary/types.js';
import { AtlasStoreError } from './atlas-store.js';
import type { AtlasIndex } from './atlas-types.js';
import { buildAtlas, type BuildAtlasOptions } from './build-atlas.js';
import { parseStackSelectors } from './plan-atlas.js';

const tempDir = useTempDirs();
const CASE_FILES = ['application/tool-is-error.json', 'transport/http-503-empty-body.json', 'protocol/malformed-json.json'];
const FINGERPRINTS = { measuring: 'a'.repeat(64), rendering: 'b'.repeat(64) };

/** What each synthetic version is: a classifier, or a version that speaks none of the protocol versions, or one that cannot start. */
type Behaviour = Classifier | 'speaks-none' | 'cannot-start';

interface Fixture {
  dir: string;
  casesDir: string;
  published: Record<string, string[]>;
  behaviours: Record<string, Behaviour>;
  /** Every spec resolved, and every (spec, case) a target was asked to run, in order. */
  resolved: string[];
  ran: string[];
  lines: string[];
}

function makeFixture(): Fixture {
  const dir = tempDir('mem-atlas-build-');
  const casesDir = join(dir, 'cases');
  for (const file of CASE_FILES) {
    mkdirSync(join(casesDir, file.split('/')[0]!), { recursive: true });
    cpSync(packagePath('cases', file), join(casesDir, file));
  }
  return {
    dir,
    casesDir,
    published: { 'ts-sdk': ['0.9.0', '1.0.0', '1.1.0', '1.1.1', '1.2.0'], 'ts-client': ['2.0.0'] },
    behaviours: { 'ts-sdk@1.2.0': classifyNaive, 'ts-sdk@1.1.1': classifyReference, 'ts-sdk@1.1.0': classifyReference, 'ts-sdk@1.0.0': 'speaks-none', 'ts-sdk@1.3.0': classifyReference, 'ts-client@2.0.0': 'cannot-start' },
    resolved: [],
    ran: [],
    lines: [],
  };
}

function makeTarget(fixture: Fixture, spec: string): Target {
  const behaviour = fixture.behaviours[spec];
  if (behaviour === undefined || behaviour === 'cannot-start') throw new Error(`--target ${spec}: the worker exited before its hello\nworker: uncaught exception: Error: ${spec} exports no client`);
  const version = spec.slice(spec.indexOf('@') + 1);
  if (behaviour === 'speaks-none') {
    const base = createClassifierTarget({ name: spec, kind: 'client', version }, classifyReference);
    return { ...base, skipReason: (protocolVersion) => `${spec} does not speak ${protocolVersion} (it supports 2024-11-05)` };
  }
  const base = createClassifierTarget({ name: spec, kind: 'classifier', version }, behaviour);
  return {
    ...base,
    run: (context) => {
      fixture.ran.push(`${spec} ${context.case.id} ${context.protocolVersion}`);
      return base.run(context);
    },
  };
}

async function atlas(fixture: Fixture, overrides: Partial<BuildAtlasOptions> = {}) {
  const cases: LoadedCase[] = await loadCases({ sources: [fixture.casesDir], cwd: fixture.dir });
  return buildAtlas({
    out: 'site',
    shownAs: 'site',
    cwd: fixture.dir,
    home: '/nonexistent-home',
    selectors: parseStackSelectors(['ts-sdk', 'ts-client'], false),
    cases,
    timeoutMs: 2000,
    // One at a time: which versions start is then the same on every run (the schedule's own test covers more workers).
    workers: 1,
    fresh: false,
    onLine: (line) => fixture.lines.push(line),
    listPublished: async (kind) => fixture.published[kind] ?? [],
    fingerprints: FINGERPRINTS,
    matrix: {
      resolve: async (spec) => {
        fixture.resolved.push(spec);
        return makeTarget(fixture, spec);
      },
      concurrencyFor: () => 4,
      checkSchemas: null,
      checkRequest: null,
      schemaInfo: null,
    },
    schemas: { pins: null, info: null },
    receipts: async () => ({ inputs: cases.map((item) => ({ kind: 'case', path: item.file, root: 'cases' })), roots: { cases: { dir: fixture.casesDir, what: 'the test cases' } }, rootDir: getPackageRoot() }),
    toolName: 'mcp-error-matrix',
    toolVersion: '0.1.0',
    ...overrides,
  });
}

const readIndex = (fixture: Fixture): AtlasIndex => JSON.parse(readFileSync(join(fixture.dir, 'site', 'atlas.json'), 'utf8')) as AtlasIndex;
const states = (index: AtlasIndex, kind: string) => index.stacks.find((s) => s.kind === kind)!.versions.map((v) => `${v.version} ${v.state}`);

describe('buildAtlas', { timeout: 60_000 }, () => {
  it('measures each stack newest first down to the first version that speaks nothing, and writes a site that verifies', async () => {
    const fixture = makeFixture();
    const built = await atlas(fixture);
    expect(fixture.resolved.sort()).toEqual(['ts-client@2.0.0', 'ts-sdk@1.0.0', 'ts-sdk@1.1.1', 'ts-sdk@1.2.0']);
    const index = readIndex(fixture);
    expect(index).toEqual(built.index);
    expect(index.complete).toBe(true);
    expect(states(index, 'ts-sdk')).toEqual(['1.2.0 measured', '1.1.1 measured', '1.0.0 speaks-none']);
    expect(index.stacks[0]!.coverage).toEqual({ releases: 'minors', edge: '1.0.0', beyondEdge: ['0.9.0'], pending: [] });
    // A version that cannot start is shown with the library's words and ends the walk; it is never stored.
    const client = index.stacks.find((s) => s.kind === 'ts-client')!;
    expect(client.versions).toEqual([expect.objectContaining({ version: '2.0.0', state: 'not-started', reason: expect.stringContaining('ts-client@2.0.0 exports no client'), cells: [] })]);
    expect(client.versions[0]!.path).toBeUndefined();
    for (const page of ['index.html', 'cases/index.html', 'cases/tool-is-error.html', 'stacks/ts-sdk/index.html', 'stacks/ts-sdk/1.2.0/matrix.html', 'stacks/ts-sdk/1.2.0/results.json', 'stacks/ts-sdk/1.2.0/badge.json', 'stacks/ts-sdk/badge.json', 'badges.md']) {
      expect(() => readFileSync(join(fixture.dir, 'site', page)), page).not.toThrow();
    }
    expect(JSON.parse(readFileSync(join(fixture.dir, 'site', 'stacks/ts-sdk/1.2.0/badge.json'), 'utf8'))).toMatchObject({ schemaVersion: 1, label: 'MCP errors', message: expect.stringMatching(/unsafe$/) });
    // The stack page names the regression of 1.2.0 (the naive classifier) against 1.1.1.
    const stackPage = readFileSync(join(fixture.dir, 'site', 'stacks/ts-sdk/index.html'), 'utf8');
    expect(stackPage).toMatch(/<a href="1\.2\.0\/matrix\.html">1\.2\.0<\/a> <span class="muted">\(from 1\.1\.1\)<\/span><\/th><td class="change-regression">regression/);
    expect(await verifyReport(join(fixture.dir, 'site'), { roots: { cases: fixture.casesDir } })).toMatchObject({ ok: true, mismatches: [] });
  });

  it('reuses every version of an atlas made with the same tool, cases and schemas, and starts no target', async () => {
    const fixture = makeFixture();
    const first = await atlas(fixture);
    fixture.resolved.length = 0;
    fixture.ran.length = 0;
    const second = await atlas(fixture);
    // Only the version that could not start is tried again.
    expect(fixture.resolved).toEqual(['ts-client@2.0.0']);
    expect(fixture.ran).toEqual([]);
    const strip = (index: AtlasIndex) => index.stacks.map((s) => s.versions.map((v) => ({ ...v, reusedCells: 0, measuredAt: '' })));
    expect(strip(second.index)).toEqual(strip(first.index));
    expect(fixture.lines.filter((line) => line.includes('reused from the previous atlas'))).toHaveLength(3);
  });

  it('measures only the new release, and --since lists it with what it changed against the release before', async () => {
    const fixture = makeFixture();
    await atlas(fixture);
    fixture.resolved.length = 0;
    fixture.published['ts-sdk']!.push('1.3.0');
    const built = await atlas(fixture, { since: { dir: 'site', shownAs: 'site' } });
    expect(fixture.resolved).toEqual(['ts-sdk@1.3.0', 'ts-client@2.0.0']);
    expect(built.changes).toMatch(/^## MCP client error handling: what changed since the atlas of \d{4}-\d\d-\d\d\n/);
    expect(built.changes).toContain('1 new release across 1 stacks; 0 cells of releases measured before now answer otherwise.');
    // 1.3.0 (the reference classifier) fixes what 1.2.0 (the naive one) got wrong.
    expect(built.changes).toMatch(/- \*\*1\.3\.0\*\* \(new\): all pass; against 1\.2\.0: \d+ fix(es)?:\n  - ▲ fix `malformed-json` at 2025-03-26: `TOOL_SUCCESS` → `MALFORMED_JSON` \(false-success\) — Malformed JSON body on HTTP 200\n/);
    expect(readFileSync(join(fixture.dir, 'site', 'changes.md'), 'utf8')).toBe(built.changes);
  });

  it('runs again only the case whose file changed, for every version, and merges the stored cells of the rest', async () => {
    const fixture = makeFixture();
    await atlas(fixture);
    fixture.ran.length = 0;
    const file = join(fixture.casesDir, 'protocol', 'malformed-json.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "Malformed JSON body on HTTP 200"', '"title": "Malformed JSON body on an HTTP 200"'));
    const built = await atlas(fixture, { since: { dir: 'site', shownAs: 'site' } });
    expect(new Set(fixture.ran.map((entry) => entry.split(' ')[1]))).toEqual(new Set(['malformed-json']));
    expect(new Set(fixture.ran.map((entry) => entry.split(' ')[0]))).toEqual(new Set(['ts-sdk@1.2.0', 'ts-sdk@1.1.1']));
    const sdk = built.index.stacks[0]!.versions[0]!;
    expect(sdk.reusedCells).toBe(sdk.cells.filter((cell) => cell.case !== 'malformed-json').length);
    expect(sdk.cells.map((cell) => cell.case)).toEqual(expect.arrayContaining(['tool-is-error', 'http-503-empty-body', 'malformed-json']));
    expect(built.changes).toContain('Case table: changed `malformed-json` (changed cases were measured again for every release).');
    expect(await verifyReport(join(fixture.dir, 'site'), { roots: { cases: fixture.casesDir } })).toMatchObject({ ok: true, mismatches: [] });
  });

  it('refuses a store that does not match its receipts, naming the file, and leaves it as it was', async () => {
    const fixture = makeFixture();
    await atlas(fixture);
    const results = join(fixture.dir, 'site', 'stacks', 'ts-sdk', '1.2.0', 'results.json');
    const original = readFileSync(results, 'utf8');
    const tampered = original.replace(/"status": ?"fail"/, '"status":"pass"');
    expect(tampered).not.toBe(original);
    writeFileSync(results, tampered);
    fixture.resolved.length = 0;
    const refusal = await atlas(fixture).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AtlasStoreError);
    expect((refusal as Error).message).toMatch(/^site: this atlas does not match its own receipts, so nothing in it is trusted or reused .*:\n {2}- stacks\/ts-sdk\/1\.2\.0\/results\.json: expected [0-9a-f]{64}, found [0-9a-f]{64}\n/s);
    expect((refusal as Error).message).toContain('--fresh');
    expect(fixture.resolved).toEqual([]);
    expect(readFileSync(results, 'utf8')).toBe(tampered);
    // --fresh measures everything again and replaces the folder.
    await atlas(fixture, { fresh: true });
    expect(fixture.resolved).toContain('ts-sdk@1.2.0');
    expect(await verifyReport(join(fixture.dir, 'site'), { roots: { cases: fixture.casesDir } })).toMatchObject({ ok: true });
  });

  it('reuses nothing when the code that measures changed, and says why', async () => {
    const fixture = makeFixture();
    await atlas(fixture);
    fixture.resolved.length = 0;
    await atlas(fixture, { fingerprints: { ...FINGERPRINTS, measuring: 'c'.repeat(64) } });
    expect(fixture.resolved.sort()).toEqual(['ts-client@2.0.0', 'ts-sdk@1.0.0', 'ts-sdk@1.1.1', 'ts-sdk@1.2.0']);
    expect(fixture.lines).toContainEqual(expect.stringMatching(/^not reusing the previous atlas: the code that measures changed since \(fingerprint aaaaaaaaaaaa → cccccccccccc\)/));
  });

  it('draws the pages again from the stored cells when only the report code changed, running no cell', async () => {
    const fixture = makeFixture();
    await atlas(fixture);
    fixture.ran.length = 0;
    const built = await atlas(fixture, { fingerprints: { ...FINGERPRINTS, rendering: 'd'.repeat(64) } });
    expect(fixture.ran).toEqual([]);
    expect(built.index.renderFingerprint).toBe('d'.repeat(64));
    expect(built.index.stacks[0]!.versions[0]!.reusedCells).toBe(built.index.stacks[0]!.versions[0]!.cells.length);
  });

  it('writes what finished when stopped, marks the site incomplete and lists the versions not measured', async () => {
    const fixture = makeFixture();
    const stop = new AbortController();
    stop.abort('SIGINT');
    const built = await atlas(fixture, { signal: stop.signal });
    expect(built.index.complete).toBe(false);
    expect(built.index.stacks[0]!.coverage.pending).toEqual(['1.2.0', '1.1.1', '1.0.0', '0.9.0']);
    expect(readFileSync(join(fixture.dir, 'site', 'index.html'), 'utf8')).toContain('<strong>Incomplete:</strong>');
  });
});
