// The real CLI as a child process, compiled (dist/, built by test/build-dist.ts when stale) and run with plain node
// (test/fixtures/hostile/cli-entry.mjs), for the tests that signal it, inject faults into it or count
// what it leaves behind.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packagePath } from '../../runner/util/package-paths.js';
import { ensureDist } from '../build-dist.js';
import { declareLoadedByPath } from '../loaded-by-path.js';

// The CLI's process entry: the tests run it compiled (dist/runner/cli/cli-process.js, built from this source).
declareLoadedByPath(() => import('../../runner/cli/cli-process.js' as string));

const ROOT = resolve(import.meta.dirname, '../..');
// Built when missing or older than the sources, before any test of the importing file starts the CLI.
ensureDist();

/** The CLI's entry for process tests: bin/mcp-error-matrix.js plus a signal-readiness seam. */
export const CLI_ENTRY = resolve(ROOT, 'test/fixtures/hostile/cli-entry.mjs');

export interface StartedCli {
  /** Settles once the process ended and its stdout and stderr were read to the end. */
  exit: Promise<{ code: number | null; signal: string | null; at: number }>;
  kill(signal: NodeJS.Signals): void;
  /** Signals the CLI's whole process group (started with `group`). */
  killGroup(signal: NodeJS.Signals): void;
  pid: number;
  stdout(): string;
  stderr(): string;
}

/**
 * Starts `mcp-error-matrix <args>` with CI=true and `env` added; stdin stays open (for `validate -`).
 * With `group`, the CLI leads a process group of its own (as `setsid` makes it), so `killGroup`
 * signals it and everything in its group at once, as Ctrl-C, `timeout` or a CI cancel do.
 */
export function startCli(args: string[], env: Record<string, string>, options: { group?: boolean } = {}): StartedCli {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], { cwd: ROOT, env: { ...process.env, CI: 'true', ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: options.group ?? false });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    // 'close', not 'exit': Node may emit 'exit' before the last bytes on the child's pipes are read
    // (its documentation says the stdio streams might still be open), and a full-suite run read an
    // empty stderr once after the CLI had written its stop line and exited 143.
    exit: new Promise((done) => child.on('close', (code, signal) => done({ code, signal, at: performance.now() }))),
    kill: (signal) => child.kill(signal),
    killGroup: (signal) => process.kill(-child.pid!, signal),
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** Polls `condition` every 50 ms; throws once `maxMs` have passed. */
export async function waitFor(condition: () => boolean, maxMs: number): Promise<void> {
  const until = performance.now() + maxMs;
  while (!condition()) {
    if (performance.now() > until) throw new Error('timed out waiting');
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** A two-case table (baseline, tool-is-error) under `work`, so a stopped run has cells left to leave out. */
export function makeSmallCaseTable(work: string): string {
  const cases = join(work, 'cases');
  mkdirSync(join(cases, 'application'), { recursive: true });
  for (const file of ['application/baseline.json', 'application/tool-is-error.json']) cpSync(packagePath('cases', file), join(cases, file));
  return cases;
}
