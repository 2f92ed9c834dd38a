// No import circles in the shipped code: a circle makes load order decide what is defined
// (a value imported across one is `undefined` at first use) and ties modules that should not
// know each other. Walks the relative imports (type-only ones too) of runner/ and reports/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { getPackageRoot } from '../runner/util/package-paths.js';

const root = getPackageRoot();

function listSourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// `import … from './x.js'`, `export … from './x.js'`, `import './x.js'` and `import('./x.js')`.
const IMPORT_PATTERN = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function readImports(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(IMPORT_PATTERN)].map((match) => resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
}

/** Every cycle found by a depth-first walk, each as the list of files around it. */
function findImportCycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, readImports(file).filter((target) => files.includes(target))]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

test('runner/ and reports/ have no import cycles', () => {
  const files = [...listSourceFiles(join(root, 'runner')), ...listSourceFiles(join(root, 'reports'))];
  expect(files.length).toBeGreaterThan(50);
  const cycles = findImportCycles(files).map((cycle) => cycle.map((file) => relative(root, file)).join(' -> '));
  expect(cycles).toEqual([]);
});
