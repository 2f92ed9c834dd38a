// Decides what the mock server answers to one request: a script step or a built-in reply.
import { randomUUID } from 'node:crypto';
import type { Case, ResponseSpec, SseEvent } from '../cases/case-types.js';
import type { ProtocolVersion, RecordedRequest } from '../vocabulary/types.js';
import { allowsBatching, hasInitializeSession, hasProtocolVersionHeader, hasStreamResumption } from '../vocabulary/version-features.js';
import * as replies from './mcp-replies.js';

export const MCP_PATH = '/mcp';

/** The mutable per-server state the router owns. */
export interface RouterState {
  nextStep: number;
  /** Session ids (versions before 2026-07-28) → tools/call requests seen in that session. */
  sessions: Map<string, number>;
  /** Scripted SSE streams already played, for GET resumption (versions before 2026-07-28). */
  streams: PlayedStream[];
}

export interface PlayedStream {
  spec: ResponseSpec;
  events: SseEvent[];
  requestId: unknown;
  idPresent: boolean;
}

export interface RouteDecision {
  spec: ResponseSpec;
  requestId: unknown;
  idPresent: boolean;
  /** The script step this request consumed. */
  scriptStep?: number;
}

/** Creates empty router state for one server. */
export function createRouterState(): RouterState {
  return { nextStep: 0, sessions: new Map(), streams: [] };
}

/** Routes one parsed request; `parsed` is the JSON body (undefined when absent or not JSON). */
export function routeRequest(
  state: RouterState,
  testCase: Case,
  version: ProtocolVersion,
  request: RecordedRequest,
  parsed: { ok: true; value: unknown } | { ok: false },
): RouteDecision {
  const rpc = request.rpc;
  const requestId = rpc?.id;
  const idPresent = rpc !== undefined && rpc.id !== undefined && !rpc.isNotification;
  // An error response carries the request's id whenever it could be read: always before 2025-11-25
  // (LEGACY 2.7), and from then on too, where only an unreadable id may be omitted (B25 § Error Responses).
  const reply = (spec: ResponseSpec): RouteDecision => ({ spec: idPresent && spec.id === 'omit' ? { ...spec, id: 'echo' } : spec, requestId, idPresent });
  if (request.path.split('?')[0] !== MCP_PATH) return reply(replies.createEmptyReply(404));
  if (request.method === 'POST' && testCase.counts === 'every-post') return consumeStep(state, testCase, requestId, idPresent);
  if (request.method === 'GET' || request.method === 'DELETE') return routeGetOrDelete(state, testCase, version, request);
  if (request.method !== 'POST') return reply(replies.createEmptyReply(405, { Allow: 'GET, POST, DELETE' }));
  if (!parsed.ok) return reply(replies.createErrorReply(400, -32700, 'Parse error', false));
  const batch = rpc === undefined && allowsBatching(version) && Array.isArray(parsed.value) ? parsed.value : undefined;
  if (rpc === undefined && !batch) return reply(replies.createErrorReply(400, -32600, 'Invalid Request: one JSON-RPC message per POST', false));
  if (hasInitializeSession(version) && rpc?.method !== 'initialize') {
    const refusal = checkSession(state, testCase, request) ?? checkVersionHeader(version, request);
    if (refusal) return reply(refusal);
  }
  if (rpc === undefined) return routeBatch(state, testCase, version, batch ?? []);
  // Notifications and client responses are accepted with 202 and no body (T25/SH26 § Sending Messages).
  if (rpc.isNotification || rpc.isResponse) return reply(replies.createEmptyReply(202));
  switch (rpc.method) {
    case 'tools/call':
      return consumeStep(state, testCase, requestId, idPresent);
    case 'tools/list':
      return reply(replies.createResultReply(replies.createToolsListResult(testCase, version)));
  }
  return hasInitializeSession(version) ? routeLegacyMethod(state, testCase, version, rpc.method, reply) : routeModernMethod(rpc, reply);
}

