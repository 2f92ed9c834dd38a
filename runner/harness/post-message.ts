// One POST over undici that never throws for wire problems: it returns what arrived.
import { util as undiciUtil, type Dispatcher } from 'undici';
import type { TransportErrorKind } from '../types.js';
import { createTransportError, decodeBody, normalizeResponseHeaders, type ExchangeResponse } from './exchange-response.js';
import type { PostDeadlines } from './post-deadlines.js';

export interface PostOptions {
  dispatcher: Dispatcher;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The session's deadlines: this POST gets its own budget from them, and stops when the caller's signal aborts. */
  deadlines: PostDeadlines;
  /** The budget's length, for the timeout message. */
  timeoutMs: number;
  /** Sees raw body bytes as they arrive (used to answer server requests on a stream). */
  onChunk?: ((bytes: Buffer, contentType: string | undefined) => void) | undefined;
}

/**
 * Sends one POST and reads the whole body as bytes, within the time budget. It talks to undici's
 * dispatcher through a handler (no response stream, no async iterator, no AbortSignal per POST):
 * the bytes on the wire are those of `dispatcher.request` with the same options.
 */
export function postMessage(options: PostOptions): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let abortRequest: ((reason: Error) => void) | undefined;
    let stopped = false;
    let settled = false;
    const watched = options.deadlines.watch(() => {
      stopped = true;
      abortRequest?.(new Error('the POST ran out of time'));
    });
    const finish = (error: unknown): void => {
      if (settled) return;
      settled = true;
      watched.release();
      let response: ExchangeResponse;
      try {
        response = { status, headers, contentType: headers['content-type'], ...decodeBody(Buffer.concat(chunks), headers['content-encoding']) };
      } catch (decodeError) {
        // decodeBody refuses a decompression bomb: the caller names it.
        return reject(decodeError);
      }
      if (error !== undefined) response.transportError = createTransportError(watched.expired || options.deadlines.aborted ? 'timeout' : classifyError(error), options.timeoutMs);
      resolve(response);
    };
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abort) {
        abortRequest = abort;
        if (stopped) abort(new Error('the POST ran out of time'));
      },
      onHeaders(statusCode, rawHeaders) {
        // An informational (1xx) head is not the response: wait for the final one, as `request` does.
        if (statusCode < 200) return true;
        status = statusCode;
        headers = normalizeResponseHeaders(Object.entries(undiciUtil.parseHeaders(rawHeaders)));
        return true;
      },
      onData(chunk) {
        if (settled) return true;
        chunks.push(chunk);
        options.onChunk?.(chunk, headers['content-type']);
        return true;
      },
      onComplete: () => finish(undefined),
      onError: (error) => finish(error),
    };
    options.dispatcher.dispatch(
      // The harness deadline rules; undici's own timers would race it.
      { path: options.path, method: 'POST', headers: options.headers, body: options.body, headersTimeout: 0, bodyTimeout: 0 },
      handler,
    );
  });
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
