// No product file without a test that selects it (issue 29 item 3). `vitest related <file>` runs
// the test files whose module graph holds the file; a file in no test's graph is run by no one who
// relies on it, and a bug planted there is caught only by chance. This walks each test file's graph
// exactly as `vitest related` does (vite's SSR transform of each module: its static imports and
// literal `import()`s, followed through our own files), through vitest's own projects and plugins,
// and lists the product files (runner/, reports/ sources, bin/) no test reaches. Scripts started or
// read by path are reached through test/loaded-by-path.ts. A module with no runtime code at all
// (types only: what TypeScript checks, and what no test can select) is left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { createVitest } from 'vitest/node';
import { getPackageRoot } from '../runner/util/package-paths.js';

const root = getPackageRoot();

/** runner/ and reports/ sources (.ts, .mjs, .js; not tests, not declarations) and bin/. */
function listProductFiles(): string[] {
  const visit = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === '__golden__' ? [] : visit(path);
      return /\.(ts|mjs|js)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
    });
  return [...visit('runner'), ...visit('reports'), ...visit('bin')].sort();
}

/** Whether a TypeScript module compiles to nothing (only types): no test can select it. */
function isTypesOnly(file: string): boolean {
  if (!file.endsWith('.ts')) return false;
  const { outputText } = ts.transpileModule(readFileSync(join(root, file), 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return outputText.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '').replace(/export \{\};?/g, '').trim() === '';
}

/** Every file of ours some test file's graph reaches, walked as vitest's `related` walks it. */
async function listReachedFiles(): Promise<Set<string>> {
  const vitest = await createVitest('test', { watch: false, root }, { logLevel: 'silent' });
  try {
    const reached = new Set<string>();
    const seen = new Set<string>();
    const walk = async (vite: (typeof specs)[number]['project']['vite'], file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      reached.add(relative(root, file));
      const transformed = await vite.transformRequest(file, { ssr: true });
      const deps = [...(transformed?.deps ?? []), ...(transformed?.dynamicDeps ?? [])];
      await Promise.all(
        deps
          .map((dep) => (dep.startsWith('/@fs/') ? dep.slice(4) : join(root, dep)))
          .filter((path) => !path.includes('node_modules') && path.startsWith(root) && existsSync(path))
          .map((path) => walk(vite, path)),
      );
    };
    const specs = await vitest.globTestSpecifications();
    for (const spec of specs) await walk(spec.project.vite, spec.moduleId);
    return reached;
  } finally {
    await vitest.close();
  }
}

test('every product file is selected by a test that imports it directly or through vitest related', async () => {
  const product = listProductFiles();
  expect(product.length).toBeGreaterThan(150);
  const reached = await listReachedFiles();
  const unselected = product.filter((file) => !reached.has(file) && !isTypesOnly(file));
  expect(unselected, 'product files no test selects: import them from a test, or name a script run by path with declareLoadedByPath (test/loaded-by-path.ts)').toEqual([]);
});

test('the walk sees scripts run by path only through their declarations, and types-only modules as such', () => {
  expect(isTypesOnly('runner/vocabulary/recording-types.ts')).toBe(true);
  expect(isTypesOnly('runner/vocabulary/version-features.ts')).toBe(false);
  expect(isTypesOnly('runner/targets/sdk/worker.mjs')).toBe(false);
});