// 2025-03-26 § Sending Messages to the Server, items 3–5 (LEGACY 1.3–1.5): a POST may batch
// requests, notifications and responses. Only notifications and responses: 202, no body. With
// requests: one JSON array answering each request by its id (JR § 6), in the order sent.
// `initialize` MUST NOT be batched (L0326 § Initialization).
function routeBatch(state: RouterState, testCase: Case, version: ProtocolVersion, batch: unknown[]): RouteDecision {
  const reply = (spec: ResponseSpec, scriptStep?: number): RouteDecision => ({ spec, requestId: undefined, idPresent: false, ...(scriptStep === undefined ? {} : { scriptStep }) });
  if (batch.length === 0) return reply(replies.createErrorReply(400, -32600, 'Invalid Request: empty batch', false));
  const requests = batch.filter(isBatchedRequest);
  if (requests.length === 0) return reply(replies.createEmptyReply(202));
  if (requests.some((request) => request.method === 'initialize')) {
    return reply(replies.createErrorReply(400, -32600, 'Invalid Request: initialize MUST NOT be part of a JSON-RPC batch', false));
  }
  if (requests.filter((request) => request.method === 'tools/call').length > 1 || (requests.some((request) => request.method === 'tools/call') && !canBatchNextStep(state, testCase))) {
    return reply(replies.createErrorReply(400, -32600, "Invalid Request: this case's scripted answer to tools/call is not one plain 200 JSON message, so it cannot be a batch member; send tools/call in a POST of its own", false));
  }
  let scriptStep: number | undefined;
  const members = requests.map((request) => {
    const answer = (member: Record<string, unknown>): Record<string, unknown> => ({ jsonrpc: '2.0', id: request.id, ...member });
    if (request.method === 'tools/call') {
      const step = consumeStep(state, testCase, request.id, true);
      scriptStep = step.scriptStep;
      const { jsonrpc: _jsonrpc, id: _id, ...message } = (step.spec.body as { json: Record<string, unknown> }).json;
      return answer(message);
    }
    if (request.method === 'ping') return answer({ result: {} });
    if (request.method === 'tools/list') return answer({ result: replies.createToolsListResult(testCase, version) });
    return answer({ error: { code: -32601, message: 'Method not found' } });
  });
  return reply({ status: 200, body: { json: members } }, scriptStep);
}

function isBatchedRequest(item: unknown): item is { method: string; id: unknown } {
  return typeof item === 'object' && item !== null && typeof (item as { method?: unknown }).method === 'string' && 'id' in item;
}

// A scripted answer joins a batch reply only as what a batch member is: one JSON-RPC message,
// answering by the request's id, with nothing shaped at the HTTP level.
function canBatchNextStep(state: RouterState, testCase: Case): boolean {
  const exchange = testCase.exchanges[Math.min(state.nextStep, testCase.exchanges.length - 1)];
  if (state.nextStep >= testCase.exchanges.length && testCase.afterScript === 'baseline') return true;
  const spec = exchange?.response;
  if (!spec?.body || !('json' in spec.body)) return false;
  const json = spec.body.json;
  const plain = Object.keys(spec).every((key) => key === 'body' || key === 'status' || key === 'id');
  return plain && (spec.status ?? 200) === 200 && (spec.id ?? 'echo') === 'echo' && typeof json === 'object' && json !== null && !Array.isArray(json);
}

function routeLegacyMethod(
  state: RouterState,
  testCase: Case,
  version: ProtocolVersion,
  method: string | undefined,
  reply: (spec: ResponseSpec) => RouteDecision,
): RouteDecision {
  if (method === 'initialize') {
    const headers: Record<string, string> = {};
    if (testCase.server?.sessionId !== false) {
      const sessionId = randomUUID();
      state.sessions.set(sessionId, 0);
      headers['MCP-Session-Id'] = sessionId;
    }
    // The server speaks only the cell's version: it answers every offer with it (L0326 § Version Negotiation).
    return reply(replies.createResultReply(replies.createInitializeResult(testCase, version), headers));
  }
  if (method === 'ping') return reply(replies.createResultReply({}));
  return reply(replies.createErrorReply(200, -32601, 'Method not found'));
}

function routeModernMethod(rpc: NonNullable<RecordedRequest['rpc']>, reply: (spec: ResponseSpec) => RouteDecision): RouteDecision {
  if (rpc.method === 'server/discover') return reply(replies.createResultReply(replies.createDiscoverResult()));
  if (rpc.method === 'initialize') {
    // A 2026-only server answers an initialization-era client with UnsupportedProtocolVersion (V26).
    const params = rpc.params as { protocolVersion?: unknown } | undefined;
    const data = { supported: ['2026-07-28'], requested: String(params?.protocolVersion ?? '') };
    return reply({ status: 400, body: { json: { jsonrpc: '2.0', error: { code: -32022, message: 'Unsupported protocol version', data } } } });
  }
  // 2026: an unimplemented method is 404 + -32601 (SH26 § Protocol Version Header).
  return reply(replies.createErrorReply(404, -32601, 'Method not found'));
}

