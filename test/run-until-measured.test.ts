// runMatrixUntilMeasured: a run whose real-client cell the stall guard declared not measured is
// run again; other errors are not, and the runs are bounded.
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../runner/cases/case-types.js';
import { sendRaw } from '../runner/mock-server/raw-http.js';
import { makeCase, SUCCESS_JSON } from '../runner/mock-server/test-cases.js';
import type { Target } from '../runner/types.js';
import { stallLoop } from './race-answer-against-deadline.js';
import { isUnmeasuredByStall, runMatrixUntilMeasured } from './run-until-measured.js';

// The server answers 200 ms after the call: a stall started 50 ms after sending falls inside it.
const loaded: LoadedCase = { case: { ...makeCase([{ delayMs: 200, body: { json: SUCCESS_JSON } }]), id: 'delayed' }, file: 'x.json', relativeFile: 'x.json', sha256: '0'.repeat(64) };
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } });

/** A command-kind target whose runs stall the loop (while the server holds the call) as `stalls` says, run by run. */
function makeTarget(stalls: (run: number) => boolean, error?: string): Target & { runs: number } {
  const target = {
    runs: 0,
    info: { name: 'stalls', kind: 'command' },
    usesServer: () => true,
    run: async ({ serverUrl }: { serverUrl?: string }) => {
      const run = ++target.runs;
      const answer = sendRaw(serverUrl!, { body: CALL, headers: { 'MCP-Protocol-Version': '2026-07-28', Accept: 'application/json, text/event-stream' } }, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Over the guard's 1 s floor (the timeout here is 400 ms).
      if (stalls(run)) stallLoop(1050);
      await answer;
      return error ? { verdicts: [], error } : { verdicts: [{ outcome: 'TOOL_SUCCESS' as const, layer: 'application' as const }] };
    },
  };
  return target;
}

const options = (target: Target) => ({ cases: [loaded], targets: [target], versions: ['2026-07-28' as const], mode: 'http' as const, timeoutMs: 400 });

describe('runMatrixUntilMeasured', () => {
  it('runs the matrix again when a stall left a cell not measured, and returns the measured run', async () => {
    const target = makeTarget((run) => run === 1);
    const result = await runMatrixUntilMeasured(options(target));
    expect(target.runs).toBe(2);
    // Judged (pass or fail on its checks: this synthetic client's wire is not a conforming one), not an error.
    expect(result.cells[0]!.status).not.toBe('error');
    expect(result.cells[0]!.checks.length).toBeGreaterThan(0);
  });

  it('does not run again for any other error', async () => {
    const target = makeTarget(() => false, 'the client could not be started: ENOENT');
    const result = await runMatrixUntilMeasured(options(target));
    expect(target.runs).toBe(1);
    expect(result.cells[0]).toMatchObject({ status: 'error', reason: expect.stringContaining('could not be started') });
    expect(isUnmeasuredByStall(result.cells[0]!)).toBe(false);
  });

  it('stops after maxRuns and returns the last run, still not measured', async () => {
    const target = makeTarget(() => true);
    const result = await runMatrixUntilMeasured(options(target), 2);
    expect(target.runs).toBe(2);
    expect(isUnmeasuredByStall(result.cells[0]!)).toBe(true);
  });
});
