// The same inputs give the same cells: the whole table against the reference target, direct
// and http mode, run back to back. MEM_DETERMINISM_RUNS=20 for the long check.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { loadCases } from '../../runner/cases/load-cases.js';
import { runMatrix } from '../../runner/run/run-matrix.js';
import { resolveTarget } from '../../runner/targets/resolve-target.js';
import type { Cell } from '../../runner/types.js';

const RUNS = Number(process.env.MEM_DETERMINISM_RUNS ?? 3);
const TIMING_KEYS = new Set(['at', 'endedAt', 'durationMs', 'startedAt', 'finishedAt']);

/** A cell without what legitimately varies: times, durations, the ephemeral port, session ids. */
function normalizeCell(cell: Cell): string {
  const text = JSON.stringify(cell, (key, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value));
  return text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID');
}

describe.each(['direct', 'http'] as const)('determinism, %s mode', (mode) => {
  test(`${RUNS} back-to-back runs of the whole table give identical cells`, { timeout: 60_000 * Math.max(1, RUNS / 3) }, async () => {
    const cases = await loadCases();
    const target = await resolveTarget('reference', { cwd: process.cwd() });
    const fingerprints: string[] = [];
    let first: string[] | undefined;
    for (let run = 0; run < RUNS; run++) {
      const result = await runMatrix({ cases, targets: [target], mode, timeoutMs: 1000 });
      const cells = result.cells.map(normalizeCell);
      first ??= cells;
      // Compare cell by cell, so a difference names its cell.
      const differing = cells.flatMap((cell, index) => (cell === first![index] ? [] : [`${result.cells[index]!.case}@${result.cells[index]!.protocolVersion}`]));
      expect(differing, `run ${run + 1}`).toEqual([]);
      fingerprints.push(createHash('sha256').update(cells.join('\n')).digest('hex').slice(0, 16));
    }
    expect(new Set(fingerprints).size).toBe(1);
    if (RUNS > 3) console.info(`determinism ${mode}: ${RUNS} runs, ${first?.length} cells each, fingerprint ${fingerprints[0]}`);
  });
});
