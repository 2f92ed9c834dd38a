// The response to one harness call as a classifier sees it, and the decoding both modes share.
import { constants, gunzipSync } from 'node:zlib';
import { DECODED_BODY_MAX_BYTES } from '../io/input-caps.js';
import { formatByteCap } from '../io/read-user-file.js';
import type { TransportErrorKind } from '../vocabulary/types.js';

/** One exchange's response: what arrived, and how the transport failed if it did. */
export interface ExchangeResponse {
  /** 0 when no status line arrived. */
  status: number;
  /** Names lower-cased; hop-by-hop framing headers left out (they differ per connection, not per response). */
  headers: Record<string, string>;
  contentType: string | undefined;
  /** The body as WHATWG `Response.text()` gives it: gzip decoded, UTF-8 decoded, one leading BOM dropped. */
  body: string;
  /** The body's bytes after gzip decoding and before any text decoding (`Response.arrayBuffer()`): a BOM is still there. */
  bodyBytes: Uint8Array;
  transportError?: { kind: TransportErrorKind; message: string };
}

// Connection-level headers Node adds or undici consumes; a classifier gains nothing from them.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/** Lower-cases names, joins repeated headers with ", " and drops hop-by-hop headers. */
export function normalizeResponseHeaders(headers: Iterable<[string, string | string[] | undefined]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of headers) {
    const name = rawName.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = name in out ? `${out[name]}, ${text}` : text;
  }
  return out;
}

/**
 * A gzip body that decodes to more than the cap: a decompression bomb in the case (issue 11 item 5).
 * The cell becomes an error with this message; it is the case's doing, not a harness bug.
 */
export class DecodedBodyTooLargeError extends Error {
  constructor(readonly encodedBytes: number) {
    super(`the gzip response body (${encodedBytes} bytes) decodes to more than the ${formatByteCap(DECODED_BODY_MAX_BYTES)} cap on a decoded body; decoding stopped there (a decompression bomb)`);
    this.name = 'DecodedBodyTooLargeError';
  }
}

/** A decoded body: its text and the bytes the text was decoded from. */
export interface DecodedBody {
  body: string;
  bodyBytes: Uint8Array;
}

// WHATWG "UTF-8 decode" (Encoding § 4.1), what fetch's Response.text() applies: invalid sequences
// become U+FFFD and one leading BOM is dropped. TextDecoder with its defaults is that algorithm.
const utf8 = new TextDecoder('utf-8');

/** Decodes body bytes as fetch would: gunzip when gzip-encoded (also a truncated stream), then UTF-8 decode. */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined): DecodedBody {
  let decoded = bytes;
  if (contentEncoding?.trim().toLowerCase() === 'gzip' && bytes.length > 0) {
    try {
      // Z_SYNC_FLUSH lets a body cut short by a reset or timeout decode as far as it got;
      // maxOutputLength stops a bomb before it is inflated into memory.
      decoded = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: DECODED_BODY_MAX_BYTES });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new DecodedBodyTooLargeError(bytes.length);
      decoded = bytes;
    }
  }
  // A plain Uint8Array copy: a Buffer may share a pooled ArrayBuffer, and a classifier gets its own bytes.
  return { body: utf8.decode(decoded), bodyBytes: new Uint8Array(decoded) };
}

/**
 * The text a client reads for a body that was recorded with every byte kept (the mock server
 * records `Buffer#toString('utf8')`, which keeps a BOM): WHATWG "UTF-8 decode" drops the first
 * leading BOM, and only the first; a second one is data.
 */
export function readRecordedBodyText(recorded: string): string {
  return recorded.charCodeAt(0) === 0xfeff ? recorded.slice(1) : recorded;
}

/** The decoded form of an empty body. */
export function decodeEmptyBody(): DecodedBody {
  return { body: '', bodyBytes: new Uint8Array(0) };
}

/** The transport error both modes report, with fixed messages so the two modes compare equal. */
export function createTransportError(kind: TransportErrorKind, timeoutMs: number): NonNullable<ExchangeResponse['transportError']> {
  const messages: Record<TransportErrorKind, string> = {
    timeout: `no complete response within ${timeoutMs} ms`,
    reset: 'connection reset by the server',
    refused: 'connection refused',
    closed: 'connection closed before the response was complete',
  };
  return { kind, message: messages[kind] };
}
