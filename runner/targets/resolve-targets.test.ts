// Resolving several targets at once (a version range becomes many): every spec is tried, and one
// error names each that failed; the ones that did resolve are closed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerError, TargetSpecError } from '../util/errors.js';
import { resolveTargets } from './resolve-target.js';

describe('resolveTargets', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'mem-resolve-'));
    writeFileSync(join(cwd, 'ok.mjs'), 'export default () => ({ outcome: "TOOL_SUCCESS", layer: "application" });\n');
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('keeps the order given, whatever finishes first', async () => {
    const targets = await resolveTargets(['naive', 'reference', 'classifier:./ok.mjs'], { cwd, concurrency: 3 });
    expect(targets.map((t) => t.info.name)).toEqual(['naive', 'reference', 'classifier:./ok.mjs']);
    await Promise.all(targets.map((t) => t.close?.()));
  });

  it('one failure is thrown as it is', async () => {
    await expect(resolveTargets(['reference', 'no-such-target'], { cwd, concurrency: 2 })).rejects.toBeInstanceOf(TargetSpecError);
  });

  it('several failures make one error naming each, in the order given', async () => {
    const error = await resolveTargets(['classifier:./missing-a.mjs', 'reference', 'classifier:./missing-b.mjs'], { cwd, concurrency: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunnerError);
    expect((error as RunnerError).code).toBe('MEM_TARGET');
    expect((error as Error).message).toMatch(/^2 targets could not be resolved:\n {2}- --target classifier:\.\/missing-a\.mjs: .*\n {2}- --target classifier:\.\/missing-b\.mjs: /s);
  });
});
