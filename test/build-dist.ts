// The tests that start the CLI as a process run the compiled dist/ with plain node
// (test/hostile/start-cli.ts), not the sources through vite-node, which compiled every module
// again in every child (measured: 3.0–3.3 s of CPU per CLI start against 1.0–1.2 s from dist/).
// ensureDist() builds dist/ (`npm run build`'s three steps) when it is missing or older than a
// source, once: test files in other workers wait on a lock folder instead of building beside it.
// Only the files that need dist/ call it, so a run of other tests never pays for a build.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
// `npm run build` writes this file last (after tsc): its time is the time of the whole build.
const LAST_OUTPUT = 'dist/runner/cases/case-validator.generated.cjs';
const SOURCE_DIRS = ['runner', 'reports'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'schemas/case.schema.json'];
const LOCK_WAIT_MS = 300_000;

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

/** Builds dist/ unless it is up to date; another worker's build is waited for, not repeated. */
export function ensureDist(root = ROOT): void {
  // Beside the system's temporary files, not in the repository: one lock per checkout.
  const lock = join(tmpdir(), `mcp-error-matrix-dist-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.lock`);
  const until = performance.now() + LOCK_WAIT_MS;
  while (isDistStale(root)) {
    if (tryLock(lock)) {
      try {
        if (isDistStale(root)) build(root);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      return;
    }
    if (performance.now() > until) throw new Error(`test/build-dist.ts: waited ${LOCK_WAIT_MS / 1000} s for another build of dist/ (lock ${lock}); remove it if no test run is going on`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

// mkdir is atomic: the one caller that creates the folder builds. A lock whose process is gone is broken.
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const pid = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : NaN);
    if (Number.isInteger(pid) && !isAlive(pid)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function build(root: string): void {
  const started = performance.now();
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync(process.execPath, [join(root, 'dist/reports/html/build-html-templates.js')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync(process.execPath, [join(root, 'dist/runner/cases/build-case-validator.js')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: unknown; stderr?: unknown };
    throw new Error(`test/build-dist.ts: \`npm run build\` failed, and the process tests need dist/:\n${`${String(stdout ?? '')}${String(stderr ?? error)}`.trim()}`);
  }
  console.warn(`test/build-dist.ts: dist/ was missing or older than the sources; built in ${Math.round(performance.now() - started)} ms`);
}
