// One mock-server listener for a whole run: each open case gets its own path prefix
// (/cell/<token>/mcp), so many cells share the listener and keep-alive connections while each
// case keeps its own script, sessions, clock and recording.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenOnLoopback } from './listen-loopback.js';
import { MCP_PATH } from './route-request.js';
import { armCase, type MockServer, type MockServerOptions } from './server.js';

export interface SharedMockServer {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** Arms a case under a fresh path prefix; any number may be open at once. */
  open(options: Omit<MockServerOptions, 'port'>): MockServer;
  /** Closes every open case and stops listening. */
  close(): Promise<void>;
}

const CELL_PATH = /^\/cell\/([A-Za-z0-9_-]+)(.*)$/s;

/**
 * Starts the listener on 127.0.0.1 (ephemeral port). A request is handed to the case its prefix
 * names, with the prefix taken off its path, so the case sees and records exactly what its own
 * server would (`/mcp`, or `/elsewhere` for the 404 a wrong endpoint gets). A request under no
 * open prefix (a straggler after its cell closed, a guessed path) gets a 404 saying so and is
 * recorded nowhere. Closing a case cuts only the connections still carrying one of its
 * responses; the others stay open for the next cell.
 */
export async function startSharedMockServer(): Promise<SharedMockServer> {
  const cells = new Map<string, ReturnType<typeof armCase>>();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const match = CELL_PATH.exec(req.url ?? '');
    const cell = match ? cells.get(match[1]!) : undefined;
    if (!match || !cell) return void answerNoCell(req, res);
    const rest = match[2] ?? '';
    req.url = rest.startsWith('/') ? rest : `/${rest}`;
    cell.handle(req, res).catch(() => {
      // A request aborted mid-body, or a header the script made invalid: drop the connection.
      res.socket?.destroy();
    });
  };
  const { server, sockets, origin } = await listenOnLoopback(handle);
  let closing: Promise<void> | undefined;
  const runToken = randomBytes(9).toString('base64url');
  let opened = 0;
  return {
    origin,
    open(options) {
      if (closing) throw new Error('shared mock server: already closed');
      // Unique per cell and not guessable from outside the run: a random run part and a counter.
      const token = `${runToken}${(++opened).toString(36)}`;
      const url = `${origin}/cell/${token}${MCP_PATH}`;
      const cell = armCase(options, url);
      cells.set(token, cell);
      let cellClosing: Promise<void> | undefined;
      return {
        url,
        recording: cell.recording,
        clockOrigin: cell.clockOrigin,
        settle: cell.settle,
        close() {
          cellClosing ??= (async () => {
            cells.delete(token);
            cell.stop();
            await Promise.all(cell.unfinishedSockets().map(destroyAndWait));
          })();
          return cellClosing;
        },
      };
    },
    close() {
      closing ??= (async () => {
        for (const cell of cells.values()) cell.stop();
        cells.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        });
      })();
      return closing;
    },
  };
}

function answerNoCell(req: IncomingMessage, res: ServerResponse): void {
  // Drain the body so the connection stays usable, then say what happened.
  req.resume();
  const body = `mcp-error-matrix: no case is open at ${(req.url ?? '').split('?')[0]} (its cell has finished, or the path was never issued)\n`;
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function destroyAndWait(socket: Socket): Promise<void> {
  socket.destroy();
  return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}
