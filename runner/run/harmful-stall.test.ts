import { describe, expect, it } from 'vitest';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { RecordedExchange, Recording } from '../types.js';
import { ARRIVAL_SLACK_MS, findHarmfulStallMs } from './harmful-stall.js';

const ORIGIN = 10_000;
const item = makeCase([{ body: { json: SUCCESS_JSON } }, { start: 'hang' }]);

/** An exchange the server had from `at` until `endedAt` (ms on the cell's clock; undefined: still open). */
function exchange(at: number, endedAt: number | undefined, scriptStep?: number): RecordedExchange {
  return {
    seq: 0,
    at,
    request: { method: 'POST', path: '/mcp', headers: {}, body: '', ...(scriptStep === undefined ? {} : { scriptStep }) },
    response: { status: 200, headers: {}, body: '', ending: endedAt === undefined ? 'hang' : 'complete', ...(endedAt === undefined ? {} : { endedAt }) },
  };
}
const recording = (...exchanges: RecordedExchange[]): Recording => ({ url: 'http://127.0.0.1:1/mcp', exchanges });
/** A stall from `from` to `to` on the cell's clock. */
const stall = (from: number, to: number) => ({ startedAt: ORIGIN + from, endedAt: ORIGIN + to });
const find = (stalls: ReturnType<typeof stall>[], rec: Recording) => findHarmfulStallMs({ stalls, recording: rec, clockOrigin: ORIGIN, case: item });

describe('findHarmfulStallMs', () => {
  it('counts a stall while the server held a request it was still to answer', () => {
    expect(find([stall(100, 1300)], recording(exchange(50, 1400, 0)))).toBe(1200);
  });

  it('counts a request that arrived just after the stall (sent during it, read when the loop ran again)', () => {
    expect(find([stall(100, 1300)], recording(exchange(1300 + ARRIVAL_SLACK_MS - 1, 1700, 0)))).toBe(1200);
  });

  it('leaves out a stall before the request arrived (later than the slack) and one after the answer ended', () => {
    expect(find([stall(100, 1300)], recording(exchange(1300 + ARRIVAL_SLACK_MS + 1, 1700, 0)))).toBe(0);
    expect(find([stall(500, 1700)], recording(exchange(50, 499, 0)))).toBe(0);
  });

  it('counts a response still open (no end yet), a request outside the script (initialize) included', () => {
    expect(find([stall(100, 900)], recording(exchange(50, undefined)))).toBe(800);
  });

  it('leaves out an exchange whose script never answers (start: hang): the client gives up on it anyway', () => {
    expect(find([stall(100, 1300)], recording(exchange(50, undefined, 1)))).toBe(0);
  });

  it('names the longest harmful stall, not a longer harmless one', () => {
    const rec = recording(exchange(2000, 2600, 0));
    expect(find([stall(0, 1900 - ARRIVAL_SLACK_MS), stall(2100, 2500)], rec)).toBe(400);
  });

  it('reads 0 with no stalls or no exchanges', () => {
    expect(find([], recording(exchange(0, 100, 0)))).toBe(0);
    expect(find([stall(0, 5000)], recording())).toBe(0);
  });
});
