// @ts-check
// Real clients: per-cell wall time of each built-in SDK adapter (one persistent worker per SDK)
// over the table vs the same SDK making the same single call in a fresh node process.
import { fileURLToPath } from 'node:url';
import { startMockServer } from '../../dist/runner/mock-server/server.js';
import { runMatrix } from '../../dist/runner/run/run-matrix.js';
import { listBundledSdkTargets } from '../../dist/runner/targets/sdk/resolve-sdk-package.js';
import { createSdkTarget } from '../../dist/runner/targets/sdk/sdk-target.js';
import { selectImmediateCases } from './loopback.mjs';
import { median, ratio, REPEAT, runNode } from './measure.mjs';

const ONE_CALL = fileURLToPath(new URL('./sdk-one-call.mjs', import.meta.url));

/** One figure per bundled SDK target; none when the SDK targets are not built in. */
export async function measureClients(cases, concurrency) {
  const selected = selectImmediateCases(cases);
  const baseline = cases.find((item) => item.case.id === 'baseline');
  if (!baseline) throw new Error('the baseline case is missing');
  const figures = [];
  // The SDKs only: the fresh-process reference (sdk-one-call.mjs) drives an SDK, not a client stack.
  for (const spec of listBundledSdkTargets().filter((target) => /^ts-(sdk|client)@/.test(target))) {
    const target = await createSdkTarget(spec);
    let cellMs;
    let wallPerCell;
    let cellCount;
    try {
      const started = performance.now();
      // A short per-exchange timeout: cells where the SDK itself waits (it has no end-of-stream
      // detection, say) would otherwise dominate; the median below reads the typical cell.
      // Concurrency 16 bounds the bench's time; contention only makes the per-cell figure more conservative.
      const result = await runMatrix({ cases: selected, targets: [target], mode: 'http', concurrency: Math.max(concurrency, 16), timeoutMs: 500 });
      const measured = result.cells.filter((cell) => cell.status !== 'skip');
      cellCount = measured.length;
      wallPerCell = (performance.now() - started) / cellCount;
      cellMs = median(measured.map((cell) => cell.durationMs));
    } catch (error) {
      await target.close?.();
      throw error;
    }
    const version = target.skipReason?.('2025-11-25') === undefined ? '2025-11-25' : '2026-07-28';
    // Like for like with the fresh process below: the same single call, one at a time, on the warm worker.
    const single = [];
    try {
      for (let i = 0; i < REPEAT; i++) {
        const started = performance.now();
        await runMatrix({ cases: [baseline], targets: [target], versions: [version], mode: 'http', concurrency: 1, timeoutMs: 2000 });
        single.push(performance.now() - started);
      }
    } finally {
      await target.close?.();
    }
    const singleMs = median(single);
    const fresh = [];
    for (let i = 0; i < REPEAT; i++) {
      const server = await startMockServer({ case: baseline.case, protocolVersion: version });
      try {
        const tool = baseline.case.tool?.name ?? 'synthetic_tool';
        fresh.push((await runNode([ONE_CALL, target.resolved.flavor, target.resolved.dir, server.url, tool, version])).ms);
      } finally {
        await server.close();
      }
    }
    const reference = median(fresh);
    figures.push({
      id: `clients.${spec}`,
      title: `${spec}: one call, persistent worker (ms)`,
      // The same single call as the reference, one at a time, including the cell's mock server.
      measured: singleMs,
      reference,
      referenceLabel: `same SDK, one call in a fresh node process (${version})`,
      // How many times cheaper a cell is than a process per call.
      ratio: ratio(reference, singleMs),
      ratioMeaning: 'reference ÷ measured (times cheaper)',
      target: 10,
      targetKind: 'min',
      unit: 'ms',
      notes: `the baseline call ${REPEAT}× in sequence on the warm worker; over the table (${selected.length} immediate cases, concurrency ${Math.max(concurrency, 16)}, timeout 500 ms) the worker costs ${wallPerCell.toFixed(1)} ms of wall per cell (${cellCount} cells; median cell duration under that load ${cellMs.toFixed(0)} ms)`,
      samples: { reference: fresh },
    });
  }
  return figures;
}