// T0618/T25 § Protocol Version Header: a server MUST answer 400 to an invalid or unsupported
// MCP-Protocol-Version; this one speaks only the cell's version. An absent header is no invalid
// one: the server tells the version from the session (LEGACY 1.14–1.16). A 2025-03-26 server has
// no such header (1.13) and reads none.
function checkVersionHeader(version: ProtocolVersion, request: RecordedRequest): ResponseSpec | undefined {
  const sent = request.headers['mcp-protocol-version'];
  if (!hasProtocolVersionHeader(version) || sent === undefined || sent === version) return undefined;
  return replies.createErrorReply(400, -32600, `Bad Request: unsupported protocol version ${JSON.stringify(sent)} (this session speaks ${version})`, false);
}

// T0326/T0618/T25 § Session Management: no id → 400, unknown or expired id → 404.
function checkSession(state: RouterState, testCase: Case, request: RecordedRequest): ResponseSpec | undefined {
  if (testCase.server?.sessionId === false) return undefined;
  const sessionId = request.headers['mcp-session-id'];
  if (sessionId === undefined) return replies.createErrorReply(400, -32600, 'Bad Request: missing MCP-Session-Id', false);
  const calls = state.sessions.get(sessionId);
  if (calls === undefined) return replies.createErrorReply(404, -32600, 'Session not found', false);
  const limit = testCase.server?.expireSessionAfterCalls;
  if (request.rpc?.method === 'tools/call' && limit !== undefined) {
    if (calls >= limit) {
      state.sessions.delete(sessionId);
      return replies.createErrorReply(404, -32600, 'Session expired', false);
    }
    state.sessions.set(sessionId, calls + 1);
    if (calls + 1 >= limit) state.sessions.delete(sessionId);
  }
  return undefined;
}

function routeGetOrDelete(state: RouterState, testCase: Case, version: ProtocolVersion, request: RecordedRequest): RouteDecision {
  const reply = (spec: ResponseSpec): RouteDecision => ({ spec, requestId: undefined, idPresent: false });
  if (!hasStreamResumption(version)) return reply(replies.createEmptyReply(405, { Allow: 'POST' }));
  const refusal = checkSession(state, testCase, request) ?? checkVersionHeader(version, request);
  if (refusal) return reply(refusal);
  if (request.method === 'DELETE') {
    // A session can be ended by the client; without sessions there is nothing to delete.
    if (testCase.server?.sessionId === false) return reply(replies.createEmptyReply(405, { Allow: 'GET, POST' }));
    state.sessions.delete(request.headers['mcp-session-id'] ?? '');
    return reply(replies.createEmptyReply(200));
  }
  if (testCase.server?.get !== 'resume') return reply(replies.createEmptyReply(405, { Allow: 'POST, DELETE' }));
  return resumeStream(state, request.headers['last-event-id']);
}

// T0326/T25 § Resumability and Redelivery: replay the events after Last-Event-ID of the stream that sent it.
function resumeStream(state: RouterState, lastEventId: string | undefined): RouteDecision {
  for (const stream of [...state.streams].reverse()) {
    const index = stream.events.findIndex((event) => event.id !== undefined && event.id === lastEventId);
    if (index < 0) continue;
    const sse = stream.spec.body && 'sse' in stream.spec.body ? stream.spec.body.sse : undefined;
    const spec: ResponseSpec = {
      ...(stream.spec.id !== undefined ? { id: stream.spec.id } : {}),
      body: { sse: { events: stream.events.slice(index + 1).map(clearResumeOnly), end: 'close', ...(sse?.lineEnding ? { lineEnding: sse.lineEnding } : {}) } },
    };
    return { spec, requestId: stream.requestId, idPresent: stream.idPresent };
  }
  // No matching stream: a standalone stream that stays open and quiet (closed by the client or close()).
  return { spec: { body: { sse: { events: [], end: 'hang' } } }, requestId: undefined, idPresent: false };
}

// On the resumed GET stream a resume-only event is an ordinary event.
function clearResumeOnly({ resumeOnly: _resumeOnly, ...event }: SseEvent): SseEvent {
  return event;
}

function consumeStep(state: RouterState, testCase: Case, requestId: unknown, idPresent: boolean): RouteDecision {
  const exchanges = testCase.exchanges;
  const index = state.nextStep++;
  let step = index;
  if (index >= exchanges.length) {
    if (testCase.afterScript === 'baseline') return { spec: replies.createBaselineReply(), requestId, idPresent };
    step = exchanges.length - 1;
  }
  const spec = exchanges[step]!.response;
  if (spec.body && 'sse' in spec.body) state.streams.push({ spec, events: spec.body.sse.events, requestId, idPresent });
  return { spec, requestId, idPresent, scriptStep: step };
}
