// The list of bundled case files the build validated applies only while the checks that produced
// it are unchanged: an edited rule module or case schema makes it stale, and everything is validated.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CHECKED_CASES_FILE, getCheckedBundledCases, getChecksFingerprint, writeCheckedBundledCases } from './checked-cases.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder standing for dist/runner/cases: the compiled check modules, as plain text. */
function makeCompiledDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-checked-cases-'));
  dirs.push(dir);
  for (const name of ['load-cases.js', 'case-rules.js', 'find-deep-nesting.js', 'case-guard.js', 'case-validator.generated.cjs']) writeFileSync(join(dir, name), `// ${name}\n`);
  return dir;
}

it('is read back while the checks are unchanged', () => {
  const dir = makeCompiledDir();
  writeCheckedBundledCases([{ relativeFile: 'protocol/a.json', sha256: 'ab'.repeat(32) }], dir);
  expect(getCheckedBundledCases(dir)).toEqual(new Map([['protocol/a.json', 'ab'.repeat(32)]]));
});

it('is stale once a check module changes: nothing is taken as validated', () => {
  const dir = makeCompiledDir();
  writeCheckedBundledCases([{ relativeFile: 'protocol/a.json', sha256: 'ab'.repeat(32) }], dir);
  writeFileSync(join(dir, 'case-rules.js'), '// a new rule\n');
  expect(getCheckedBundledCases(dir)).toBeNull();
});

it('is never used from the sources (vitest): the compiled modules are absent, so every file is validated', () => {
  expect(getChecksFingerprint()).toBeUndefined();
  expect(getCheckedBundledCases()).toBeNull();
});

it('refuses to write a list without the compiled checks, and ignores a list that is not JSON', () => {
  const empty = mkdtempSync(join(tmpdir(), 'mem-checked-cases-'));
  dirs.push(empty);
  expect(() => writeCheckedBundledCases([], empty)).toThrow(/compiled case checks are missing/);
  const dir = makeCompiledDir();
  writeFileSync(join(dir, CHECKED_CASES_FILE), '{not json');
  expect(getCheckedBundledCases(dir)).toBeNull();
});
