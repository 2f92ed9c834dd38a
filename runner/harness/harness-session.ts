// The well-behaved MCP client around the call being classified: lifecycle, headers, replies.
import { createParser } from 'eventsource-parser';
import type { Dispatcher } from 'undici';
import type { ToolSpec } from '../cases/case-types.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion, type ToolCallRequest } from '../vocabulary/types.js';
import { allowsBatching, hasInitializeSession, hasProtocolVersionHeader } from '../vocabulary/version-features.js';
import { answerInputRequest, getHarnessCapabilities, HARNESS_CLIENT_INFO } from './build-tool-call-request.js';
import type { ExchangeResponse } from './exchange-response.js';
import { createPostDeadlines, type PostDeadlines } from './post-deadlines.js';
import { postMessage } from './post-message.js';
import { buildModernHeaders } from './request-headers.js';

export interface HarnessSessionOptions {
  url: string;
  protocolVersion: ProtocolVersion;
  /** Budget for each POST. */
  timeoutMs: number;
  /** Stops every POST of the session, as a timeout; it gets one listener while the session is open (a signal of the cell's own, not the run's). */
  signal?: AbortSignal;
  /** The called tool, for 2026 `Mcp-Param-*` headers (x-mcp-header); optional. */
  tool?: ToolSpec;
  /** Keep-alive connections to the url's origin shared with other sessions (left open by close()); without it the session opens its own and closes them. */
  connections?: Dispatcher;
}

export interface HarnessSession {
  /** Versions before 2026-07-28: the session id the server issued, if any. */
  readonly sessionId: string | undefined;
  /** Versions before 2026-07-28: the initialize and notifications/initialized responses, for diagnostics. */
  readonly setup: ExchangeResponse[];
  call(request: ToolCallRequest): Promise<ExchangeResponse>;
  close(): Promise<void>;
}

const ACCEPT = 'application/json, text/event-stream';

/** The headers every harness POST starts with, in sending order. */
function createBaseHeaders(): Record<string, string> {
  return { accept: ACCEPT, 'content-type': 'application/json' };
}

/**
 * The harness's own lifecycle (initialize, notifications/initialized) got no complete answer: the
 * session does not exist, so a call sent now would measure the harness, not the case.
 */
