// Test support: raw HTTP/1.1 over node:net, so tests see the exact bytes the server wrote.
import { connect } from 'node:net';
import { setStallAwareTimeout, watchLoopStalls } from '../starvation/loop-stall.js';

export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RawChunk {
  at: number;
  bytes: Buffer;
}

export interface RawResponse {
  /** Every byte received, in order. */
  bytes: Buffer;
  chunks: RawChunk[];
  /** How the socket ended: a clean FIN, a RST, or still open when the wait ran out. */
  ending: 'end' | 'reset' | 'open';
  statusLine: string;
  /** Header lines exactly as written, in order. */
  headerLines: string[];
  /** The body bytes after the head, de-chunked when Transfer-Encoding is chunked. */
  body: Buffer;
  /** Milliseconds from sending the request to the first byte. */
  firstByteMs: number | undefined;
}

/** Sends one request on a fresh connection and collects bytes until the socket ends or `maxMs` passes. */
export function sendRaw(url: string, request: RawRequest, maxMs = 1000): Promise<RawResponse> {
  const { hostname, port, pathname } = new URL(url);
  const body = request.body ?? '';
  const headers: Record<string, string> = {
    Host: `${hostname}:${port}`,
    Connection: 'close',
    ...(request.method === 'GET' || request.method === 'DELETE' ? {} : { 'Content-Type': 'application/json' }),
    ...(body === '' ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
    ...request.headers,
  };
  const head = `${request.method ?? 'POST'} ${request.path ?? pathname} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: RawChunk[] = [];
    // allowHalfOpen: after the server's FIN the socket stays writable, for the probe below.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let done = false;
    const settle = (ending: RawResponse['ending']): void => {
      if (done) return;
      done = true;
      timer.clear();
      stopWatching();
      socket.destroy();
      resolve(parseRaw(chunks, ending));
    };
    // Stall-aware: a stall of this thread (a loaded machine) is not counted against `maxMs`, or an
    // answer already in the socket would be reported as a response still 'open'.
    const stopWatching = watchLoopStalls();
    const timer = setStallAwareTimeout(() => settle('open'), maxMs);
    socket.on('data', (bytes: Buffer) => chunks.push({ at: performance.now() - started, bytes }));
    // libuv reports a RST that arrives together with unread bytes as a clean EOF (its POLLHUP
    // short-cut after a partial read): under load a mid-stream reset looked like 'end' (24 of 40
    // concurrent tries). A write tells them apart: after a FIN the kernel accepts it, after a
    // RST it refuses it with ECONNRESET (EPIPE once that error was read).
    socket.on('end', () => socket.write('\r\n', (error?: NodeJS.ErrnoException | null) => settle(error ? toEnding(error) : 'end')));
    socket.on('error', (error: NodeJS.ErrnoException) => settle(toEnding(error)));
    socket.on('close', () => settle('end'));
    socket.write(head + body);
  });
}

function toEnding(error: NodeJS.ErrnoException): RawResponse['ending'] {
  return error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : 'end';
}

function parseRaw(chunks: RawChunk[], ending: RawResponse['ending']): RawResponse {
  const bytes = Buffer.concat(chunks.map((chunk) => chunk.bytes));
  const split = bytes.indexOf('\r\n\r\n');
  const headText = split < 0 ? bytes.toString('latin1') : bytes.subarray(0, split).toString('latin1');
  const [statusLine = '', ...headerLines] = headText === '' ? [] : headText.split('\r\n');
  let body: Buffer = split < 0 ? Buffer.alloc(0) : bytes.subarray(split + 4);
  if (headerLines.some((line) => /^transfer-encoding:\s*chunked$/i.test(line))) body = dechunk(body);
  return { bytes, chunks, ending, statusLine, headerLines, body, firstByteMs: chunks[0]?.at };
}

/** Decodes chunked framing, tolerating a stream cut short. */
export function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < raw.length) {
    const lineEnd = raw.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
