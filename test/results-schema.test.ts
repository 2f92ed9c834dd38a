import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkResults } from '../runner/compare/results-file.js';
import { CONSEQUENCES, ERROR_KINDS, RERUN_REASONS, TIMED_PROCESSES } from '../runner/vocabulary/vocabulary.js';
import { makeHostileRunResult, makeRunResult, makeSyntheticRunResult } from './make-run-result.js';
import { describeWithSchemas } from './describe-requiring.js';
import { renderIndex } from '../reports/formats/index.js';
import { readFullResults } from './read-results.js';
import { runCli } from './run-cli.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A run's results.json (results@2, the index) and results.full.json.gz (results@1, the whole model). */
async function runToResults(args: string[]): Promise<{ index: unknown; full: unknown }> {
  const dir = await mkdtemp(join(tmpdir(), 'mem-results-'));
  dirs.push(dir);
  const run = await runCli(['run', ...args, '--out', dir, '--quiet']);
  expect(run.stderr).toBe('');
  return { index: JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')), full: readFullResults(dir) };
}

describe('schemas/results.schema.json and results-v2.schema.json', () => {
  describeWithSchemas('with schema checks', () => {
    it.each(['http', 'direct'])('accepts a real results.json and its results.full.json.gz written in %s mode', async (mode) => {
      const { index, full } = await runToResults(['--mode', mode, '--target', 'reference', '--target', 'naive', '--case', 'baseline', '--case', 'sse-final-result', '--case', 'malformed-json']);
      expect(checkResults(index, 'results.json', true)).toEqual([]);
      expect(checkResults(full)).toEqual([]);
    });
  });

  it('accepts a real results.json written with --no-schemas, with SDK-client cells and a skip cell', async () => {
    // One SDK stack rather than the default seven (16 s of CPU against 3 s): ts-sdk@1.25.0 gives
    // client cells and a skip cell (it does not speak 2026-07-28), the shapes the stacks add.
    const { index, full } = await runToResults(['--mode', 'direct', '--case', 'malformed-json', '--no-schemas', '--target', 'reference', '--target', 'naive', '--target', 'ts-sdk@1.25.0']);
    for (const results of [index, full]) {
      const cells = (results as { cells: { target: string; status: string }[] }).cells;
      expect(cells.filter((cell) => cell.target === 'ts-sdk@1.25.0').map((cell) => cell.status)).toEqual(['pass', 'pass', 'pass', 'skip']);
      expect((results as { schemas: unknown }).schemas).toBeNull();
    }
    expect(checkResults(index, 'results.json', true)).toEqual([]);
    expect(checkResults(full)).toEqual([]);
  });

  it('refuses a results@2 index with a passed check, another evidence file, or a cell field of the whole model', () => {
    const index = () => JSON.parse(renderIndex(makeRunResult())) as Record<string, any>;
    expect(checkResults(index(), 'results.json', true)).toEqual([]);
    const failing = index();
    expect(failing.cells.some((cell: { checks: unknown[] }) => cell.checks.length > 0)).toBe(true);
    for (const mutate of [
      (r: Record<string, any>) => r.cells.find((cell: { checks: unknown[] }) => cell.checks.length > 0).checks[0].passed = true,
      (r: Record<string, any>) => (r.evidence.file = '../../etc/passwd'),
      (r: Record<string, any>) => (r.cells[0].recording = { url: 'x', exchanges: [] }),
      (r: Record<string, any>) => (r.format = 'mcp-error-matrix/results@1'),
    ]) {
      const value = index();
      mutate(value);
      expect(checkResults(value, 'results.json', true)).not.toEqual([]);
    }
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
    ['an error kind on a cell that is not error', (r: Record<string, any>) => (r.cells[0].errorKind = 'adapter-gap'), /status|const/],
    ['an unknown error kind', (r: Record<string, any>) => Object.assign(r.cells[0], { status: 'error', reason: 'x', errorKind: 'bad-luck' }), /errorKind/],
    ['an observation without its tools/call count', (r: Record<string, any>) => (r.cells[0].observed = { calls: [] }), /toolCallsSent/],
    ['a thrown record without a message', (r: Record<string, any>) => (r.cells[0].observed = { calls: [{ threw: { class: 'Error', name: 'Error' } }], toolCallsSent: 1 }), /message|oneOf/],
    ['a call that both returned and threw', (r: Record<string, any>) => (r.cells[0].observed = { calls: [{ returned: 1, threw: { class: 'E', name: 'E', message: '' } }], toolCallsSent: 1 }), /oneOf|additional|unknown/],
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
  it('accepts an error cell of kind adapter-gap with what the library did, and names the same error kinds', async () => {
    const result = structuredClone(makeRunResult()) as unknown as Record<string, any>;
    Object.assign(result.cells[0], {
      status: 'error',
      reason: 'adapter gap (not measured: the adapter cannot read what the library did): call 1: ai-sdk has no mapping for a thrown MCPClientError: odd',
      errorKind: 'adapter-gap',
      observed: { calls: [{ threw: { class: 'MCPClientError', name: 'MCPClientError', message: 'odd', instanceOf: ['MCPClientError'], cause: { class: 'TypeError', name: 'TypeError', message: 'fetch failed' } } }, { returned: [1, 2] }, { hung: { afterMs: 8000 } }], toolCallsSent: 2 },
    });
    expect(checkResults(result)).toEqual([]);
    const schema = JSON.parse(await readFile(new URL('../schemas/results.schema.json', import.meta.url), 'utf8')) as { $defs: { cell: { properties: { errorKind: { enum: string[] } } } } };
    expect(schema.$defs.cell.properties.errorKind.enum).toEqual([...ERROR_KINDS]);
  });

  it("accepts a cell's starvation, its re-run and error kind, and the run's re-runs and concurrency, with the vocabulary's words", async () => {
    const result = structuredClone(makeRunResult()) as unknown as Record<string, any>;
    Object.assign(result.cells[0], {
      status: 'error',
      reason: 'not measured: …',
      errorKind: 'starved',
      timing: { deadlineBound: true, processes: [{ process: 'runner', windowMs: 3000, cpuWaitMs: 2000, stalledMs: 900, longestStallMs: 600, starved: true }, { process: 'client', windowMs: 2900 }], rerun: { reason: 'starved', runs: 3, confirmed: false } },
    });
    Object.assign(result, { reruns: { cells: 1, confirmed: 0, byReason: { starved: 1 } }, concurrency: { start: 24, lowest: 3, backoffs: 3, pinned: false } });
    expect(checkResults(result)).toEqual([]);
    result.cells[0].timing.rerun.reason = 'bad luck';
    expect(checkResults(result).join('\n')).toMatch(/reason/);
    const schema = JSON.parse(await readFile(new URL('../schemas/results.schema.json', import.meta.url), 'utf8')) as { $defs: Record<string, any> };
    expect(schema.$defs.cell.properties.errorKind.enum).toEqual([...ERROR_KINDS]);
    expect(schema.$defs.rerunReason.enum).toEqual([...RERUN_REASONS]);
    expect(schema.$defs.processStarvation.properties.process.enum).toEqual([...TIMED_PROCESSES]);
  });
});
