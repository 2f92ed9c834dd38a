// The suite's test files share worker threads and modules (vitest.config.ts); the few that must
// not are listed in test/own-process-files.ts. This keeps that list true: every entry exists, and
// a file that mocks a module or changes what the whole process shares is listed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWN_PROCESS_FILES } from './own-process-files.js';

const ROOT = resolve(import.meta.dirname, '..');
// What a file may not do while sharing its process: mock a module for the files after it, change
// the working directory (worker threads cannot), or listen to process-wide warnings.
const PROCESS_WIDE = /\bvi\.(?:mock|doMock)\(|process\.chdir\(|process\.on\(\s*'warning'/;

function listTestFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : listTestFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

describe('the files that run in a process of their own', () => {
  it('names only test files that exist', () => {
    for (const file of OWN_PROCESS_FILES) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it('holds every test file that mocks a module, changes directory or listens to process warnings', () => {
    const files = ['runner', 'reports', 'test'].flatMap((dir) => listTestFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    const needOwnProcess = files.filter((file) => file !== 'test/own-process-files.test.ts' && PROCESS_WIDE.test(readFileSync(join(ROOT, file), 'utf8')));
    // The rule sees what it is for (a file known to mock node:fs/promises).
    expect(needOwnProcess).toContain('reports/report-folder/write-errors.test.ts');
    for (const file of needOwnProcess) expect(OWN_PROCESS_FILES, file).toContain(file);
  });
});
