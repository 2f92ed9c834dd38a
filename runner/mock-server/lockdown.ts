// The mock server's own defences: it faces clients under test, which may be hostile or broken.
// Origin validation (T25 § Security Warning; SH26 § Security & Endpoint), header-size and
// malformed-request answers for connections node:http refuses before any handler runs.
import type { Duplex } from 'node:stream';

/** Request heads above this size are answered 431 (node's own default, made explicit). */
export const MAX_HEADER_BYTES = 16 * 1024;

// Hosts a DNS-rebinding page cannot be: the loopback names and addresses.
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether an Origin header value names a loopback origin (http or https on localhost, 127/8, ::1). */
export function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" and garbage are not loopback origins
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * Answers a request node:http could not parse (clientError): 431 for an oversized head, 400
 * otherwise, then closes. A socket that cannot be written to is destroyed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  // A peer that never reads or closes must not keep the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}
