// Which cases may run on the run's shared keep-alive connections, read from the script alone.
import type { Case, ResponseSpec } from '../cases/case-types.js';

// Headers that let the script frame the body or the connection itself: a wrong Content-Length
// leaves bytes on the socket after a "complete" response, which would break the next request
// sent on that connection by another cell.
const FRAMING_HEADERS = new Set(['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

/**
 * Whether every response of the case ends cleanly on a connection that stays reusable: no
 * scripted hang or reset (at the start or mid-stream), no status below 200, no framing header
 * written by the script. Any other case gets connections of its own, closed with the cell, so
 * whatever it does to a socket cannot reach another cell's requests.
 */
export function canShareConnections(item: Case): boolean {
  return item.exchanges.every((exchange) => endsCleanly(exchange.response));
}

function endsCleanly(response: ResponseSpec): boolean {
  if (response.start === 'hang' || response.start === 'reset') return false;
  if (response.status !== undefined && response.status < 200) return false;
  if (Object.keys(response.headers ?? {}).some((name) => FRAMING_HEADERS.has(name.toLowerCase()))) return false;
  const body = response.body;
  if (body && 'sse' in body && (body.sse.end === 'hang' || body.sse.end === 'reset')) return false;
  return true;
}
