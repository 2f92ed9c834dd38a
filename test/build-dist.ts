// vitest globalSetup (vitest.config.ts): the tests that start the CLI as a process run the compiled
// dist/ with plain node (test/hostile/start-cli.ts), not the sources through vite-node, which
// compiled every module again in every child (measured: 2.4–2.8 s of CPU per CLI start against
// 0.6 s from dist/). So dist/ is built here, once, when it is missing or older than a source.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
// `npm run build` writes this file last (after tsc): its time is the time of the whole build.
const LAST_OUTPUT = 'dist/runner/cases/case-validator.generated.cjs';
const SOURCE_DIRS = ['runner', 'reports'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'schemas/case.schema.json'];

/** The newest modification time among what the build reads (test files excluded). */
export function findNewestSourceTime(root: string): number {
  let newest = 0;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of SOURCE_DIRS) visit(join(root, dir));
  for (const file of SOURCE_FILES) if (existsSync(join(root, file))) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

/** Whether dist/ is missing or older than a source it is built from. */
export function isDistStale(root: string): boolean {
  const output = join(root, LAST_OUTPUT);
  return !existsSync(output) || statSync(output).mtimeMs < findNewestSourceTime(root);
}

export default function setup(): void {
  if (!isDistStale(ROOT)) return;
  const started = performance.now();
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync(process.execPath, [join(ROOT, 'dist/runner/cases/build-case-validator.js')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const output = error instanceof Error && 'stdout' in error ? `${String(error.stdout)}${String((error as { stderr?: unknown }).stderr ?? '')}` : String(error);
    throw new Error(`test/build-dist.ts: \`npm run build\` failed, and the process tests need dist/:\n${output.trim()}`);
  }
  if (!existsSync(join(ROOT, LAST_OUTPUT))) throw new Error(`test/build-dist.ts: the build did not write ${LAST_OUTPUT}`);
  console.warn(`test/build-dist.ts: dist/ was missing or older than the sources; built in ${Math.round(performance.now() - started)} ms`);
}
