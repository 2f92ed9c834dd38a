// When a cell's answers were due, from its wire recording: starvation outside those times cannot
// have changed an outcome a deadline produced. A response the script never sends (`start: "hang"`)
// is never due, so a client that times out on it concludes the same whatever the load; one the
// script streams and then leaves hanging is due until its last event; any other until it ended.
import type { Case } from '../cases/case-types.js';
import type { LoopStall } from './loop-stall.js';
import type { RecordedExchange, Recording } from '../vocabulary/types.js';

/**
 * A request the client sent while the runner's loop stalled waits unread in the kernel, and the
 * server records it when the loop runs again: a window starts this much before the arrival
 * recorded. It ends as much after the last byte, the time to read what came.
 */
export const ANSWER_SLACK_MS = 250;

/** One time an answer of the cell was due, as performance.now() times of the runner. */
export interface AnswerWindow {
  from: number;
  to: number;
}

export interface AnswerWindowsInput {
  recording: Recording;
  /** performance.now() when the cell's server clock started (the recording's times count from it). */
  clockOrigin: number;
  case: Case;
}

/**
 * The times the server had an answer of the cell to send (any exchange the script answers), merged.
 * A request is recorded when the server reads it: one that came while the runner's loop stood
 * still is recorded after the stall, so its window reaches back to the start of a stall that ended
 * around its arrival (`stalls`: the runner's, oldest first). With no tools/call recorded at all,
 * the client may have sent one the server never got to read: the whole cell is due.
 */
export function findAnswerWindows(input: AnswerWindowsInput, stalls: readonly LoopStall[] = []): AnswerWindow[] {
  if (!input.recording.exchanges.some(isToolCall)) return [{ from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY }];
  const windows = input.recording.exchanges.flatMap((exchange) => {
    const window = toWindow(exchange, input);
    return window ? [reachBackOverStalls(window, stalls)] : [];
  });
  return mergeWindows(windows);
}

/**
 * Whether any answer of a tools/call was due: a cell whose every tools/call hung from the start
 * (or none was recorded: then the client did not get to call, and that counts as due) ended as it
 * would have on an idle machine.
 */
export function isCallAnswerDue(input: AnswerWindowsInput): boolean {
  const calls = input.recording.exchanges.filter(isToolCall);
  return calls.length === 0 || calls.some((exchange) => toWindow(exchange, input) !== undefined);
}

/** The milliseconds of `stalls` that fall inside `windows`. */
export function sumStallsWithin(stalls: readonly LoopStall[], windows: readonly AnswerWindow[]): number {
  let sum = 0;
  for (const stall of stalls) {
    for (const window of windows) sum += Math.max(0, Math.min(stall.endedAt, window.to) - Math.max(stall.startedAt, window.from));
  }
  return sum;
}

function isToolCall(exchange: RecordedExchange): boolean {
  return exchange.request.rpc?.method === 'tools/call';
}

/** The window, its start moved back to the start of each stall that ended within it or just before. */
function reachBackOverStalls(window: AnswerWindow, stalls: readonly LoopStall[]): AnswerWindow {
  let from = window.from;
  for (let index = stalls.length - 1; index >= 0; index--) {
    const stall = stalls[index]!;
    if (stall.startedAt < from && stall.endedAt >= from - ANSWER_SLACK_MS) from = stall.startedAt;
  }
  return { from, to: window.to };
}

function toWindow(exchange: RecordedExchange, input: AnswerWindowsInput): AnswerWindow | undefined {
  const step = exchange.request.scriptStep;
  const response = step === undefined ? undefined : input.case.exchanges[step]?.response;
  if (response?.start === 'hang') return undefined;
  const from = input.clockOrigin + exchange.at - ANSWER_SLACK_MS;
  const hangsAfter = response?.body !== undefined && 'sse' in response.body && response.body.sse.end === 'hang';
  const recorded = exchange.response;
  let last: number;
  if (hangsAfter) last = Math.max(exchange.at, ...(recorded?.events ?? []).map((event) => event.at));
  else last = recorded?.endedAt ?? Number.POSITIVE_INFINITY;
  return { from, to: input.clockOrigin + last + ANSWER_SLACK_MS };
}

function mergeWindows(windows: AnswerWindow[]): AnswerWindow[] {
  const sorted = [...windows].sort((a, b) => a.from - b.from);
  const merged: AnswerWindow[] = [];
  for (const window of sorted) {
    const previous = merged.at(-1);
    if (previous && window.from <= previous.to) previous.to = Math.max(previous.to, window.to);
    else merged.push({ ...window });
  }
  return merged;
}
