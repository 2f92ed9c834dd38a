// More than 10 cells in flight at once must not pile listeners onto the run's one abort signal
// (Node warns "MaxListenersExceededWarning … 11 abort listeners" at the 11th).
import { mkdtempSync, rmSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadCases } from '../cases/load-cases.js';
import { createCommandTarget } from '../targets/command-target.js';
import { runMatrix } from './run-matrix.js';

const CELLS = 12;
const barrier = mkdtempSync(join(tmpdir(), 'mem-barrier-'));
afterAll(() => rmSync(barrier, { recursive: true, force: true }));

it(`runs ${CELLS} command cells at once without adding a listener per cell to the run's abort signal`, { timeout: 60_000 }, async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  const controller = new AbortController();
  let peakListeners = 0;
  // Each client waits until all of them are running, so every cell is in flight at the same time.
  const command = `touch "${barrier}/$$"; while [ "$(ls "${barrier}" | wc -l)" -lt ${CELLS} ]; do sleep 0.05; done; ls "${barrier}" >/dev/null`;
  const targets = Array.from({ length: CELLS }, (_, index) => createCommandTarget({ name: `barrier-${index}`, command, timeoutMs: 30_000 }));
  const cases = (await loadCases()).filter((loaded) => loaded.case.id === 'baseline');
  const sampler = setInterval(() => (peakListeners = Math.max(peakListeners, getEventListeners(controller.signal, 'abort').length)), 5);
  try {
    const result = await runMatrix({ cases, targets, versions: ['2026-07-28'], timeoutMs: 20_000, concurrency: CELLS, signal: controller.signal });
    expect(result.cells).toHaveLength(CELLS);
    expect(result.cells.every((cell) => cell.targetRun?.timedOut === false)).toBe(true);
  } finally {
    clearInterval(sampler);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
  }
  expect(warnings.filter((text) => text.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  expect(peakListeners).toBeLessThanOrEqual(1);
});
