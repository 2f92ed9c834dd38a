// Which stalls of this process could have cost a real client its timing: those during which the
// mock server held a request of the cell it was still to answer.
import type { Case } from '../cases/case-types.js';
import type { LoopStall } from '../loop-stall.js';
import type { RecordedExchange, Recording } from '../types.js';

/**
 * A request the client sent while the loop stalled waits unread in the kernel, and the server
 * records it when the loop runs again: its arrival, a little after the stall, still counts as
 * waiting during it.
 */
export const ARRIVAL_SLACK_MS = 250;

export interface HarmfulStallInput {
  stalls: readonly LoopStall[];
  recording: Recording;
  /** performance.now() when the cell's server clock started (the recording's times count from it). */
  clockOrigin: number;
  case: Case;
}

/**
 * The longest stall during which the server held an answer of this cell that the client was
 * waiting for, or 0. A stall while nothing of the cell was in flight (the client was starting, or
 * thinking) cannot have made the server late; nor can one during an exchange whose script never
 * sends a byte (`start: "hang"`): the client gives up on it either way. Any other exchange counts
 * while it is open, a stream that stays open after its events included (conservative).
 */
export function findHarmfulStallMs(input: HarmfulStallInput): number {
  const waits = input.recording.exchanges.flatMap((exchange) => (isAnswerDue(exchange, input.case) ? [toInterval(exchange, input.clockOrigin)] : []));
  let longest = 0;
  for (const stall of input.stalls) {
    const harmful = waits.some((wait) => wait.arrivedAt <= stall.endedAt + ARRIVAL_SLACK_MS && wait.endedAt >= stall.startedAt);
    if (harmful) longest = Math.max(longest, stall.endedAt - stall.startedAt);
  }
  return longest;
}

function isAnswerDue(exchange: RecordedExchange, item: Case): boolean {
  const step = exchange.request.scriptStep;
  return step === undefined || item.exchanges[step]?.response.start !== 'hang';
}

/** When the server had the request, and when its answer ended (still open: not yet). */
function toInterval(exchange: RecordedExchange, clockOrigin: number): { arrivedAt: number; endedAt: number } {
  const endedAt = exchange.response?.endedAt;
  return { arrivedAt: clockOrigin + exchange.at, endedAt: endedAt === undefined ? Number.POSITIVE_INFINITY : clockOrigin + endedAt };
}
