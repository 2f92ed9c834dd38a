import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDist, findNewestSourceTime, isDistStale } from './build-dist.js';

const root = mkdtempSync(join(tmpdir(), 'mem-build-dist-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeAt(path: string, seconds: number): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), 'x');
  utimesSync(join(root, path), seconds, seconds);
}

describe('dist/ is rebuilt for the process tests only when a source is newer', () => {
  it('is stale when missing or older than a runner/, reports/ or config source; test files do not count', () => {
    writeAt('runner/a.ts', 1000);
    writeAt('reports/deep/b.ts', 2000);
    writeAt('runner/a.test.ts', 9000);
    writeAt('package.json', 1500);
    expect(findNewestSourceTime(root)).toBe(2_000_000);
    expect(isDistStale(root)).toBe(true);
    writeAt('dist/runner/cases/case-validator.generated.cjs', 3000);
    expect(isDistStale(root)).toBe(false);
    writeAt('tsconfig.build.json', 4000);
    expect(isDistStale(root)).toBe(true);
  });

  it('does nothing when dist/ is up to date', () => {
    writeAt('dist/runner/cases/case-validator.generated.cjs', 5000);
    expect(() => ensureDist(root)).not.toThrow();
  });
});
