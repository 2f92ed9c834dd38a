import { describe, expect, it } from 'vitest';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { RecordedExchange, RecordedResponse } from '../vocabulary/types.js';
import { ANSWER_SLACK_MS, findAnswerWindows, isCallAnswerDue, sumStallsWithin } from './answer-windows.js';

const ORIGIN = 1000;

function exchange(at: number, method: string, scriptStep: number | undefined, response: Partial<RecordedResponse>): RecordedExchange {
  return {
    seq: 0,
    at,
    request: { method: 'POST', path: '/mcp', headers: {}, body: '', rpc: { method, isNotification: false, isResponse: false }, ...(scriptStep === undefined ? {} : { scriptStep }) },
    response: { status: 200, headers: {}, body: '', ending: 'complete', ...response },
  };
}

const hang = makeCase([{ start: 'hang' }]);
const streamThenHang = makeCase([{ body: { sse: { events: [{ data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } }], end: 'hang' } } }]);
const answered = makeCase([{ delayMs: 300, body: { json: SUCCESS_JSON } }]);

describe('when answers of a cell were due', () => {
  it('never for a tools/call the script leaves hanging from the start: no stall there can change the outcome', () => {
    const recording = { url: 'u', exchanges: [exchange(5, 'tools/call', 0, { status: undefined, ending: 'client_closed', endedAt: 2005 })] };
    expect(findAnswerWindows({ recording, clockOrigin: ORIGIN, case: hang })).toEqual([]);
    expect(isCallAnswerDue({ recording, clockOrigin: ORIGIN, case: hang })).toBe(false);
  });

  it('until the last event of a stream the script then leaves hanging', () => {
    const recording = { url: 'u', exchanges: [exchange(5, 'tools/call', 0, { ending: 'client_closed', endedAt: 2005, events: [{ at: 12, text: 'data: {}' }] })] };
    expect(findAnswerWindows({ recording, clockOrigin: ORIGIN, case: streamThenHang })).toEqual([{ from: ORIGIN + 5 - ANSWER_SLACK_MS, to: ORIGIN + 12 + ANSWER_SLACK_MS }]);
    expect(isCallAnswerDue({ recording, clockOrigin: ORIGIN, case: streamThenHang })).toBe(true);
  });

  it('until the answer ended otherwise, setup answers included, overlapping windows merged', () => {
    const recording = {
      url: 'u',
      exchanges: [exchange(0, 'initialize', undefined, { endedAt: 2 }), exchange(100, 'tools/call', 0, { endedAt: 400 }), exchange(3000, 'tools/call', 1, { ending: 'client_closed', endedAt: undefined })],
    };
    expect(findAnswerWindows({ recording, clockOrigin: ORIGIN, case: answered })).toEqual([
      { from: ORIGIN - ANSWER_SLACK_MS, to: ORIGIN + 400 + ANSWER_SLACK_MS },
      { from: ORIGIN + 3000 - ANSWER_SLACK_MS, to: Number.POSITIVE_INFINITY },
    ]);
  });

  it('counts the whole cell as due when no tools/call was recorded at all: the client may have sent one the server never read', () => {
    const input = { recording: { url: 'u', exchanges: [exchange(0, 'initialize', undefined, { endedAt: 2 })] }, clockOrigin: ORIGIN, case: hang };
    expect(isCallAnswerDue(input)).toBe(true);
    expect(findAnswerWindows(input)).toEqual([{ from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY }]);
  });

  it('reaches back over a stall of the runner that ended around a request it recorded: the request waited unread through it', () => {
    const recording = { url: 'u', exchanges: [exchange(3670, 'tools/call', 0, { endedAt: 3700 })] };
    const stalls = [
      { startedAt: ORIGIN + 100, endedAt: ORIGIN + 1900 },
      { startedAt: ORIGIN + 2000, endedAt: ORIGIN + 3600 },
    ];
    expect(findAnswerWindows({ recording, clockOrigin: ORIGIN, case: answered }, stalls)).toEqual([{ from: ORIGIN + 100, to: ORIGIN + 3700 + ANSWER_SLACK_MS }]);
  });

  it('sums the part of each stall inside the windows', () => {
    const windows = [
      { from: 0, to: 100 },
      { from: 200, to: 300 },
    ];
    expect(sumStallsWithin([{ startedAt: 50, endedAt: 250 }, { startedAt: 400, endedAt: 900 }], windows)).toBe(100);
  });
});
