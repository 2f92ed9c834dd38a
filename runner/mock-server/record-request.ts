// Reads and records one incoming HTTP request, with its JSON-RPC shape when it has one.
import type { IncomingMessage } from 'node:http';
import { freezeParsedJson } from '../cases/freeze-parsed-json.js';
import type { RecordedExchange, RecordedRequest } from '../vocabulary/types.js';

/** Bodies above this size are refused with 413 (the mock server is a test fixture, not a sink). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ReadRequest {
  recorded: RecordedRequest;
  parsed: { ok: true; value: unknown } | { ok: false };
  tooLarge: boolean;
}

/** Reads the body (up to the cap) and builds the request record. */
export async function readRequest(req: IncomingMessage): Promise<ReadRequest> {
  const { bytes, tooLarge } = await readBody(req);
  const body = bytes.toString('utf8');
  const recorded: RecordedRequest = {
    method: req.method ?? '',
    path: req.url ?? '',
    headers: normalizeHeaders(req.headers),
    body,
  };
  const parsed = tooLarge || body.trim() === '' ? ({ ok: false } as const) : parseJson(body);
  if (parsed.ok) {
    const rpc = describeRpc(parsed.value);
    if (rpc) recorded.rpc = rpc;
  }
  return { recorded, parsed, tooLarge };
}

/** Lower-cases names and joins repeated headers, as recorded and as the harness reports them. */
export function normalizeHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || !Object.hasOwn(headers, name)) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function describeRpc(value: unknown): RecordedRequest['rpc'] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  const method = typeof message.method === 'string' ? message.method : undefined;
  const hasId = 'id' in message;
  const rpc: NonNullable<RecordedRequest['rpc']> = {
    isNotification: method !== undefined && !hasId,
    isResponse: method === undefined && hasId && ('result' in message || 'error' in message),
  };
  if (method !== undefined) rpc.method = method;
  if (hasId) rpc.id = message.id;
  if ('params' in message) rpc.params = message.params;
  return rpc;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function readBody(req: IncomingMessage): Promise<{ bytes: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      // Keep draining (so the 413 can be written) but stop collecting.
      tooLarge = true;
      resolve({ bytes: Buffer.concat(chunks), tooLarge });
    });
    // Most bodies arrive in one chunk: no copy then.
    req.on('end', () => resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), tooLarge }));
    req.on('error', reject);
  });
}

/**
 * Freezes an exchange the server is done with, knowing its shape: only the JSON-RPC message the
 * request carried (parsed from the body) is walked as data of any shape.
 */
export function freezeRecordedExchange(exchange: RecordedExchange): RecordedExchange {
  const { request, response } = exchange;
  Object.freeze(request.headers);
  if (request.rpc) freezeParsedJson(request.rpc);
  Object.freeze(request);
  if (response) {
    Object.freeze(response.headers);
    if (response.events) for (const event of Object.freeze(response.events)) Object.freeze(event);
    Object.freeze(response);
  }
  return Object.freeze(exchange);
}
