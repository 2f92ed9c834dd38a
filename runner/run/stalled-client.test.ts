// A real client's timing is not measured while this process's event loop stalls with a request of
// the cell in the server's hands: the cell is `error` (not judged), with the stall named and the
// client's verdict kept as evidence. A stall while nothing of the cell is in flight (the client
// still starting) cannot have made the server late: the cell is judged.
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../cases/case-types.js';
import { sendRaw } from '../mock-server/raw-http.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { Target } from '../types.js';
import { stallLoop } from '../../test/race-answer-against-deadline.js';
import { ARRIVAL_SLACK_MS } from './harmful-stall.js';
import { runCell } from './run-cell.js';

// The server answers 200 ms after the request: a stall started 50 ms after sending falls inside it.
const loaded: LoadedCase = { case: makeCase([{ delayMs: 200, body: { json: SUCCESS_JSON } }]), file: 'x.json', relativeFile: 'x.json', sha256: '0'.repeat(64) };
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } });

/**
 * A target that keeps the loop from running for `stallMs` (as an overloaded machine does), either
 * while the server holds its call or before it sends anything, then concludes success.
 */
function makeStallingTarget(kind: string, stallMs: number, when: 'while-server-holds-the-call' | 'before-the-call' = 'while-server-holds-the-call'): Target {
  return {
    info: { name: `stalls-${stallMs}`, kind },
    usesServer: () => true,
    run: async ({ serverUrl }) => {
      if (when === 'before-the-call') {
        stallLoop(stallMs);
        // Longer than ARRIVAL_SLACK_MS: a call that arrives this late was sent after the stall.
        await new Promise((resolve) => setTimeout(resolve, ARRIVAL_SLACK_MS + 150));
      }
      const answer = sendRaw(serverUrl!, { body: CALL, headers: { 'MCP-Protocol-Version': '2026-07-28', Accept: 'application/json, text/event-stream' } }, 10_000);
      if (when === 'while-server-holds-the-call') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        stallLoop(stallMs);
      }
      await answer;
      return { verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }] };
    },
  };
}

const run = (target: Target) => runCell({ loaded, protocolVersion: '2026-07-28', target, mode: 'http', timeoutMs: 400, signal: new AbortController().signal, schema: [] });

describe('a stall of the runner during a real client cell', () => {
  it('makes the cell error when the server held the call during it, naming the stall and the remedy, with the verdict kept', async () => {
    const cell = await run(makeStallingTarget('command', 1200));
    expect(cell.status).toBe('error');
    expect(cell.reason).toMatch(/^not measured: this process's event loop stalled for \d+ ms at once while the mock server held a request of the cell \(the machine was overloaded\), so the mock server may have answered the client late against its own 400 ms timeout; run the cell again/);
    expect(cell.actual).toEqual([{ outcome: 'TOOL_SUCCESS', layer: 'application' }]);
    expect(cell.checks).toEqual([]);
  });

  it('judges the cell when the stall ended before the client sent anything (a client still starting)', async () => {
    const cell = await run(makeStallingTarget('command', 1200, 'before-the-call'));
    expect(cell.reason ?? '').not.toMatch(/stalled/);
    expect(cell.checks.length).toBeGreaterThan(0);
    expect(cell.recording?.exchanges).toHaveLength(1);
  });

  it('leaves a cell judged when the stall is under a second (and under half the timeout)', async () => {
    const cell = await run(makeStallingTarget('command', 150));
    expect(cell.reason ?? '').not.toMatch(/stalled/);
    expect(cell.checks.length).toBeGreaterThan(0);
  });

  it('does not apply to classifier targets, whose harness deadlines do not count stalls', async () => {
    const cell = await run(makeStallingTarget('classifier', 1200));
    expect(cell.reason ?? '').not.toMatch(/stalled/);
    expect(cell.status).toBe('pass');
  });
});
