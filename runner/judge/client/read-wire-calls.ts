// Reads the tools/call POSTs out of a recording, each with what the server answered and what
// that answer meant (read by the reference classifier, so "final", "input required" and
// "broken" mean the same here as everywhere else in the project).
import { classifyReference } from '../../classify/reference.js';
import { parseSseBody } from '../../classify/parse-sse-body.js';
import { readRecordedBodyText } from '../../harness/exchange-response.js';
import type { ClassifierInput, Outcome, PublishedClassifierInput, ProtocolVersion, RecordedExchange, Recording, TransportErrorKind } from '../../vocabulary/types.js';

export interface WireCall {
  /** 1-based position among the tools/call POSTs. */
  n: number;
  /** 1-based position in the whole recording (the transcript number). */
  transcript: number;
  exchange: RecordedExchange;
  id: unknown;
  params: Record<string, unknown>;
  headers: Record<string, string>;
  /** An MRTR follow-up: it carries inputResponses or requestState. */
  isFollowUp: boolean;
  /** What the answer was, as the reference classifier reads it. */
  outcome: Outcome;
  /** The JSON-RPC result the server sent for this request, when there was one. */
  result: Record<string, unknown> | undefined;
  /** A final answer: a complete result, a tool error or a JSON-RPC error. */
  isFinal: boolean;
}

const FINAL_OUTCOMES: ReadonlySet<Outcome> = new Set(['TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR']);

/** The tools/call POSTs of a recording, in arrival order. */
export function readWireCalls(recording: Recording | undefined, version: ProtocolVersion): WireCall[] {
  const calls: WireCall[] = [];
  for (const exchange of recording?.exchanges ?? []) {
    const rpc = exchange.request.rpc;
    if (exchange.request.method !== 'POST' || rpc?.method !== 'tools/call' || rpc.isNotification) continue;
    const params = isRecord(rpc.params) ? rpc.params : {};
    const outcome = classifyRecorded(exchange, version, rpc.id);
    calls.push({
      n: calls.length + 1,
      transcript: exchange.seq + 1,
      exchange,
      id: rpc.id,
      params,
      headers: exchange.request.headers,
      isFollowUp: 'inputResponses' in params || 'requestState' in params,
      outcome,
      result: findResult(exchange, rpc.id),
      isFinal: FINAL_OUTCOMES.has(outcome),
    });
  }
  return calls;
}

function classifyRecorded(exchange: RecordedExchange, version: ProtocolVersion, id: unknown): Outcome {
  const response = exchange.response;
  const transportError = getTransportError(response?.ending, response?.status);
  // The recording keeps the body as text only; the reference reads the published shape's fields and
  // needs no bytes, no request beyond its id, and finds the content type among the headers.
  const input: PublishedClassifierInput = {
    status: response?.status ?? 0,
    headers: response?.headers ?? {},
    body: readRecordedBodyText(response?.body ?? ''),
    expectedId: id as string | number,
    protocolVersion: version,
    ...(transportError ? { transportError } : {}),
  };
  return classifyReference(input).outcome;
}

// Only whether there is a transport error decides the reference's outcome (a body cut short is
// STREAM_INCOMPLETE, not MALFORMED_JSON); its kind and message reach only the verdict's detail.
function getTransportError(ending: string | undefined, status: number | undefined): ClassifierInput['transportError'] {
  const kinds: Record<string, TransportErrorKind> = { reset: 'reset', hang: 'timeout', client_closed: 'closed' };
  const kind = ending === undefined ? 'timeout' : kinds[ending];
  if (kind === undefined) return undefined;
  return { kind, message: status === undefined ? `no status line (${ending ?? 'no response'})` : `the body ended early (${ending})` };
}

// The response message for this request: the JSON body, or the SSE event that carries the id.
function findResult(exchange: RecordedExchange, id: unknown): Record<string, unknown> | undefined {
  const response = exchange.response;
  if (!response?.body) return undefined;
  const contentType = response.headers['content-type'] ?? '';
  const body = readRecordedBodyText(response.body);
  const candidates = contentType.includes('text/event-stream') ? parseSseBody(body).map((event) => event.data) : [body];
  for (const text of candidates) {
    const message = parseObject(text);
    if (message && 'result' in message && message.id === id && isRecord(message.result)) return message.result;
  }
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a value is a JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
