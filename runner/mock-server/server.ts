// The mock MCP server: a real HTTP server on 127.0.0.1 that plays a case and records everything.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Case } from '../cases/case-types.js';
import type { ProtocolVersion, RecordedExchange, RecordedResponse, Recording } from '../vocabulary/types.js';
import { playResponse, type PlayContext } from './play-response.js';
import { listenOnLoopback } from './listen-loopback.js';
import { isLoopbackOrigin } from './lockdown.js';
import { createErrorReply } from './mcp-replies.js';
import { freezeRecordedExchange, readRequest } from './record-request.js';
import { renderResponseSpec } from './render-response.js';
import { createReplyWaiter } from './reply-waiter.js';
import { allowsBatching } from '../vocabulary/version-features.js';
import { setStallAwareTimeout } from '../starvation/loop-stall.js';
import { createRouterState, MCP_PATH, routeRequest } from './route-request.js';

export interface MockServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  url: string;
  /** A snapshot of everything seen so far. */
  recording(): Recording;
  /** performance.now() when this case's clock started: the recording's times count from it. */
  readonly clockOrigin: number;
  /**
   * Resolves once the server has seen the end of every response of this case still in flight
   * (its connection closed, or the response ended), or after `maxMs` of time the loop could run.
   * A target that cut a connection and then settled is not yet seen by the server: a recording
   * taken at once says `hang` or `client_closed` by chance. Take it after this.
   */
  settle(maxMs: number): Promise<void>;
  /** Stops the server, cutting hanging responses; never leaves timers running. */
  close(): Promise<void>;
}

export interface MockServerOptions {
  case: Case;
  protocolVersion: ProtocolVersion;
  /** The port on 127.0.0.1 (`serve --port`). @default 0, an ephemeral port */
  port?: number;
  /** Called with a snapshot of each exchange once the server is done with it (also when it left it hanging). */
  onExchange?: (exchange: RecordedExchange) => void;
}

/** Starts a mock server for one case under one protocol version; no state is shared between servers. */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const host = await createMockServerHost(options.port);
  const server = host.open(options);
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    recording: server.recording,
    clockOrigin: server.clockOrigin,
    settle: server.settle,
    close() {
      closing ??= server.close().then(() => host.close());
      return closing;
    },
  };
}

/**
 * One listening socket that plays one case at a time: `open` arms it for a case with fresh
 * state (script, sessions, recording, clock), the cell's `close` cuts every connection and
 * disarms it. A run keeps a few hosts instead of a listen and close per cell; each cell still
 * gets fresh connections, so the bytes on the wire are the same as with its own server.
 */
export interface MockServerHost {
  /** Arms the host for one case; the previous one must be closed first. */
  open(options: Omit<MockServerOptions, 'port'>): MockServer;
  /** Stops listening (closing the armed case first, if any). */
  close(): Promise<void>;
}

/** Starts listening on 127.0.0.1 (port 0 unless given) with no case armed. */
export async function createMockServerHost(port = 0): Promise<MockServerHost> {
  let armed: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  let closeArmed: (() => Promise<void>) | undefined;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    // No case armed (a straggler between cells): drop the connection, record nothing.
    if (!armed) return void res.socket?.destroy();
    armed(req, res).catch(() => {
      // A request aborted mid-body, or a header the script made invalid: drop the connection.
      res.socket?.destroy();
    });
  };
  const { server, sockets, origin } = await listenOnLoopback(handle, port, () => armed !== undefined);
  const url = `${origin}${MCP_PATH}`;
  let hostClosing: Promise<void> | undefined;

  return {
    open(options) {
      if (armed) throw new Error('mock server host: the previous case is still open');
      const cell = armCase(options, url);
      armed = cell.handle;
      let closing: Promise<void> | undefined;
      closeArmed = () => {
        closing ??= (async () => {
          cell.stop();
          armed = undefined;
          closeArmed = undefined;
          for (const socket of sockets) socket.destroy();
          await Promise.all([...sockets].map((socket) => (socket.closed ? undefined : new Promise((resolve) => socket.once('close', resolve)))));
        })();
        return closing;
      };
      return { url, recording: cell.recording, clockOrigin: cell.clockOrigin, settle: cell.settle, close: closeArmed };
    },
    close() {
      hostClosing ??= (async () => {
        await closeArmed?.();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        });
      })();
      return hostClosing;
    },
  };
}

// The reason every wait of a closed case ends with (a constant: no error built per cell).
const CASE_CLOSED = Object.freeze({ reason: 'the case was closed' });