export class HarnessSetupError extends Error {
  override name = 'HarnessSetupError';
  constructor(
    message: string,
    /** The setup request timed out (the server in this process did not get to answer: load), rather than failed. */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** How many times the per-exchange timeout the harness waits for its own initialize and notifications/initialized. */
export const SETUP_PATIENCE = 3;

/** Opens a session: versions before 2026-07-28 initialize (keeping the session id); 2026-07-28 is stateless. */
export async function openHarnessSession(options: HarnessSessionOptions): Promise<HarnessSession> {
  const url = new URL(options.url);
  // undici is imported on first use: direct mode never opens a session and saves its ~150 ms load.
  const pool = options.connections ?? new (await import('undici')).Pool(url.origin);
  const path = url.pathname + url.search;
  const setup: ExchangeResponse[] = [];
  let sessionId: string | undefined;
  let negotiatedVersion: string = options.protocolVersion;
  // Each POST has its own budget of timeoutMs; one timer and one link to the signal serve them all.
  const deadlines = createPostDeadlines(options.timeoutMs, options.signal);
  const post = (body: unknown, headers: Record<string, string>, onChunk?: (bytes: Buffer, type: string | undefined) => void) =>
    postMessage({ dispatcher: pool, path, headers, body: JSON.stringify(body), deadlines, timeoutMs: options.timeoutMs, onChunk });
  // The harness's own lifecycle is not what a cell measures: it waits SETUP_PATIENCE times longer,
  // so a runner busy starting many cells at once (the default run's first seconds) still sets up.
  const setupTimeoutMs = options.timeoutMs * SETUP_PATIENCE;
  const setupDeadlines = createPostDeadlines(setupTimeoutMs, options.signal);
  const postSetup = (body: unknown, headers: Record<string, string>) =>
    postMessage({ dispatcher: pool, path, headers, body: JSON.stringify(body), deadlines: setupDeadlines, timeoutMs: setupTimeoutMs });
  // T0618 § Protocol Version Header: from 2025-06-18 every request after initialize names the
  // negotiated version; a 2025-03-26 client has no such header (LEGACY 1.13).
  const legacyHeaders = (): Record<string, string> => {
    const headers = createBaseHeaders();
    if (sendsVersionHeader(negotiatedVersion)) headers['mcp-protocol-version'] = negotiatedVersion;
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    return headers;
  };

  if (hasInitializeSession(options.protocolVersion)) {
    const init = await postSetup(
      {
        jsonrpc: '2.0',
        id: 'harness-initialize',
        method: 'initialize',
        params: { protocolVersion: options.protocolVersion, capabilities: getHarnessCapabilities(options.protocolVersion), clientInfo: HARNESS_CLIENT_INFO },
      },
      createBaseHeaders(),
    );
    setup.push(init);
    if (init.transportError) await failSetup(pool, [deadlines, setupDeadlines], options, 'initialize', init.transportError);
    sessionId = init.headers['mcp-session-id'];
    // L0326/L25 § Version Negotiation: use the version the server answered with.
    negotiatedVersion = readInitializeVersion(init) ?? options.protocolVersion;
    const initialized = await postSetup({ jsonrpc: '2.0', method: 'notifications/initialized' }, legacyHeaders());
    setup.push(initialized);
    if (initialized.transportError) await failSetup(pool, [deadlines, setupDeadlines], options, 'notifications/initialized', initialized.transportError);
  }
  setupDeadlines.close();

  return {
    get sessionId() {
      return sessionId;
    },
    setup,
    async call(request) {
      if (options.protocolVersion === '2026-07-28') return post(request, Object.assign(createBaseHeaders(), buildModernHeaders(request, options.tool)));
      // T25 § Sending Messages, item 6: answer server requests arriving on the call's stream.
      const replies: Promise<unknown>[] = [];
      const onChunk = createServerRequestAnswerer(options.protocolVersion, (reply) => replies.push(post(reply, legacyHeaders())));
      const response = await post(request, legacyHeaders(), onChunk);
      await Promise.all(replies);
      return response;
    },
    close: () => {
      deadlines.close();
      return options.connections ? Promise.resolve() : pool.destroy();
    },
  };
}

async function failSetup(pool: Dispatcher, deadlines: PostDeadlines[], options: HarnessSessionOptions, step: string, problem: { kind: string; message: string }): Promise<never> {
  for (const each of deadlines) each.close();
  if (!options.connections) await pool.destroy();
  throw new HarnessSetupError(`the harness could not set up its session (${step}: ${problem.message}): the cell was not measured`, problem.kind === 'timeout');
}

function readInitializeVersion(response: ExchangeResponse): string | undefined {
  for (const candidate of extractJsonMessages(response)) {
    const result = (candidate as { result?: { protocolVersion?: unknown } }).result;
    if (typeof result?.protocolVersion === 'string') return result.protocolVersion;
  }
  return undefined;
}

// The initialize answer may come as JSON or as an event stream; try both readings.
function extractJsonMessages(response: ExchangeResponse): unknown[] {
  const texts = response.contentType?.includes('text/event-stream')
    ? response.body.split(/\r\n|\r|\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5))
    : [response.body];
  return texts.flatMap((text) => {
    try {
      return [JSON.parse(text) as unknown];
    } catch {
      return [];
    }
  });
}

// A version the harness does not know (a server answering with another one) keeps the header, as a 2025-06-18+ client would.
function sendsVersionHeader(version: string): boolean {
  const known = PROTOCOL_VERSIONS.find((v) => v === version);
  return known === undefined || hasProtocolVersionHeader(known);
}

function createServerRequestAnswerer(version: ProtocolVersion, send: (reply: unknown) => void): (bytes: Buffer, contentType: string | undefined) => void {
  // Made on the first event-stream chunk: most answers are plain JSON and need neither.
  let stream: { decoder: InstanceType<typeof TextDecoder>; parser: ReturnType<typeof createParser> } | undefined;
  const createStream = () => ({ decoder: new TextDecoder(), parser: createEventParser(version, send) });
  return (bytes, contentType) => {
    if (!contentType?.includes('text/event-stream')) return;
    stream ??= createStream();
    stream.parser.feed(stream.decoder.decode(bytes, { stream: true }));
  };
}

function createEventParser(version: ProtocolVersion, send: (reply: unknown) => void): ReturnType<typeof createParser> {
  return createParser({
    onEvent(event) {
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      // A 2025-03-26 event may batch server requests (T0326 item 6): each is answered in its own POST.
      for (const item of Array.isArray(message) && allowsBatching(version) ? message : [message]) {
        if (typeof item !== 'object' || item === null) continue;
        const { id, method } = item as { id?: unknown; method?: unknown };
        if (id === undefined || typeof method !== 'string') continue;
        const result = answerInputRequest(item, version);
        send(result ? { jsonrpc: '2.0', id, result } : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
      }
    },
  });
}
