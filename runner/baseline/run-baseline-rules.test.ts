// The baseline's part in `run`, stated one rule at a time and in-process: which baseline applies
// (--no-baseline, --baseline FILE, the bundled one for the default targets, else the file
// --write-baseline will replace), and what settling does to the judged result.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import type { LoadedCase } from '../cases/case-types.js';
import { makeCase } from '../mock-server/test-cases.js';
import type { Cell } from '../vocabulary/types.js';
import { BaselineError } from './load-baseline.js';
import { BUNDLED_BASELINE, prepareBaseline, settleBaseline, type PrepareBaselineOptions } from './run-baseline.js';

const loaded = (id: string): LoadedCase => ({ case: makeCase([{}], { id }), file: `/cases/${id}.json`, relativeFile: `${id}.json`, sha256: '0'.repeat(64) });
const failing = (caseId: string, version: Cell['protocolVersion'] = '2025-11-25'): Cell =>
  makeCell({ target: 'naive', case: caseId, status: 'fail', protocolVersion: version, expected: [{ outcome: 'INVALID_TOOL_RESULT' }] });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-run-baseline-'));
  await writeFile(join(dir, 'given.yaml'), '- { target: naive, case: a, reason: given }\n');
  await writeFile(join(dir, 'previous.yaml'), '- { target: naive, case: a, reason: written by a person }\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('prepareBaseline: which baseline applies', () => {
  const options = (overrides: Partial<PrepareBaselineOptions>): PrepareBaselineOptions => ({
    option: undefined,
    defaultTargets: false,
    writeBaseline: undefined,
    cwd: dir,
    cases: [loaded('a'), loaded('b')],
    runTargets: ['naive'],
    otherKnownTargets: ['reference', 'naive'],
    ...overrides,
  });

  it('--no-baseline applies none, even for the default targets and beside --write-baseline', async () => {
    expect(await prepareBaseline(options({ option: false, defaultTargets: true, writeBaseline: 'previous.yaml' }))).toBeUndefined();
  });

  it('--baseline FILE is read relative to the working folder, shown as given, before the bundled one or the file to write', async () => {
    const prepared = await prepareBaseline(options({ option: 'given.yaml', defaultTargets: true, writeBaseline: 'previous.yaml' }));
    expect(prepared?.path).toBe(join(dir, 'given.yaml'));
    expect(prepared?.baseline.file).toBe('given.yaml');
    expect(prepared?.baseline.entries.map((entry) => entry.reason)).toEqual(['given']);
  });

  it('the default targets get the bundled baseline, checked against the case table given', async () => {
    const error: unknown = await prepareBaseline(options({ defaultTargets: true, writeBaseline: 'previous.yaml' })).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BaselineError);
    expect((error as Error).message).toMatch(new RegExp(`^baseline ${BUNDLED_BASELINE.replace('.', '\\.')}:\\d+ \\(entry 1\\): unknown case `));
    expect(BUNDLED_BASELINE).toBe('baselines/default.yaml');
  });

  it('other targets with --write-baseline of an existing file keep its entries; of a new file, or without it, none applies', async () => {
    const prepared = await prepareBaseline(options({ writeBaseline: 'previous.yaml' }));
    expect(prepared).toMatchObject({ path: join(dir, 'previous.yaml'), baseline: { file: 'previous.yaml', entries: [{ reason: 'written by a person' }] } });
    expect(await prepareBaseline(options({ writeBaseline: 'new.yaml' }))).toBeUndefined();
    expect(await prepareBaseline(options({}))).toBeUndefined();
  });

  it('checks the entries against the targets of the run', async () => {
    await expect(prepareBaseline(options({ option: 'given.yaml', runTargets: ['reference'], otherKnownTargets: ['reference'] }))).rejects.toThrow(
      /^baseline given\.yaml:1 \(entry 1\): unknown target "naive"; targets in this run: reference$/,
    );
  });
});

describe('settleBaseline: the judged result with its baseline', () => {
  it('without a baseline nor --write-baseline, the result is returned as it is', async () => {
    const result = makeRunResult({ cells: [failing('a')] });
    const settled = await settleBaseline(result, { prepared: undefined, writeBaseline: undefined, cwd: dir });
    expect(settled.path).toBeUndefined();
    expect(settled.result).toBe(result);
  });

  it('applies the prepared baseline: listed failures become xfail, the summary is counted again, the baseline is described', async () => {
    const prepared = await prepareBaseline({ option: 'given.yaml', defaultTargets: false, writeBaseline: undefined, cwd: dir, cases: [loaded('a'), loaded('b')], runTargets: ['naive'], otherKnownTargets: [] });
    const result = makeRunResult({ cells: [failing('a'), failing('b')] });
    const settled = await settleBaseline(result, { prepared, writeBaseline: undefined, cwd: dir });
    expect(settled.path).toBe(join(dir, 'given.yaml'));
    expect(settled.result.cells.map((cell) => cell.status)).toEqual(['xfail', 'fail']);
    expect(settled.result.summary).toMatchObject({ xfail: 1, fail: 1, pass: 0 });
    expect(settled.result.baseline).toEqual({ file: 'given.yaml', sha256: prepared!.baseline.sha256, entries: 1, applied: 1, stale: 0 });
  });

  it('refuses an entry naming a check no judged cell has', async () => {
    const prepared = { path: join(dir, 'x.yaml'), baseline: { file: 'x.yaml', sha256: '0'.repeat(64), entries: [{ target: 'naive', case: 'a', check: 'outcome@9', reason: 'r', index: 1 }] } };
    await expect(settleBaseline(makeRunResult({ cells: [failing('a')] }), { prepared, writeBaseline: undefined, cwd: dir })).rejects.toThrow(/unknown check "outcome@9"/);
  });

  it('--write-baseline writes the failures (keeping the reasons of the baseline in force) and applies what it wrote', async () => {
    const prepared = await prepareBaseline({ option: undefined, defaultTargets: false, writeBaseline: 'previous.yaml', cwd: dir, cases: [loaded('a'), loaded('b')], runTargets: ['naive'], otherKnownTargets: [] });
    const cases = [loaded('a'), { ...loaded('b'), case: makeCase([{ id: 'null' }], { id: 'b' }) }];
    const result = makeRunResult({ cells: [failing('a'), failing('b')] });
    const settled = await settleBaseline(result, { prepared, writeBaseline: 'written.yaml', cwd: dir, cases });
    const text = await readFile(join(dir, 'written.yaml'), 'utf8');
    expect(text).toContain('    reason: written by a person\n');
    expect(text).toContain('    reason: "observed: reads a response with a null id as a tool result (false success)"\n');
    expect(settled.path).toBe(join(dir, 'written.yaml'));
    expect(settled.result.cells.map((cell) => cell.status)).toEqual(['xfail', 'xfail']);
    expect(settled.result.baseline).toEqual({ file: 'written.yaml', sha256: createHash('sha256').update(text).digest('hex'), entries: 2, applied: 2, stale: 0 });
  });

  it('--write-baseline without cases describes the failures from the checks alone', async () => {
    await settleBaseline(makeRunResult({ cells: [failing('b')] }), { prepared: undefined, writeBaseline: 'plain.yaml', cwd: dir });
    expect(await readFile(join(dir, 'plain.yaml'), 'utf8')).toContain('    reason: "observed: reads an invalid tool result as a tool result (false success)"\n');
  });
});

