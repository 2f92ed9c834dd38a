// How long a cell will mostly sit waiting (scripted delays, hangs, Retry-After), read from the
// case script alone, so the runner can keep such cells from holding a CPU slot.
import type { Case, ExchangeSpec } from '../cases/case-types.js';
import { RESET_SETTLE_MS } from '../mock-server/play-response.js';

/** Cells expected to wait at least this long run beside the pool instead of in it. */
export const WAITING_CELL_MS = 250;

/**
 * Whether a cell over loopback mostly waits, so it should run beside the --concurrency pool rather
 * than hold a slot of it: a scripted wait of WAITING_CELL_MS or more (capped at the timeout), or,
 * for the built-in harness (`harness`), a stream the server resets mid-way, whose reset first waits
 * RESET_SETTLE_MS for the client to read what was sent (play-response.ts). That wait is not the
 * case's, but at 30 ms it is ten times a harness cell's work, and a slot held through it computes
 * nothing; a real client's cell works for hundreds of ms, so it keeps its slot.
 */
export function waitsBesidePool(item: Case, timeoutMs: number, harness: boolean): boolean {
  return estimateWaitMs(item, timeoutMs) >= Math.min(WAITING_CELL_MS, timeoutMs) || (harness && item.exchanges.some(resetsMidStream));
}

function resetsMidStream(exchange: ExchangeSpec): boolean {
  const { start, body } = exchange.response;
  return start !== 'hang' && start !== 'reset' && body !== undefined && 'sse' in body && body.sse.end === 'reset';
}

/** The scripted waiting time of a case over loopback: delays, hangs (a full timeout each) and Retry-After. */
export function estimateWaitMs(item: Case, timeoutMs: number): number {
  let total = 0;
  for (const exchange of item.exchanges) total += Math.min(estimateExchangeWaitMs(exchange, timeoutMs), timeoutMs);
  return total;
}

function estimateExchangeWaitMs(exchange: ExchangeSpec, timeoutMs: number): number {
  const response = exchange.response;
  let wait = response.delayMs ?? 0;
  if (response.start === 'hang') return timeoutMs;
  const body = response.body;
  if (body && 'sse' in body) {
    for (const event of body.sse.events) wait += event.delayMs ?? 0;
    if (body.sse.end === 'hang') wait += timeoutMs;
  }
  // A client that honours Retry-After sleeps before its next POST (seconds, RFC 9110 § 10.2.3).
  const retryAfter = Object.entries(response.headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  const seconds = retryAfter === undefined ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds > 0) wait += seconds * 1000;
  return wait;
}

/**
 * Whether the script itself keeps the server from finishing this exchange's answer within the
 * timeout: a hang, or scripted delays of half the timeout or more. Otherwise a client that got no
 * complete answer in time was kept waiting by something else than the case.
 */
export function scriptOutlastsTimeout(exchange: ExchangeSpec, timeoutMs: number): boolean {
  const response = exchange.response;
  if (response.start === 'hang') return true;
  let wait = response.delayMs ?? 0;
  const body = response.body;
  if (body && 'sse' in body) {
    if (body.sse.end === 'hang') return true;
    for (const event of body.sse.events) wait += event.delayMs ?? 0;
  }
  return wait >= timeoutMs / 2;
}
