// More than 10 cells in flight at once must not pile listeners onto the run's one abort signal
// (Node warns "MaxListenersExceededWarning … 11 abort listeners" at the 11th).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, watch, writeSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadCases } from '../cases/load-cases.js';
import { createCommandTarget } from '../targets/command-target.js';
import type { RunResult } from '../vocabulary/types.js';
import { runMatrix } from './run-matrix.js';

const CELLS = 12;
const barrier = mkdtempSync(join(tmpdir(), 'mem-barrier-'));
afterAll(() => rmSync(barrier, { recursive: true, force: true }));

/** Resolves once `count` entries are in `dir`: on the directory's change events, never by polling. */
function waitForEntries(dir: string, count: number): { entered: Promise<void>; stop: () => void } {
  let stop = (): void => undefined;
  const entered = new Promise<void>((resolve) => {
    const watcher = watch(dir, () => check());
    const check = (): void => {
      if (readdirSync(dir).length < count) return;
      watcher.close();
      resolve();
    };
    stop = () => watcher.close();
    check();
  });
  return { entered, stop };
}

it(`runs ${CELLS} command cells at once without adding a listener per cell to the run's abort signal`, { timeout: 120_000 }, async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  const controller = new AbortController();
  let peakListeners = 0;
  // Each client says it runs (a file named for its pid) and then blocks on reading a line from a
  // FIFO, which this test writes only once all of them are running: every cell is in flight at the
  // same time, and no client polls (a shell loop of ls, wc and sleep per client cost forks, not waits).
  const running = join(barrier, 'running');
  const release = join(barrier, 'release');
  mkdirSync(running);
  execFileSync('mkfifo', [release]);
  const command = `touch "${running}/$$"; read line < "${release}"`;
  const targets = Array.from({ length: CELLS }, (_, index) => createCommandTarget({ name: `barrier-${index}`, command, timeoutMs: 30_000 }));
  const cases = (await loadCases()).filter((loaded) => loaded.case.id === 'baseline');
  const allRunning = waitForEntries(running, CELLS);
  const sampler = setInterval(() => (peakListeners = Math.max(peakListeners, getEventListeners(controller.signal, 'abort').length)), 5);
  let result: RunResult;
  try {
    const run = runMatrix({ cases, targets, versions: ['2026-07-28'], timeoutMs: 20_000, concurrency: CELLS, signal: controller.signal });
    // A run that ends first (its clients failed) is judged below; the release is then harmless.
    await Promise.race([allRunning.entered, run]);
    // Opened for reading and writing, so the open never blocks; one line per client, each read by
    // one (sh reads a pipe a byte at a time), and kept open until the run ends, so a client that
    // opens the FIFO late still finds its line.
    const fd = openSync(release, 'r+');
    try {
      // A line for every client the run may start: on a loaded machine a starved cell runs again
      // after the main pass (confirm-cells.ts, twice at most), and its new client must find its line
      // too (with one line per first client it blocked to the cell's deadline, each time: the test
      // ran past 120 s at load 20-40).
      writeSync(fd, '\n'.repeat(CELLS * 3));
      result = await run;
    } finally {
      closeSync(fd);
    }
  } finally {
    allRunning.stop();
    clearInterval(sampler);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
  }
  // Every cell's client ran (a cell run again for lack of time starts one more).
  expect(readdirSync(running).length).toBeGreaterThanOrEqual(CELLS);
  expect(result.cells).toHaveLength(CELLS);
  expect(result.cells.every((cell) => cell.targetRun?.timedOut === false)).toBe(true);
  expect(warnings.filter((text) => text.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  expect(peakListeners).toBeLessThanOrEqual(1);
});
