import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packagePath } from '../runner/package-paths.js';
import { runCli } from './run-cli.js';

function brokenTable(mutate: (baseline: Record<string, unknown>) => unknown): string {
  const root = mkdtempSync(join(tmpdir(), 'mem-broken-'));
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
    ['an unknown flag', () => ['run', '--targett', 'reference'], /run: Unknown option '--targett'/],
    ['a bad --mode', () => ['run', '--mode', 'socket'], /--mode socket: expected "http"/],
    ['a bad --version', () => ['run', '--version', '2024-01-01'], /--version 2024-01-01: expected one of 2025-11-25, 2026-07-28/],
    ['an unknown case id', () => ['run', '--case', 'baselin'], /--case baselin: no case matches \(did you mean "baseline"\?\)/],
    ['an unknown command', () => ['rn'], /unknown command "rn"/],
  ])('%s', async (_name, argv, message) => {
    const run = await runCli(argv());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });
});

describe('list', () => {
  test('prints the table with filters', async () => {
    const run = await runCli(['list', '--origin', 'article']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^id\s+layer\s+origin\s+versions\s+title$/m);
    expect(run.stdout).toMatch(/^http-503-then-200\s+transport\s+article\s+25\+26\s+HTTP 503/m);
    expect(run.stdout).toMatch(/^11 cases$/m);
  });
});
