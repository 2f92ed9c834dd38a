// One POST over undici that never throws for wire problems: it returns what arrived.
import type { Dispatcher } from 'undici';
import type { TransportErrorKind } from '../types.js';
import { createTransportError, decodeBody, normalizeResponseHeaders, type ExchangeResponse } from './exchange-response.js';

export interface PostOptions {
  dispatcher: Dispatcher;
  path: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sees raw body bytes as they arrive (used to answer server requests on a stream). */
  onChunk?(bytes: Buffer, contentType: string | undefined): void;
}

/** Sends one POST and reads the whole body as bytes, within the time budget. */
export async function postMessage(options: PostOptions): Promise<ExchangeResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  // AbortSignal.any links the run's signal without adding a listener to it: one listener per
  // POST in flight on the shared run signal raised MaxListenersExceededWarning past ten.
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  let status = 0;
  let headers: Record<string, string> = {};
  const chunks: Buffer[] = [];
  let transportError: ExchangeResponse['transportError'];
  try {
    const response = await options.dispatcher.request({
      path: options.path,
      method: 'POST',
      headers: options.headers,
      body: options.body,
      signal,
      // The harness deadline rules; undici's own timers would race it.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    status = response.statusCode;
    headers = normalizeResponseHeaders(Object.entries(response.headers));
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      options.onChunk?.(chunk, headers['content-type']);
    }
  } catch (error) {
    transportError = createTransportError(timedOut || options.signal?.aborted ? 'timeout' : classifyError(error), options.timeoutMs);
  } finally {
    clearTimeout(timer);
  }
  const response: ExchangeResponse = {
    status,
    headers,
    contentType: headers['content-type'],
    ...decodeBody(Buffer.concat(chunks), headers['content-encoding']),
  };
  if (transportError) response.transportError = transportError;
  return response;
}

function classifyError(error: unknown): TransportErrorKind {
  const codes = collectCodes(error);
  if (codes.includes('ECONNREFUSED')) return 'refused';
  if (codes.includes('ECONNRESET') || codes.includes('EPIPE')) return 'reset';
  return 'closed';
}

// undici wraps socket errors (SocketError with a cause); look through the chain.
function collectCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    current = cause;
  }
  return codes;
}
