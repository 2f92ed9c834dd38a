// The listening side every mock server shares: node:http with the server's own defences,
// the set of open sockets (closed with the server), and a listen on 127.0.0.1 only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerClientError, MAX_HEADER_BYTES } from './lockdown.js';

export interface LoopbackListener {
  server: Server;
  /** Every connection still open. */
  sockets: Set<Socket>;
  /** http://127.0.0.1:PORT */
  origin: string;
}

/** Listens on 127.0.0.1 (`port` 0: an ephemeral one); `accepts` may refuse a connection by destroying it at once. */
export async function listenOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
  accepts: () => boolean = () => true,
): Promise<LoopbackListener> {
  const sockets = new Set<Socket>();
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handle);
  server.on('connection', (socket) => {
    if (!accepts()) return void socket.destroy();
    sockets.add(socket);
    // Resets and client disconnects are part of the scripts; they must not crash the process.
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, sockets, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
