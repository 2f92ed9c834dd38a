import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkResults } from '../runner/compare/results-file.js';
import { CONSEQUENCES, ERROR_KINDS } from '../runner/vocabulary.js';
import { makeHostileRunResult, makeRunResult, makeSyntheticRunResult } from './make-run-result.js';
import { describeWithSchemas } from './describe-requiring.js';
import { runCli } from './run-cli.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function runToResults(args: string[]): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'mem-results-'));
  dirs.push(dir);
  const run = await runCli(['run', ...args, '--out', dir, '--quiet']);
  expect(run.stderr).toBe('');
  return JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
}

describe('schemas/results.schema.json', () => {
  describeWithSchemas('with schema checks', () => {
    it.each(['http', 'direct'])('accepts a real results.json written in %s mode', async (mode) => {
      const results = await runToResults(['--mode', mode, '--target', 'reference', '--target', 'naive', '--case', 'baseline', '--case', 'sse-final-result', '--case', 'malformed-json']);
      expect(checkResults(results)).toEqual([]);
    });
  });

  it('accepts a real results.json written with --no-schemas, with SDK-client cells and a skip cell', async () => {
    // One SDK stack rather than the default seven (16 s of CPU against 3 s): ts-sdk@1.25.0 gives
    // client cells and a skip cell (it does not speak 2026-07-28), the shapes the stacks add.
    const results = await runToResults(['--mode', 'direct', '--case', 'malformed-json', '--no-schemas', '--target', 'reference', '--target', 'naive', '--target', 'ts-sdk@1.25.0']);
    const cells = (results as { cells: { target: string; status: string }[] }).cells;
    expect(cells.filter((cell) => cell.target === 'ts-sdk@1.25.0').map((cell) => cell.status)).toEqual(['pass', 'pass', 'pass', 'skip']);
    expect((results as { schemas: unknown }).schemas).toBeNull();
    expect(checkResults(results)).toEqual([]);
  });

  it('accepts the report fixtures: every status, hostile content, a synthetic matrix', () => {
    expect(checkResults(makeRunResult())).toEqual([]);
    expect(checkResults(makeHostileRunResult())).toEqual([]);
    expect(checkResults(makeSyntheticRunResult({ cases: 20, targets: 3 }))).toEqual([]);
  });

  it.each([
    ['an unknown status', (r: Record<string, any>) => (r.cells[0].status = 'passed'), /status.*expected one of/],
    ['an unknown outcome', (r: Record<string, any>) => (r.cells[0].expected[0].outcome = 'OK'), /outcome/],
    ['an unknown check level', (r: Record<string, any>) => (r.cells[0].checks[0].level = 'MAY'), /level/],
    ['a missing summary', (r: Record<string, any>) => delete r.summary, /summary/],
    ['an unknown top-level field', (r: Record<string, any>) => (r.extra = 1), /unknown field "extra"/],
    ['an xfail without a reason', (r: Record<string, any>) => ((r.cells[0].status = 'xfail'), delete r.cells[0].reason), /reason/],
    ['a bad digest', (r: Record<string, any>) => (r.cases[0].sha256 = 'nope'), /sha256/],
    ['an unknown consequence', (r: Record<string, any>) => Object.assign(r.cells[0].checks[0], { passed: false, consequence: 'bad-luck' }), /consequence/],
    ['a consequence on a passed check', (r: Record<string, any>) => Object.assign(r.cells[0].checks[0], { passed: true, consequence: 'imprecise' }), /consequence|must NOT be valid|not/],
  ])('rejects %s', (_name, mutate, message) => {
    const result = structuredClone(makeRunResult()) as unknown as Record<string, any>;
    mutate(result);
    expect(checkResults(result).join('\n')).toMatch(message);
  });

  it('accepts a consequence from the vocabulary on a failed check, and names the same six', async () => {
    const result = structuredClone(makeRunResult()) as unknown as Record<string, any>;
    Object.assign(result.cells[0].checks[0], { passed: false, consequence: 'false-success' });
    expect(checkResults(result)).toEqual([]);
    const schema = JSON.parse(await readFile(new URL('../schemas/results.schema.json', import.meta.url), 'utf8')) as { $defs: { consequence: { enum: string[] } } };
    expect(schema.$defs.consequence.enum).toEqual([...CONSEQUENCES]);
  });

  it('accepts an error kind from the vocabulary on a cell, names the same kinds, and rejects another', async () => {
    const result = structuredClone(makeRunResult()) as unknown as Record<string, any>;
    Object.assign(result.cells[0], { status: 'error', reason: 'ts-sdk@0.4.0 could not start', errorKind: 'target-start' });
    expect(checkResults(result)).toEqual([]);
    result.cells[0].errorKind = 'bad-luck';
    expect(checkResults(result).join('\n')).toMatch(/errorKind/);
    const schema = JSON.parse(await readFile(new URL('../schemas/results.schema.json', import.meta.url), 'utf8')) as { $defs: { cell: { properties: { errorKind: { enum: string[] } } } } };
    expect(schema.$defs.cell.properties.errorKind.enum).toEqual([...ERROR_KINDS]);
  });
});
