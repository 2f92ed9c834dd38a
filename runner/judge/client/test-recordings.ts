// Test support: recordings built by hand, so the client judge's rules can be tested without a
// server (and fast enough for StrykerJS to run them per mutant).
import type { ProtocolVersion, RecordedExchange, Recording } from '../../vocabulary/types.js';

const SUCCESS_BODY = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } });

export interface PostOptions {
  id?: unknown;
  /** The tools/call params; `name` defaults to synthetic_tool. */
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The answer: HTTP status and body (a success result for the request id by default); 0: no status line. */
  status?: number;
  /** How the answer ended on the socket. @default 'complete' */
  ending?: 'complete' | 'reset' | 'hang' | 'client_closed';
  body?: string;
  responseHeaders?: Record<string, string>;
  at?: number;
  endedAt?: number;
  scriptStep?: number;
}

/** A recording of the given exchanges, numbered in order. */
export function makeClientRecording(...exchanges: Omit<RecordedExchange, 'seq'>[]): Recording {
  return { url: 'http://127.0.0.1:40123/mcp', exchanges: exchanges.map((exchange, seq) => ({ seq, ...exchange })) };
}

/** A tools/call POST and its answer. */
export function makeToolCallPost(options: PostOptions = {}): Omit<RecordedExchange, 'seq'> {
  const id = options.id ?? 1;
  const params = { name: 'synthetic_tool', arguments: {}, ...options.params };
  const at = options.at ?? 10;
  return {
    at,
    request: {
      method: 'POST',
      path: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
      rpc: { method: 'tools/call', id, params, isNotification: false, isResponse: false },
      ...(options.scriptStep === undefined ? {} : { scriptStep: options.scriptStep }),
    },
    response: {
      status: options.status === 0 ? undefined : (options.status ?? 200),
      headers: options.status === 0 ? {} : { 'content-type': 'application/json', ...options.responseHeaders },
      body: options.body ?? (options.status === 0 ? '' : SUCCESS_BODY(id)),
      ending: options.ending ?? 'complete',
      endedAt: options.endedAt ?? at + 1,
    },
  };
}

/** A 2025-11-25 initialize POST whose answer issues `sessionId` (none when undefined). */
export function makeInitializePost(sessionId: string | undefined, version: ProtocolVersion = '2025-11-25'): Omit<RecordedExchange, 'seq'> {
  const params = { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } };
  return {
    at: 1,
    request: {
      method: 'POST',
      path: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }),
      rpc: { method: 'initialize', id: 0, params, isNotification: false, isResponse: false },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 's', version: '1' } } }),
      ending: 'complete',
      endedAt: 2,
    },
  };
}
