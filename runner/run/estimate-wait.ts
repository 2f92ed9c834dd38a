// How long a cell will mostly sit waiting (scripted delays, hangs, Retry-After), read from the
// case script alone, so the runner can keep such cells from holding a CPU slot.
import type { Case, ExchangeSpec } from '../cases/case-types.js';

/** Cells expected to wait at least this long run beside the pool instead of in it. */
export const WAITING_CELL_MS = 250;

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
