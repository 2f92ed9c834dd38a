// Builders for classifier inputs, shared by the classifier tests and the fixtures' witnesses.
import { decodeBody } from '../harness/exchange-response.js';
import type { ClassifierInput, ProtocolVersion } from '../vocabulary/types.js';

export interface InputOptions extends Partial<Omit<ClassifierInput, 'request'>> {
  /** A JSON value to serialise as the body (ignored when `body` is given). */
  message?: unknown;
}

/** Builds a classifier input: HTTP 200, application/json, request id 1, 2026-07-28 unless told. */
export function makeClassifierInput(options: InputOptions = {}): ClassifierInput {
  const { message, ...fields } = options;
  const expectedId = fields.expectedId ?? 1;
  const protocolVersion: ProtocolVersion = fields.protocolVersion ?? '2026-07-28';
  const contentType = 'contentType' in fields ? fields.contentType : 'application/json';
  const headers = fields.headers ?? (contentType === undefined ? {} : { 'content-type': contentType });
  const body = fields.body ?? (message === undefined ? '' : JSON.stringify(message));
  return {
    status: 200,
    ...fields,
    body,
    bodyBytes: fields.bodyBytes ?? new TextEncoder().encode(body),
    headers,
    contentType,
    expectedId,
    protocolVersion,
    request: { jsonrpc: '2.0', id: expectedId, method: 'tools/call', params: { name: 'synthetic_tool', arguments: {} } },
  };
}

/** A JSON-RPC success response around a result. */
export function makeResultMessage(result: unknown, id: unknown = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result };
}

/** A complete CallToolResult with one text block. */
export function makeToolResult(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { resultType: 'complete', content: [{ type: 'text', text: 'ok' }], ...extra };
}

/** An SSE body carrying each message as one `data:` event, LF line ends. */
export function makeSseBody(...messages: unknown[]): string {
  return messages.map((message) => `data: ${typeof message === 'string' ? message : JSON.stringify(message)}\n\n`).join('');
}

/** An input whose body is an SSE stream of the given raw text. */
export function makeSseInput(body: string, options: InputOptions = {}): ClassifierInput {
  return makeClassifierInput({ contentType: 'text/event-stream', ...options, body });
}

/** The UTF-8 byte order mark, EF BB BF. */
export const UTF8_BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

/**
 * An input built from response bytes as the harness builds it (decodeBody): `bodyBytes` as sent,
 * `body` after WHATWG "UTF-8 decode", which drops one leading BOM and only one.
 */
export function makeInputFromBytes(bytes: Uint8Array, options: InputOptions = {}): ClassifierInput {
  const { body, bodyBytes } = decodeBody(Buffer.from(bytes), undefined);
  return makeClassifierInput({ ...options, body, bodyBytes });
}

/** The bytes of a text after `boms` byte order marks. */
export function withBoms(boms: number, text: string): Uint8Array {
  return Uint8Array.from([...Array.from({ length: boms }, () => [...UTF8_BOM]).flat(), ...Buffer.from(text, 'utf8')]);
}
