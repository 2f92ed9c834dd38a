// @ts-check
// The persistent lane (`command:… #persistent`) vs one process per cell: the same client logic
// (test/fixtures/clients/lib/minimal-client.mjs) over the whole table, run once each side (a
// one-process run of the table takes minutes; the per-cell figure averages hundreds of cells).
import { runMatrix } from '../../dist/runner/run/run-matrix.js';
import { createCommandTarget } from '../../dist/runner/targets/command-target.js';
import { ratio, ROOT } from './measure.mjs';

/** One figure: seconds of wall per cell, persistent vs a process per cell, at the run's default concurrency. */
export async function measurePersistentLane(cases, concurrency) {
  const sides = {};
  for (const [side, options] of [
    ['persistent', { command: 'node test/fixtures/clients/persistent-client.mjs', persistent: 1 }],
    ['process', { command: 'node test/fixtures/clients/correct-client.mjs' }],
  ]) {
    const target = createCommandTarget({ name: side, cwd: ROOT, ...options });
    const started = performance.now();
    try {
      const result = await runMatrix({ cases, targets: [target], mode: 'http', concurrency });
      const measured = result.cells.filter((cell) => cell.status !== 'skip');
      const wrong = measured.filter((cell) => cell.status !== 'pass').length;
      sides[side] = { cells: measured.length, wrong, secondsPerCell: (performance.now() - started) / 1000 / measured.length };
    } finally {
      await target.close?.();
    }
  }
  const { persistent, process } = sides;
  return [
    {
      id: 'clients.persistent-lane',
      title: 'command client over the whole table: persistent lane (s per cell)',
      measured: persistent.secondsPerCell,
      reference: process.secondsPerCell,
      referenceLabel: 'same client logic, one process per cell',
      ratio: ratio(process.secondsPerCell, persistent.secondsPerCell),
      ratioMeaning: 'reference ÷ measured (times fewer seconds per cell)',
      target: 10,
      targetKind: 'min',
      unit: 's',
      notes: `${persistent.cells} cells each side at concurrency ${concurrency}, one run each; cells not passing: persistent ${persistent.wrong}, one process per cell ${process.wrong} (timeouts under load count as the client's)`,
    },
  ];
}
