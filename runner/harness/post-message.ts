// One POST over undici that never throws for wire problems: it returns what arrived.
import type { Dispatcher } from 'undici';
import type { TransportErrorKind } from '../vocabulary/types.js';
import { createTransportError, decodeBody, normalizeResponseHeaders, type ExchangeResponse } from './exchange-response.js';
import type { PostDeadlines, WatchedPost } from './post-deadlines.js';

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
    const handler = new PostHandler(options, resolve, reject);
    options.dispatcher.dispatch(
      // The harness deadline rules; undici's own timers would race it.
      { path: options.path, method: 'POST', headers: options.headers, body: options.body, headersTimeout: 0, bodyTimeout: 0 },
      handler,
    );
  });
}

const OUT_OF_TIME = 'the POST ran out of time';

// One POST's state, as undici's handler: what arrived so far, and how it ended.
class PostHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private abortRequest: ((reason: Error) => void) | undefined;
  private stopped = false;
  private settled = false;
  private readonly watched: WatchedPost;

  constructor(
    private readonly options: PostOptions,
    private readonly resolve: (response: ExchangeResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.watched = options.deadlines.watch(() => {
      this.stopped = true;
      this.abortRequest?.(new Error(OUT_OF_TIME));
    });
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abortRequest = abort;
    if (this.stopped) abort(new Error(OUT_OF_TIME));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // An informational (1xx) head is not the response: wait for the final one, as `request` does.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.headers = normalizeResponseHeaders(pairRawHeaders(rawHeaders));
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.chunks.push(chunk);
    this.options.onChunk?.(chunk, this.headers['content-type']);
    return true;
  }

  onComplete(): void {
    this.finish(undefined);
  }

  onError(error: Error): void {
    this.finish(error);
  }

  private finish(error: Error | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.watched.release();
    const { status, headers, chunks } = this;
    let response: ExchangeResponse;
    try {
      response = { status, headers, contentType: headers['content-type'], ...decodeBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), headers['content-encoding']) };
    } catch (decodeError) {
      // decodeBody refuses a decompression bomb: the caller names it.
      return this.reject(decodeError);
    }
    if (error !== undefined) response.transportError = createTransportError(this.watched.expired || this.options.deadlines.aborted ? 'timeout' : classifyError(error), this.options.timeoutMs);
    this.resolve(response);
  }
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

/**
 * The raw header list a dispatch handler gets (name, value, name, value, … as bytes) as pairs of
 * latin1 text, in order: what undici's parseHeaders reads, without importing undici (about 130 ms
 * of CPU at every start of the CLI, direct mode included) for it.
 */
export function pairRawHeaders(raw: readonly (Buffer | string | readonly Buffer[])[]): [string, string | string[]][] {
  const text = (value: Buffer | string | readonly Buffer[] | undefined): string | string[] =>
    value === undefined ? '' : typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('latin1') : value.map((item) => item.toString('latin1'));
  const pairs: [string, string | string[]][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) pairs.push([String(text(raw[index])), text(raw[index + 1])]);
  return pairs;
}
