// A real client's timing is not measured while this process's event loop stalls: the cell is
// `error` (not judged), with the stall named and the client's verdict kept as evidence.
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../cases/case-types.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { Target } from '../types.js';
import { runCell } from './run-cell.js';

const loaded: LoadedCase = { case: makeCase([{ body: { json: SUCCESS_JSON } }]), file: 'x.json', relativeFile: 'x.json', sha256: '0'.repeat(64) };

/** A target that keeps the loop from running for `stallMs` (as an overloaded machine does), then concludes success. */
function makeStallingTarget(kind: string, stallMs: number): Target {
  return {
    info: { name: `stalls-${stallMs}`, kind },
    usesServer: () => true,
    run: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const end = performance.now() + stallMs;
      while (performance.now() < end) {
        // the loop cannot run
      }
      return { verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }] };
    },
  };
}

const run = (target: Target) => runCell({ loaded, protocolVersion: '2026-07-28', target, mode: 'http', timeoutMs: 400, signal: new AbortController().signal, schema: [] });

describe('a stall of the runner during a real client cell', () => {
  it('makes the cell error, naming the stall and the remedy, with the verdict kept', async () => {
    const cell = await run(makeStallingTarget('command', 1200));
    expect(cell.status).toBe('error');
    expect(cell.reason).toMatch(/^not measured: this process's event loop stalled for \d+ ms at once during the cell \(the machine was overloaded\), so the mock server may have answered the client late against its own 400 ms timeout; run the cell again/);
    expect(cell.actual).toEqual([{ outcome: 'TOOL_SUCCESS', layer: 'application' }]);
    expect(cell.checks).toEqual([]);
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
