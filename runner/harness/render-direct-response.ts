// Direct mode: the ExchangeResponse the HTTP path would produce, computed without a socket.
import type { ExchangeSpec } from '../cases/case-types.js';
import { getContentLength, isBodylessStatus } from '../mock-server/framing.js';
import { renderResponse } from '../mock-server/render-response.js';
import { createTransportError, decodeBody, decodeEmptyBody, normalizeResponseHeaders, type ExchangeResponse } from './exchange-response.js';

export interface DirectOptions {
  requestId: unknown;
  timeoutMs: number;
}

/** Renders the exchange and replays its timing on paper: delays count against the timeout, nothing waits. */
export function renderDirectResponse(exchange: ExchangeSpec, options: DirectOptions): ExchangeResponse {
  const rendered = renderResponse(exchange, { requestId: options.requestId, idPresent: true });
  const timeout = createTransportError('timeout', options.timeoutMs);
  if (rendered.start === 'hang' || rendered.delayMs >= options.timeoutMs) {
    return { status: 0, headers: {}, contentType: undefined, ...decodeEmptyBody(), transportError: timeout };
  }
  if (rendered.start === 'reset') {
    return { status: 0, headers: {}, contentType: undefined, ...decodeEmptyBody(), transportError: createTransportError('reset', options.timeoutMs) };
  }
  const sent: [string, string][] = [...rendered.headers];
  const contentLength = getContentLength(rendered);
  if (contentLength !== undefined) sent.push(['Content-Length', String(contentLength)]);
  const headers = normalizeResponseHeaders(sent);
  const bodyless = isBodylessStatus(rendered.status);
  const arrived: Buffer[] = [];
  let elapsed = rendered.delayMs;
  let transportError: ExchangeResponse['transportError'];
  for (const chunk of bodyless ? [] : rendered.chunks) {
    elapsed += chunk.delayMs;
    if (elapsed >= options.timeoutMs) {
      transportError = timeout;
      break;
    }
    arrived.push(chunk.bytes);
  }
  if (!transportError && !bodyless && rendered.end !== 'close') {
    transportError = rendered.end === 'hang' ? timeout : createTransportError('reset', options.timeoutMs);
  }
  const response: ExchangeResponse = {
    status: rendered.status,
    headers,
    contentType: headers['content-type'],
    ...decodeBody(Buffer.concat(arrived), headers['content-encoding']),
  };
  if (transportError) response.transportError = transportError;
  return response;
}
