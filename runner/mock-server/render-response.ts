// Pure rendering of a scripted exchange into the exact bytes and timing the mock server sends.
import { gzipSync } from 'node:zlib';
import type { ExchangeSpec, ResponseSpec } from '../cases/case-types.js';
import { renderSseEvents } from './render-sse.js';
import { getResponseIdText, serializeMessage } from './serialize-message.js';

export interface RenderedChunk {
  /** Wait this long before writing the chunk. */
  delayMs: number;
  bytes: Buffer;
  /** The chunk is one SSE event (recorded as such). */
  isEvent: boolean;
  /** After writing, wait for the client's JSON-RPC response with this id (`awaitReply`). */
  awaitReplyId?: unknown;
}

export interface RenderedResponse {
  start: 'normal' | 'hang' | 'reset';
  /** Wait this long before the status line. */
  delayMs: number;
  status: number;
  /** In sending order, names as written. */
  headers: [string, string][];
  chunks: RenderedChunk[];
  end: 'close' | 'reset' | 'hang';
  /** The body is an event stream (sent with chunked framing, never a Content-Length). */
  isStream: boolean;
}

export interface RenderOptions {
  requestId: unknown;
  /** Whether the request carried an id at all (a notification has none). */
  idPresent: boolean;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NO_NAMES: ReadonlySet<string> = new Set();

/** Renders one scripted exchange's response for a given request id. */
export function renderResponse(exchange: ExchangeSpec, options: RenderOptions): RenderedResponse {
  return renderResponseSpec(exchange.response, options);
}

/** Renders a response spec; also used for the server's own (unscripted) replies. */
export function renderResponseSpec(spec: ResponseSpec, options: RenderOptions): RenderedResponse {
  const responseId = getResponseIdText(spec.id, options.requestId, options.idPresent);
  const body = spec.body;
  let chunks: RenderedChunk[] = [];
  let defaultContentType: string | undefined;
  let end: RenderedResponse['end'] = 'close';
  const isStream = body !== undefined && 'sse' in body;
  if (body === undefined) {
    chunks = [];
  } else if ('json' in body) {
    defaultContentType = 'application/json';
    chunks = [{ delayMs: 0, bytes: Buffer.from(serializeMessage(body.json, responseId), 'utf8'), isEvent: false }];
  } else if ('raw' in body) {
    chunks = [{ delayMs: 0, bytes: Buffer.from(body.raw, 'utf8'), isEvent: false }];
  } else if ('base64' in body) {
    chunks = [{ delayMs: 0, bytes: Buffer.from(body.base64, 'base64'), isEvent: false }];
  } else {
    defaultContentType = 'text/event-stream';
    end = body.sse.end ?? 'close';
    chunks = renderSseEvents(body.sse, responseId).map((event) => ({
      delayMs: event.delayMs,
      bytes: Buffer.from(event.text, 'utf8'),
      isEvent: true,
      ...('awaitReplyId' in event ? { awaitReplyId: event.awaitReplyId } : {}),
    }));
  }
  if (spec.bom) chunks = prefixBom(chunks, spec.bom === true ? 1 : spec.bom);
  if (spec.contentEncoding === 'gzip') chunks = gzipChunks(chunks);
  return {
    start: spec.start ?? 'normal',
    delayMs: spec.delayMs ?? 0,
    status: spec.status ?? 200,
    headers: buildHeaders(spec, defaultContentType, isStream),
    chunks,
    end,
    isStream,
  };
}

function buildHeaders(spec: ResponseSpec, defaultContentType: string | undefined, isStream: boolean): [string, string][] {
  const extra = spec.headers ? Object.entries(spec.headers) : [];
  // Most responses script no header: no set to build then.
  const overridden = extra.length > 0 ? new Set(extra.map(([name]) => name.toLowerCase())) : NO_NAMES;
  const headers: [string, string][] = [];
  const contentType = spec.contentType === undefined ? defaultContentType : spec.contentType;
  if (contentType !== null && contentType !== undefined && !overridden.has('content-type')) {
    headers.push(['Content-Type', contentType]);
  }
  if (isStream) {
    // Proxies buffer event streams unless told not to (SH26 § Receiving Messages).
    if (!overridden.has('cache-control')) headers.push(['Cache-Control', 'no-cache']);
    if (!overridden.has('x-accel-buffering')) headers.push(['X-Accel-Buffering', 'no']);
  }
  if (spec.contentEncoding === 'gzip' && !overridden.has('content-encoding')) headers.push(['Content-Encoding', 'gzip']);
  headers.push(...extra);
  return headers;
}

// `count` BOMs: a receiver's UTF-8 decode drops the first one only; the others are data.
function prefixBom(chunks: RenderedChunk[], count: number): RenderedChunk[] {
  const marks = Buffer.concat(Array.from({ length: count }, () => BOM));
  const [first, ...rest] = chunks;
  if (first === undefined) return [{ delayMs: 0, bytes: marks, isEvent: false }];
  return [{ ...first, bytes: Buffer.concat([marks, first.bytes]) }, ...rest];
}

// A gzip member cannot be split across timed writes without a streaming compressor, so the
// whole body becomes one chunk sent after the sum of the event delays (awaitReply is lost).
function gzipChunks(chunks: RenderedChunk[]): RenderedChunk[] {
  const delayMs = chunks.reduce((total, chunk) => total + chunk.delayMs, 0);
  const bytes = gzipSync(Buffer.concat(chunks.map((chunk) => chunk.bytes)));
  return [{ delayMs, bytes, isEvent: false }];
}
