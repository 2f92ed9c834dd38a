// Classifier modules run in a worker thread under plain Node, which cannot import TypeScript:
// tests that pass a .ts fixture as `classifier:<module>` compile it to a temporary .mjs first.
// The caller names the folder (one it removes itself): test files share their worker's modules
// (vitest.config.ts), so a hook or a folder kept here would belong to whichever file came first.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');

/** Transpiles a self-contained .ts fixture (type-only imports at most) to a .mjs file in `outDir`; returns its path. */
export function compileFixture(relativeTs: string, outDir: string): string {
  const source = readFileSync(resolve(ROOT, relativeTs), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } });
  const file = join(outDir, basename(relativeTs).replace(/\.ts$/, '.mjs'));
  writeFileSync(file, outputText);
  return file;
}
