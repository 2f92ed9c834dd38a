// Temporary folders for one test file, removed once the file is done.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Returns a maker of temporary folders (`prefix` + random) that are removed after the file's
 * tests. Call it at the top level of a test file (or of its describe): the hook then belongs to
 * that file, not to whichever file imported this module first (test files share modules).
 */
export function useTempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
