// The wire context a stack's mapping needs for one call (docs/adapter-observation.md, MapContext),
// read from the mock server's recording of that call — not from anything the client reported: the
// HTTP status of each tools/call POST, and the JSON-RPC error codes the server sent for their ids.
import { parseSseBody } from '../../runner/classify/parse-sse-body.js';
import type { ProtocolVersion, RecordedExchange } from '../../runner/vocabulary/types.js';

export interface MapContext {
  protocolVersion: ProtocolVersion;
  /** HTTP status of each tools/call POST of this call, in order; 0 = no status. */
  toolCallStatuses: number[];
  /** JSON-RPC error codes the server sent in answer to this call's tools/call ids, each once, in order. */
  peerErrorCodes: number[];
}

/** The context of the call whose exchanges these are (every request from its start to the next call's). */
export function readCallContext(exchanges: readonly RecordedExchange[], protocolVersion: ProtocolVersion): MapContext {
  const toolCalls = exchanges.filter(isToolCallPost);
  const ids = toolCalls.map((exchange) => exchange.request.rpc?.id);
  const peerErrorCodes: number[] = [];
  for (const exchange of exchanges) {
    for (const message of readResponseMessages(exchange)) {
      const error = message.error;
      if (!isRecord(error) || typeof error.code !== 'number' || !('id' in message)) continue;
      if (ids.some((id) => id === message.id) && !peerErrorCodes.includes(error.code)) peerErrorCodes.push(error.code);
    }
  }
  return { protocolVersion, toolCallStatuses: toolCalls.map((exchange) => exchange.response?.status ?? 0), peerErrorCodes };
}

/** How many tools/call requests the server received (a library's own re-sends included). */
export function countToolCalls(exchanges: readonly RecordedExchange[]): number {
  return exchanges.filter(isToolCallPost).length;
}

function isToolCallPost(exchange: RecordedExchange): boolean {
  const rpc = exchange.request.rpc;
  return exchange.request.method === 'POST' && rpc?.method === 'tools/call' && !rpc.isNotification;
}

// Every JSON object the server sent in this response: the JSON body (or each member of a batch),
// or each SSE event's data.
function readResponseMessages(exchange: RecordedExchange): Record<string, unknown>[] {
  const response = exchange.response;
  if (!response?.body) return [];
  const isSse = (response.headers['content-type'] ?? '').includes('text/event-stream');
  const texts = isSse ? parseSseBody(response.body).map((event) => event.data) : [response.body];
  return texts.flatMap((text) => {
    const value = parseJson(text);
    return (Array.isArray(value) ? value : [value]).filter(isRecord);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
