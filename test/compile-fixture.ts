// Classifier modules run in a worker thread under plain Node, which cannot import TypeScript:
// tests that pass a .ts fixture as `classifier:<module>` compile it to a temporary .mjs first.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
let outDir: string | undefined;
afterAll(() => outDir && rmSync(outDir, { recursive: true, force: true }));

/** Transpiles a self-contained .ts fixture (type-only imports at most) to a .mjs file; returns its path. */
export function compileFixture(relativeTs: string): string {
  outDir ??= mkdtempSync(join(tmpdir(), 'mem-fixture-'));
  const source = readFileSync(resolve(ROOT, relativeTs), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } });
  const file = join(outDir, basename(relativeTs).replace(/\.ts$/, '.mjs'));
  writeFileSync(file, outputText);
  return file;
}
