// Every glob of the mutation scopes names files that exist: after the layout of issue 31 moved
// reports/ into folders, the `compare` scope still mutated `reports/trend-*.ts` and the `formats`
// scope ran `reports/tap*.test.ts` — no file, so those parts of the scope were silently not measured.
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { SCOPE_TESTS } from '../vitest.mutate.config.js';

const ROOT = new URL('..', import.meta.url).pathname;
// Plain ESM without types, read as Stryker reads it.
const { SCOPES } = (await import(new URL('../stryker.config.mjs', import.meta.url).href)) as { SCOPES: Record<string, string[]> };

async function emptyGlobs(globs: Record<string, readonly string[]>): Promise<string[]> {
  const empty: string[] = [];
  for (const [scope, patterns] of Object.entries(globs)) {
    for (const pattern of patterns) if ((await glob([pattern], { cwd: ROOT, ignore: ['node_modules/**', 'dist/**'] })).length === 0) empty.push(`${scope}: ${pattern}`);
  }
  return empty;
}

describe('the mutation scopes (stryker.config.mjs, vitest.mutate.config.ts)', () => {
  it('mutate only files that exist: every glob matches a file', async () => {
    expect(await emptyGlobs(SCOPES)).toEqual([]);
  });

  it("run only tests that exist: every scope's test glob matches a test file", async () => {
    expect(await emptyGlobs(SCOPE_TESTS)).toEqual([]);
  });

  it('give every scope its tests', () => {
    expect(Object.keys(SCOPES).filter((scope) => !(scope in SCOPE_TESTS))).toEqual([]);
  });
});
