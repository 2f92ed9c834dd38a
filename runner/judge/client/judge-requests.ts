// What the client put on the wire per request: the headers each version requires on a
// tools/call POST (WIRE-FACTS §1.1) and the schema validity of every message it sent.
import type { Check, ProtocolVersion, Recording, SchemaResult } from '../../vocabulary/types.js';
import { hasInitializeSession, hasProtocolVersionHeader } from '../../vocabulary/version-features.js';
import { makeCheck } from '../make-check.js';
import { isRecord, type WireCall } from './read-wire-calls.js';

/** Checks one message a client sent against the pinned schema of a version. */
export type CheckRequestMessage = (version: ProtocolVersion, message: unknown) => { definition: string; valid: boolean; errors: string[] };

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** `header.<name>@n` checks (MUST) for the n-th tools/call POST. */
export function judgeRequestHeaders(version: ProtocolVersion, calls: WireCall[], recording: Recording | undefined): Check[] {
  const checks: Check[] = [];
  for (const call of calls) {
    const at = { exchange: call.transcript };
    const header = (name: string): string | undefined => call.headers[name];
    const accept = (header('accept') ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
    const hasBoth = accept.includes('application/json') && accept.includes('text/event-stream');
    checks.push(makeCheck({ id: `header.accept@${call.n}`, level: 'MUST', expected: 'application/json, text/event-stream', actual: header('accept'), passed: hasBoth, ...at }));
    if (hasInitializeSession(version)) {
      // T0618 § Protocol Version Header: required from 2025-06-18; a 2025-03-26 client has no such header (LEGACY 1.13).
      if (hasProtocolVersionHeader(version)) {
        const sent = header('mcp-protocol-version');
        checks.push(makeCheck({ id: `header.protocol-version@${call.n}`, level: 'MUST', expected: 'present', actual: sent, passed: sent !== undefined, ...at }));
      }
      const issued = getIssuedSessionIds(recording, call.exchange.seq);
      if (issued.length > 0) {
        const sessionId = header('mcp-session-id');
        const passed = sessionId !== undefined && issued.includes(sessionId);
        checks.push(makeCheck({ id: `header.session-id@${call.n}`, level: 'MUST', expected: issued.at(-1), actual: sessionId, passed, ...at }));
      }
    } else {
      const meta = isRecord(call.params._meta) ? call.params._meta[META_VERSION] : undefined;
      checks.push(makeCheck({ id: `header.protocol-version@${call.n}`, level: 'MUST', expected: meta ?? version, actual: header('mcp-protocol-version'), ...at }));
      checks.push(makeCheck({ id: `header.mcp-method@${call.n}`, level: 'MUST', expected: 'tools/call', actual: header('mcp-method'), ...at }));
      const name = header('mcp-name');
      checks.push(makeCheck({ id: `header.mcp-name@${call.n}`, level: 'MUST', expected: call.params.name, actual: name === undefined ? undefined : decodeHeaderValue(name), ...at }));
    }
  }
  return checks;
}

/** Schema results (sender `target`) and a `schema.request@e` check for every JSON message the client POSTed. */
export function judgeRequestSchemas(version: ProtocolVersion, recording: Recording | undefined, checkRequest: CheckRequestMessage): { checks: Check[]; schema: SchemaResult[] } {
  const checks: Check[] = [];
  const schema: SchemaResult[] = [];
  for (const exchange of recording?.exchanges ?? []) {
    if (exchange.request.method !== 'POST' || exchange.request.rpc === undefined) continue;
    let message: unknown;
    try {
      message = JSON.parse(exchange.request.body);
    } catch {
      continue;
    }
    const result = checkRequest(version, message);
    schema.push({ version, definition: result.definition, valid: result.valid, errors: result.errors, sender: 'target', exchange: exchange.seq });
    const what = exchange.request.rpc.method ?? 'response';
    const id = `schema.request@${exchange.seq + 1}`;
    checks.push(
      makeCheck({
        id,
        level: 'MUST',
        expected: `valid ${result.definition}`,
        actual: result.valid ? 'valid' : result.errors,
        passed: result.valid,
        exchange: exchange.seq + 1,
        message: result.valid ? `${id}: ${what} is a valid ${result.definition}` : `${id}: ${what} is not a valid ${result.definition}: ${result.errors[0] ?? ''}`,
      }),
    );
  }
  return { checks, schema };
}

// T25 § Session Management: the ids the server handed out (in initialize answers) before a request.
function getIssuedSessionIds(recording: Recording | undefined, beforeSeq: number): string[] {
  return (recording?.exchanges ?? [])
    .filter((exchange) => exchange.seq < beforeSeq && exchange.request.rpc?.method === 'initialize')
    .flatMap((exchange) => {
      const id = exchange.response?.headers['mcp-session-id'];
      return id === undefined ? [] : [id];
    });
}

// SH26 § Value Encoding: `=?base64?…?=` carries UTF-8 that a plain header value cannot.
function decodeHeaderValue(value: string): string {
  const match = /^=\?base64\?(.*)\?=$/.exec(value);
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : value;
}
