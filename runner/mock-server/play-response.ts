// Writes a rendered response to the socket with its delays, stalls and resets, recording it.
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { RecordedResponse } from '../vocabulary/types.js';
import { getContentLength } from './framing.js';
import type { RenderedResponse } from './render-response.js';
import type { ReplyWaiter } from './reply-waiter.js';

/** How long a stream waits for the client's reply to an `awaitReply` server request. */
export const AWAIT_REPLY_TIMEOUT_MS = 5000;

/**
 * Linux may drop received-but-unread bytes when a RST arrives, so a mid-stream reset waits
 * this long after the last write for the client to read what was sent.
 */
export const RESET_SETTLE_MS = 30;

export interface PlayContext {
  /** Set by close(): nothing more is written. */
  readonly closed: boolean;
  /** Aborted by close(): every wait ends at once. Read only to wait (a case that never waits makes none). */
  readonly signal: AbortSignal;
  waiter: ReplyWaiter;
  now(): number;
}

/** Plays the response; resolves when the server is done with it (also when it hangs). */
export async function playResponse(res: ServerResponse, rendered: RenderedResponse, recorded: RecordedResponse, context: PlayContext): Promise<void> {
  let serverDone = false;
  const finish = (ending: RecordedResponse['ending']): void => {
    serverDone = true;
    recorded.ending = ending;
    if (ending !== 'hang') recorded.endedAt = context.now();
  };
  res.on('close', () => {
    if (!serverDone || recorded.ending === 'hang') {
      recorded.ending = 'client_closed';
      recorded.endedAt = context.now();
      serverDone = true;
    }
  });
  const clientGone = (): boolean => res.destroyed || (serverDone && recorded.ending === 'client_closed');
  if (!(await sleep(rendered.delayMs, context)) || clientGone()) return;
  if (rendered.start === 'hang') return finish('hang');
  if (rendered.start === 'reset') {
    finish('reset');
    return void res.socket?.resetAndDestroy();
  }
  let contentLength: number | undefined;
  try {
    contentLength = writeHead(res, rendered, recorded);
  } catch {
    // Node refuses header values with control characters; the socket is cut instead.
    finish('reset');
    return void res.socket?.resetAndDestroy();
  }
  const only = rendered.chunks.length === 1 ? rendered.chunks[0]! : undefined;
  if (only && contentLength !== undefined && rendered.end === 'close' && only.delayMs <= 0 && !only.isEvent && !('awaitReplyId' in only)) {
    // One body sent at once with a Content-Length: end() writes the head and the body together,
    // the same bytes in the same single write as write() then end(), with one step less.
    recorded.body += only.bytes.toString('utf8');
    finish('complete');
    return void res.end(only.bytes);
  }
  for (const chunk of rendered.chunks) {
    if (!(await sleep(chunk.delayMs, context)) || clientGone()) return;
    await write(res, chunk.bytes);
    recorded.body += chunk.bytes.toString('utf8');
    if (chunk.isEvent) (recorded.events ??= []).push({ at: context.now(), text: chunk.bytes.toString('utf8') });
    if ('awaitReplyId' in chunk) await context.waiter.wait(chunk.awaitReplyId, AWAIT_REPLY_TIMEOUT_MS);
  }
  if (clientGone() || context.closed) return;
  if (rendered.end === 'hang') return finish('hang');
  if (rendered.end === 'reset') {
    await sleep(RESET_SETTLE_MS, context);
    // A client in this process whose event loop was held up past the settle time reads in the
    // poll phase that follows this timer; setImmediate runs after it, so the RST never overtakes
    // bytes already delivered (under load it did: a 'closed' read where direct mode says 'reset').
    await new Promise((resolve) => setImmediate(resolve));
    finish('reset');
    return void res.socket?.resetAndDestroy();
  }
  finish('complete');
  res.end();
}

/** Writes the status line and headers (sent at once unless the body follows right away); returns the Content-Length it added. */
function writeHead(res: ServerResponse, rendered: RenderedResponse, recorded: RecordedResponse): number | undefined {
  const headers: [string, string][] = [...rendered.headers];
  const contentLength = getContentLength(rendered);
  if (contentLength !== undefined) headers.push(['Content-Length', String(contentLength)]);
  res.sendDate = false;
  res.writeHead(rendered.status, headers.flat());
  // The status line goes out at once, even before a delayed first chunk or event. A response that
  // ends normally and whose first write follows without a wait lets node send that write together
  // with the head: the same bytes, one write. (Streams that hang or reset keep the head apart, as
  // a client reading up to a reset is sensitive to how the bytes arrived.)
  const nextWriteAtOnce = rendered.end === 'close' && (rendered.chunks.length === 0 || rendered.chunks[0]!.delayMs <= 0);
  if (!nextWriteAtOnce) res.flushHeaders();
  recorded.status = rendered.status;
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    recorded.headers[key] = key in recorded.headers ? `${recorded.headers[key]}, ${value}` : value;
  }
  return contentLength;
}

function write(res: ServerResponse, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(bytes, () => resolve());
  });
}

/** Waits, or returns false at once when the server is closing. */
async function sleep(ms: number, context: PlayContext): Promise<boolean> {
  if (context.closed) return false;
  if (ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal: context.signal });
    return true;
  } catch {
    return false;
  }
}