/** The per-case state and request handler: script position, sessions, recording, clock. */
export function armCase(options: Omit<MockServerOptions, 'port'>, url: string) {
  const startedAt = performance.now();
  const now = (): number => Math.round((performance.now() - startedAt) * 1000) / 1000;
  // The abort for waits is made on the first wait: most cases never wait.
  let abort: AbortController | undefined;
  let closed = false;
  const waiter = createReplyWaiter();
  const state = createRouterState();
  const exchanges: RecordedExchange[] = [];
  const context: PlayContext = {
    get closed() {
      return closed;
    },
    get signal() {
      abort ??= new AbortController();
      if (closed) abort.abort(CASE_CLOSED);
      return abort.signal;
    },
    waiter,
    now,
  };
  // Responses of this case in flight: a shared listener cuts at close only those the server has
  // not ended (a socket whose response was ended may already carry another cell's request).
  const inFlight = new Set<ServerResponse>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    inFlight.add(res);
    const at = now();
    const read = await readRequest(req);
    const exchange: RecordedExchange = { seq: exchanges.length, at, request: read.recorded, response: undefined };
    exchanges.push(exchange);
    const recorded: RecordedResponse = { status: undefined, headers: {}, body: '', ending: 'hang' };
    exchange.response = recorded;
    if (read.tooLarge) {
      const spec = { status: 413, headers: { Connection: 'close' } };
      await playResponse(res, renderResponseSpec(spec, { requestId: undefined, idPresent: false }), recorded, context);
      return reportExchange(exchange, res);
    }
    // T25 § Security Warning / SH26 § Security & Endpoint: a present Origin that is not ours
    // (loopback) MUST get 403; the body may be a JSON-RPC error without id. An absent Origin is fine.
    const origin = read.recorded.headers['origin'];
    if (origin !== undefined && !isLoopbackOrigin(origin)) {
      const spec = createErrorReply(403, -32600, 'Forbidden: Origin is not a loopback origin', false);
      await playResponse(res, renderResponseSpec(spec, { requestId: undefined, idPresent: false }), recorded, context);
      return reportExchange(exchange, res);
    }
    const rpc = read.recorded.rpc;
    if (rpc?.isResponse) waiter.deliver(rpc.id);
    // 2025-03-26 clients may batch their responses (T0326 § Sending Messages to the Server, item 3).
    if (read.parsed.ok && Array.isArray(read.parsed.value) && allowsBatching(options.protocolVersion)) {
      for (const item of read.parsed.value) if (isResponseObject(item)) waiter.deliver(item.id);
    }
    const decision = routeRequest(state, options.case, options.protocolVersion, read.recorded, read.parsed);
    if (decision.scriptStep !== undefined) read.recorded.scriptStep = decision.scriptStep;
    const rendered = renderResponseSpec(decision.spec, { requestId: decision.requestId, idPresent: decision.idPresent });
    await playResponse(res, rendered, recorded, context);
    reportExchange(exchange, res);
  };
  // An exchange the server is done with, and whose response did not hang, never changes again: it is
  // frozen once and every snapshot shares it. Only the others (a request still being read, a hang
  // that may yet become client_closed) are copied by each snapshot.
  const snapshot = (exchange: RecordedExchange): RecordedExchange => (Object.isFrozen(exchange) ? exchange : structuredClone(exchange));
  const reportExchange = (exchange: RecordedExchange, res: ServerResponse): void => {
    // A response the server ended (or cut) no longer holds its socket for this case.
    if (res.writableEnded || res.destroyed) inFlight.delete(res);
    if (exchange.response?.ending !== 'hang') freezeRecordedExchange(exchange);
    try {
      options.onExchange?.(snapshot(exchange));
    } catch {
      // A broken log callback must not change what the server plays.
    }
  };

  return {
    handle,
    recording: (): Recording => ({ url, exchanges: exchanges.map(snapshot) }),
    clockOrigin: startedAt,
    settle: (maxMs: number): Promise<void> => settleResponses([...inFlight], maxMs),
    stop(): void {
      closed = true;
      abort?.abort(CASE_CLOSED);
      waiter.close();
    },
    /** The sockets still carrying a response of this case (a hang, a stream cut short by stop()). */
    unfinishedSockets: (): Socket[] => [...inFlight].flatMap((res) => (res.socket && !res.writableEnded ? [res.socket] : [])),
  };
}

/** Waits until each response has ended or lost its connection, at most `maxMs` (stall-aware). */
function settleResponses(responses: ServerResponse[], maxMs: number): Promise<void> {
  const open = responses.filter((res) => !res.writableEnded && !res.destroyed);
  if (open.length === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let left = open.length;
    const deadline = setStallAwareTimeout(done, maxMs);
    function done(): void {
      deadline.clear();
      for (const res of open) res.off('close', onEnd).off('finish', onEnd);
      resolve();
    }
    function onEnd(this: ServerResponse): void {
      this.off('close', onEnd).off('finish', onEnd);
      if (--left === 0) done();
    }
    for (const res of open) res.on('close', onEnd).on('finish', onEnd);
  });
}

function isResponseObject(value: unknown): value is { id: unknown } {
  return typeof value === 'object' && value !== null && !('method' in value) && 'id' in value && ('result' in value || 'error' in value);
}
