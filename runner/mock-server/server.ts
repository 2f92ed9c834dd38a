// The mock MCP server: a real HTTP server on 127.0.0.1 that plays a case and records everything.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Case } from '../cases/case-types.js';
import type { ProtocolVersion, RecordedExchange, RecordedResponse, Recording } from '../types.js';
import { playResponse, type PlayContext } from './play-response.js';
import { answerClientError, isLoopbackOrigin, MAX_HEADER_BYTES } from './lockdown.js';
import { createErrorReply } from './mcp-replies.js';
import { readRequest } from './record-request.js';
import { renderResponseSpec } from './render-response.js';
import { createReplyWaiter } from './reply-waiter.js';
import { createRouterState, MCP_PATH, routeRequest } from './route-request.js';

export interface MockServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  url: string;
  /** A snapshot of everything seen so far. */
  recording(): Recording;
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
  const startedAt = performance.now();
  const now = (): number => Math.round((performance.now() - startedAt) * 1000) / 1000;
  const abort = new AbortController();
  const waiter = createReplyWaiter();
  const state = createRouterState();
  const exchanges: RecordedExchange[] = [];
  const sockets = new Set<Socket>();
  const context: PlayContext = { signal: abort.signal, waiter, now };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = now();
    const read = await readRequest(req);
    const exchange: RecordedExchange = { seq: exchanges.length, at, request: read.recorded, response: undefined };
    exchanges.push(exchange);
    const recorded: RecordedResponse = { status: undefined, headers: {}, body: '', ending: 'hang' };
    exchange.response = recorded;
    if (read.tooLarge) {
      const spec = { status: 413, headers: { Connection: 'close' } };
      await playResponse(res, renderResponseSpec(spec, { requestId: undefined, idPresent: false }), recorded, context);
      return reportExchange(exchange);
    }
    // T25 § Security Warning / SH26 § Security & Endpoint: a present Origin that is not ours
    // (loopback) MUST get 403; the body may be a JSON-RPC error without id. An absent Origin is fine.
    const origin = read.recorded.headers['origin'];
    if (origin !== undefined && !isLoopbackOrigin(origin)) {
      const spec = createErrorReply(403, -32600, 'Forbidden: Origin is not a loopback origin', false);
      await playResponse(res, renderResponseSpec(spec, { requestId: undefined, idPresent: false }), recorded, context);
      return reportExchange(exchange);
    }
    const rpc = read.recorded.rpc;
    if (rpc?.isResponse) waiter.deliver(rpc.id);
    const decision = routeRequest(state, options.case, options.protocolVersion, read.recorded, read.parsed);
    if (decision.scriptStep !== undefined) read.recorded.scriptStep = decision.scriptStep;
    const rendered = renderResponseSpec(decision.spec, { requestId: decision.requestId, idPresent: decision.idPresent });
    await playResponse(res, rendered, recorded, context);
    reportExchange(exchange);
  };
  const reportExchange = (exchange: RecordedExchange): void => {
    try {
      options.onExchange?.(structuredClone(exchange));
    } catch {
      // A broken log callback must not change what the server plays.
    }
  };

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    handle(req, res).catch(() => {
      // A request aborted mid-body, or a header the script made invalid: drop the connection.
      res.socket?.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    // Resets and client disconnects are part of the script; they must not crash the process.
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${MCP_PATH}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    recording: () => structuredClone({ url, exchanges }),
    close() {
      closing ??= new Promise<void>((resolve) => {
        abort.abort();
        waiter.close();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
