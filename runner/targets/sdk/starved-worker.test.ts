// Confirm before judging, end to end with a real SDK worker whose event loop is blocked on purpose
// (worker.mjs's blockForTestMs hook: Atomics.wait, what an overloaded machine does to it). The block
// is a certainty, not a race: 3 s against a threshold of 2 s (a quarter of an 8 s timeout), while
// a run that is not blocked would need a 2 s stall of its own to be starved. The case answers at
// once with a reset, so the client's NO_RESPONSE is an outcome of the kind a deadline produces
// (judge-starvation.ts isDeadlineBound), and no cell waits out the 8 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../reports/formats/index.js';
import { renderReports } from '../../../reports/index.js';
import { createProgress } from '../../commands/progress.js';
import type { LoadedCase } from '../../cases/case-types.js';
import { loadCases } from '../../cases/load-cases.js';
import { describeUnconfirmedCells } from '../../run/describe-reruns.js';
import { runMatrix } from '../../run/run-matrix.js';
import type { Cell, Target } from '../../vocabulary/types.js';
import { createSdkTarget } from './sdk-target.js';

const TIMEOUT_MS = 8000;
const BLOCK_MS = 3000;

let sdk: Awaited<ReturnType<typeof createSdkTarget>>;
let reset: LoadedCase;
beforeAll(async () => {
  sdk = await createSdkTarget('ts-sdk@1.32.2', { versions: ['2025-11-25'] });
  reset = (await loadCases()).find((loaded) => loaded.case.id === 'no-response-reset')!;
});
afterAll(() => sdk?.close?.());

/** The SDK target, its worker blocked during the cells of the runs `blocked(run)` picks (1 = the main pass). */
function blockingTarget(blocked: (run: number) => boolean): Target {
  let runs = 0;
  return {
    ...sdk,
    run: (context) => {
      if (blocked(++runs)) sdk.worker.blockNextCellForTest(BLOCK_MS);
      return sdk.run(context);
    },
  };
}

async function runReset(target: Target) {
  const firsts: Cell[] = [];
  const result = await runMatrix({ cases: [reset], targets: [target], versions: ['2025-11-25'], timeoutMs: TIMEOUT_MS, concurrency: 1, onRerun: (_cell, first) => firsts.push(first) });
  expect(result.cells).toHaveLength(1);
  return { result, cell: result.cells[0]!, first: firsts[0] };
}

describe('a deadline-produced outcome of a starved SDK worker', () => {
  it('is run again after the main pass, and the run that was measured counts', async () => {
    const { result, cell, first } = await runReset(blockingTarget((run) => run === 1));
    expect(first).toMatchObject({ status: 'error', errorKind: 'starved', actual: [{ outcome: 'NO_RESPONSE' }] });
    expect(first!.reason).toMatch(/^not measured: a deadline produced the outcome while the SDK worker: (waited [\d,]+ ms for a CPU and )?its event loop stood still [\d,]+ ms \(the longest stall [\d,]+ ms\)/);
    const worker = first!.timing!.processes.find((process) => process.process === 'worker')!;
    expect(worker.longestStallMs).toBeGreaterThanOrEqual(BLOCK_MS - 100);
    expect(worker.starved).toBe(true);
    expect(cell.status).toBe('pass');
    expect(cell.errorKind).toBeUndefined();
    expect(cell.actual).toMatchObject([{ outcome: 'NO_RESPONSE' }]);
    expect(cell.timing).toMatchObject({ deadlineBound: true, rerun: { reason: 'starved', runs: 2, confirmed: true } });
    expect(result.reruns).toEqual({ cells: 1, confirmed: 1, byReason: { starved: 1 } });
  });

  it('stays error when every run is starved, naming the process, by how much, and the remedy, in every report', async () => {
    const { result, cell } = await runReset(blockingTarget(() => true));
    expect(cell).toMatchObject({ status: 'error', errorKind: 'starved', timing: { rerun: { reason: 'starved', runs: 4, confirmed: false } } });
    // The verdict of the last run stays as evidence, never judged.
    expect(cell.actual).toMatchObject([{ outcome: 'NO_RESPONSE' }]);
    expect(cell.checks).toEqual([]);
    expect(result.reruns).toEqual({ cells: 1, confirmed: 0, byReason: { starved: 1 } });
    const [line, ...more] = describeUnconfirmedCells(result.cells);
    expect(more).toEqual([]);
    expect(line).toMatch(
      /^mcp-error-matrix: not measured, even run again 3 times: no-response-reset · ts-sdk@1\.32\.2 · 2025-11-25: .*the SDK worker: .*its event loop stood still [\d,]+ ms \(the longest stall [\d,]+ ms\).* \(the machine's load\); run again on a less loaded machine, or with a lower --concurrency \(e\.g\. --concurrency 2\) or a higher --timeout$/,
    );
    // The summary line on stderr, the TAP comment, summary.md and the HTML header.
    const stderr: string[] = [];
    createProgress({ stderr: (text: string) => stderr.push(text), isTTY: false, env: {} } as never, { quiet: false }).done(result);
    const summary = '1 cell was run again after the main pass, alone or a few at a time (1: a process was starved during a deadline): 0 confirmed, 1 still not measured';
    expect(stderr.join('')).toContain(`${summary}\n`);
    const reports = new Map(renderReports(result).map((report) => [report.name, report.content]));
    expect(reports.get('results.tap')).toContain(`# ${summary}\n`);
    expect(renderMarkdown(result)).toContain(`> **Load:** ${summary}.`);
    expect(reports.get('matrix.html')).toContain(`<p class="banner">${summary}</p>`);
    expect((JSON.parse(reports.get('results.json')!) as { reruns: unknown }).reruns).toEqual(result.reruns);
  });

  it('stands when no process was starved: it is not run again', async () => {
    const { result, cell } = await runReset(blockingTarget(() => false));
    expect(cell.status).toBe('pass');
    expect(cell.timing!.deadlineBound).toBe(true);
    expect(cell.timing!.rerun).toBeUndefined();
    expect(cell.timing!.processes.map((process) => process.process)).toEqual(['runner', 'worker']);
    expect(result.reruns).toBeUndefined();
  });
});
