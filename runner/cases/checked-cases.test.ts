// The list of bundled case files the build validated applies only while the checks that produced
// it are unchanged: an edited rule module or case schema makes it stale, and everything is validated.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CHECKED_CASES_FILE, getCheckedBundledCases, getChecksFingerprint, getFileIdentity, takeCheckedText, writeCheckedBundledCases } from './checked-cases.js';

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
  expect(getCheckedBundledCases(dir)).toEqual(new Map([['protocol/a.json', { sha256: 'ab'.repeat(32) }]]));
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

it('carries the text of a file read unchanged, and hands it out only while the file keeps its identity and the text its SHA-256', () => {
  const dir = makeCompiledDir();
  const file = join(dir, 'a.json');
  writeFileSync(file, '\uFEFF{"id":"a"}\n');
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  const cases = [{ relativeFile: 'protocol/a.json', sha256, file }, { relativeFile: 'protocol/b.json', sha256: 'cd'.repeat(32), file: join(dir, 'absent.json') }];
  // Just written: a change in the same tick of the file system's clock could keep its identity, so no text by default.
  writeCheckedBundledCases(cases, dir);
  expect(getCheckedBundledCases(dir)!.get('protocol/a.json')).toEqual({ sha256 });
  writeCheckedBundledCases(cases, dir, 0);
  const list = getCheckedBundledCases(dir)!;
  const entry = list.get('protocol/a.json')!;
  expect(entry).toEqual({ sha256, identity: getFileIdentity(statSync(file)), text: '\uFEFF{"id":"a"}\n' });
  expect(list.get('protocol/b.json')).toEqual({ sha256: 'cd'.repeat(32) }); // unreadable at build: no text
  expect(takeCheckedText(entry, file)).toBe('\uFEFF{"id":"a"}\n');
  // A text that does not have the validated SHA-256 (a damaged list) is never handed out.
  expect(takeCheckedText({ ...entry, text: '{"id":"b"}\n' }, file)).toBeUndefined();
  // Replaced by a file of the same size with the modification time set back by hand: another inode, so it is read again.
  const original = statSync(file);
  writeFileSync(`${file}.new`, '\uFEFF{"id":"b"}\n');
  utimesSync(`${file}.new`, original.atime, original.mtime);
  renameSync(`${file}.new`, file);
  expect(Math.round(statSync(file).mtimeMs / 1000)).toBe(Math.round(original.mtimeMs / 1000));
  expect(getFileIdentity(statSync(file))).not.toBe(entry.identity);
  expect(takeCheckedText(entry, file)).toBeUndefined();
  expect(takeCheckedText(entry, join(dir, 'gone.json'))).toBeUndefined();
});

it('records no text for a file whose bytes are not the validated ones', () => {
  const dir = makeCompiledDir();
  const file = join(dir, 'a.json');
  writeFileSync(file, '{"id":"a"}\n');
  writeCheckedBundledCases([{ relativeFile: 'protocol/a.json', sha256: 'ab'.repeat(32), file }], dir, 0);
  expect(getCheckedBundledCases(dir)!.get('protocol/a.json')).toEqual({ sha256: 'ab'.repeat(32) });
});

it('ignores a text entry that is not two strings (the file is read instead)', () => {
  const dir = makeCompiledDir();
  writeCheckedBundledCases([{ relativeFile: 'protocol/a.json', sha256: 'ab'.repeat(32) }], dir);
  const file = join(dir, CHECKED_CASES_FILE);
  const list = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...list, texts: { 'protocol/a.json': { identity: 1, text: 5 } } }));
  const entry = getCheckedBundledCases(dir)!.get('protocol/a.json');
  expect(entry).toEqual({ sha256: 'ab'.repeat(32) });
  expect(takeCheckedText(entry, file)).toBeUndefined();
});
