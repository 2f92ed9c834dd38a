// A real client keeps its own deadlines, in its own process, against the mock server in this one.
// When a deadline produced its outcome while this process (the runner: the mock server, the
// harness) was starved past the threshold, the load may have decided it: the cell is `error` of kind `starved`, naming the
// process, by how much, and the remedy, with the client's verdict kept as evidence (runMatrix then
// runs it again, confirm-cells.ts). An outcome the answer produced was seen, and stands.
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../cases/case-types.js';
import { sendRaw } from '../mock-server/raw-http.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { Target, Verdict } from '../vocabulary/types.js';
import { stallLoop } from '../../test/race-answer-against-deadline.js';
import { runCell } from './run-cell.js';

// The server answers 200 ms after the request: a stall started 50 ms after sending falls inside it.
const loaded: LoadedCase = { case: makeCase([{ delayMs: 200, body: { json: SUCCESS_JSON } }]), file: 'x.json', relativeFile: 'x.json', sha256: '0'.repeat(64) };
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } });
const SUCCESS: Verdict = { outcome: 'TOOL_SUCCESS', layer: 'application' };
const TIMED_OUT: Verdict = { outcome: 'NO_RESPONSE', layer: 'transport', detail: 'gave up after its own timeout' };

/** A target that sends the call, keeps this loop from running for `stallMs` (as an overloaded machine does) while the server holds it, then concludes `verdict`. */
function makeStallingTarget(kind: string, stallMs: number, verdict: Verdict): Target {
  return {
    info: { name: `stalls-${stallMs}`, kind },
    usesServer: () => true,
    run: async ({ serverUrl }) => {
      const answer = sendRaw(serverUrl!, { body: CALL, headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'synthetic_tool', Accept: 'application/json, text/event-stream' } }, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      stallLoop(stallMs);
      await answer;
      return { verdicts: [verdict] };
    },
  };
}

const run = (target: Target, timeoutMs = 400) => runCell({ loaded, protocolVersion: '2026-07-28', target, mode: 'http', timeoutMs, signal: new AbortController().signal, schema: [] });

describe('a starved runner during a real client cell', () => {
  it('makes a deadline-produced outcome an error of kind starved, naming the runner, the stall and the remedy, with the verdict kept', async () => {
    // 1,200 ms at once, against a threshold of 250 ms (a quarter of 400 ms, at least 250).
    const cell = await run(makeStallingTarget('command', 1200, TIMED_OUT));
    expect(cell.status).toBe('error');
    expect(cell.errorKind).toBe('starved');
    expect(cell.reason).toMatch(/^not measured: a deadline produced the outcome while the runner \(its mock server and harness\): .*its event loop stood still [\d,]+ ms \(the longest stall [\d,]+ ms, [\d,]+ ms of it while an answer was due\), in [\d,]+ ms \(the threshold is a quarter of the 400 ms timeout, at least 250 ms: 250 ms\)/);
    expect(cell.reason).toMatch(/run again on a less loaded machine, or with a lower --concurrency \(e\.g\. --concurrency 2\) or a higher --timeout$/);
    expect(cell.actual).toEqual([TIMED_OUT]);
    expect(cell.checks).toEqual([]);
    const runner = cell.timing!.processes.find((process) => process.process === 'runner')!;
    expect(runner.starved).toBe(true);
    expect(runner.longestStallMs).toBeGreaterThanOrEqual(1150);
    // The server held the call (its answer due 200 ms after it) all through the stall.
    expect(runner.stalledWhileDueMs).toBeGreaterThanOrEqual(1150);
    expect(cell.timing!.deadlineBound).toBe(true);
  });

  it('judges an outcome the answer produced, however long the stall: it was seen', async () => {
    const cell = await run(makeStallingTarget('command', 1200, SUCCESS));
    expect(cell.status).toBe('pass');
    expect(cell.errorKind).toBeUndefined();
    expect(cell.timing!.deadlineBound).toBeUndefined();
    expect(cell.timing!.processes.find((process) => process.process === 'runner')!.starved).toBe(true);
  });

  it("makes a target's own error while it was starved an error of kind starved, keeping the target's words; and leaves it alone otherwise", async () => {
    const failing = (stallMs: number): Target => ({ ...makeStallingTarget('client', stallMs, SUCCESS), run: async (context) => (await makeStallingTarget('client', stallMs, SUCCESS).run(context), { verdicts: [], error: 'connect failed before any tools/call: TypeError: fetch failed' }) });
    const starved = await run(failing(1200));
    expect(starved).toMatchObject({ status: 'error', errorKind: 'starved' });
    expect(starved.reason).toMatch(/^not measured: the target failed while the runner .* so the machine's load may have caused it; run again .*\. The target said: connect failed before any tools\/call: TypeError: fetch failed$/);
    const measured = await run(failing(0), 60_000);
    expect(measured).toMatchObject({ status: 'error', reason: 'connect failed before any tools/call: TypeError: fetch failed' });
    expect(measured.errorKind).toBeUndefined();
  });

  it('leaves the error of an interrupted run as it is: the run stopped the target', async () => {
    const stop = new AbortController();
    const target: Target = { ...makeStallingTarget('client', 1200, SUCCESS), run: async (context) => (await makeStallingTarget('client', 1200, SUCCESS).run(context), stop.abort(), { verdicts: [], error: 'interrupted: the run was aborted' }) };
    const cell = await runCell({ loaded, protocolVersion: '2026-07-28', target, mode: 'http', timeoutMs: 400, signal: stop.signal, schema: [] });
    expect(cell).toMatchObject({ status: 'error', reason: 'interrupted: the run was aborted' });
    expect(cell.errorKind).toBeUndefined();
  });

  it("applies to a classifier's cells too: its harness's deadlines wait at most twice their time", async () => {
    const cell = await run(makeStallingTarget('classifier', 1200, TIMED_OUT));
    expect(cell.errorKind).toBe('starved');
  });

  it('does not apply in direct mode, where no deadline runs', async () => {
    const target: Target = { info: { name: 'direct', kind: 'classifier' }, usesServer: () => false, run: async () => (stallLoop(1200), { verdicts: [TIMED_OUT] }) };
    const cell = await runCell({ loaded, protocolVersion: '2026-07-28', target, mode: 'direct', timeoutMs: 400, signal: new AbortController().signal, schema: [] });
    expect(cell.errorKind).toBeUndefined();
    expect(cell.timing).toBeUndefined();
  });

  it('leaves a deadline-produced outcome judged when no process lost a quarter of the timeout', async () => {
    // A 60 s timeout: the threshold is 15 s, which no stall of this test (nor of a loaded machine) reaches.
    const cell = await run(makeStallingTarget('command', 300, TIMED_OUT), 60_000);
    expect(cell.errorKind).toBeUndefined();
    expect(cell.timing!.deadlineBound).toBe(true);
    expect(cell.checks.length).toBeGreaterThan(0);
  });
});
