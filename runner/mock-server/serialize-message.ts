// Serialises a scripted JSON-RPC message with the response id the exchange's id mode asks for.
import type { IdMode } from '../cases/case-types.js';

/** The id a response carries: absent, or the exact JSON text to write. */
export type ResponseIdText = { present: false } | { present: true; text: string };

// A marker that cannot occur in scripted JSON once stringified: the NUL characters are
// escaped by JSON.stringify, so the quoted marker text is unique in the output.
const ID_MARKER = '\u0000mcp-error-matrix-id\u0000';
const QUOTED_ID_MARKER = JSON.stringify(ID_MARKER);

/** Computes the response id text for a request id under an id mode (default `echo`). */
export function getResponseIdText(mode: IdMode | undefined, requestId: unknown, idPresent: boolean): ResponseIdText {
  const chosen = mode ?? 'echo';
  if (typeof chosen === 'object') return { present: true, text: stringifyValue(chosen.literal) };
  if (chosen === 'omit') return { present: false };
  if (chosen === 'null') return { present: true, text: 'null' };
  // The remaining modes derive from the request id; a request without one leaves nothing to derive.
  if (!idPresent) return { present: false };
  switch (chosen) {
    case 'echo':
      return { present: true, text: stringifyValue(requestId) };
    case 'as-string':
      return { present: true, text: JSON.stringify(typeof requestId === 'string' ? requestId : stringifyValue(requestId)) };
    case 'as-number':
      return { present: true, text: isNumericString(requestId) ? String(Number(requestId)) : stringifyValue(requestId) };
    case 'as-float':
      return { present: true, text: toFloatText(requestId) };
  }
}

/**
 * Serialises a message compactly (or pretty with 2 spaces), placing `id` after `jsonrpc`. A batch
 * array's object members are messages too: each member without an `id` of its own gets the id as a
 * lone message would, so a batch answers the id the client sent; a member that names its own id
 * (another request's answer, the subject of the case) keeps it.
 */
export function serializeMessage(message: unknown, id: ResponseIdText, pretty = false): string {
  const space = pretty ? 2 : undefined;
  const shaped = Array.isArray(message) ? message.map((member) => (isPlainObject(member) && 'id' in member ? member : placeId(member, id))) : placeId(message, id);
  const text = stringifyValue(shaped, space);
  return id.present ? text.replaceAll(QUOTED_ID_MARKER, id.text) : text;
}

// An object with its id (or none) right after `jsonrpc`; anything else as it is.
function placeId(message: unknown, id: ResponseIdText): unknown {
  if (!isPlainObject(message)) return message;
  const ordered: Record<string, unknown> = {};
  if ('jsonrpc' in message) ordered.jsonrpc = message.jsonrpc;
  if (id.present) ordered.id = ID_MARKER;
  for (const [key, value] of Object.entries(message)) {
    if (key !== 'jsonrpc' && key !== 'id') ordered[key] = value;
  }
  return ordered;
}

/** Plain JSON objects get an id injected (alone or as batch members); strings, numbers and null do not. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// JSON.stringify returns undefined for undefined; a scripted value always needs some text.
function stringifyValue(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space) ?? 'null';
}

function isNumericString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value));
}

function toFloatText(requestId: unknown): string {
  const numeric = typeof requestId === 'number' ? requestId : isNumericString(requestId) ? Number(requestId) : undefined;
  if (numeric === undefined) return stringifyValue(requestId);
  // `1` must appear as `1.0` in the bytes: JSON.stringify never writes that form.
  return Number.isInteger(numeric) ? `${String(numeric)}.0` : String(numeric);
}
