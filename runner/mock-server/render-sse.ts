// Turns scripted SSE events into WHATWG event-stream text, one chunk per event.
import type { SseBody, SseEvent } from '../cases/case-types.js';
import { isPlainObject, serializeMessage, type ResponseIdText } from './serialize-message.js';

const LINE_ENDINGS = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;

/** One rendered event: its text, its pre-write delay, and the server request id to await. */
export interface RenderedSseEvent {
  text: string;
  delayMs: number;
  /** Set for `awaitReply` events: the id of the server-to-client request the event carries. */
  awaitReplyId?: unknown;
}

/** Renders the events an SSE body sends on its own stream; `response` and `responseId` events get the exchange's response id. */
export function renderSseEvents(body: SseBody, responseId: ResponseIdText): RenderedSseEvent[] {
  const eol = LINE_ENDINGS[body.lineEnding ?? 'lf'];
  // Resume-only events never reach the POST stream (nor direct mode, which renders the same way);
  // a GET resumption replays them with the flag cleared (route-request.ts).
  return body.events.filter((event) => !event.resumeOnly).map((event) => {
    const lines = getEventLines(event, responseId);
    const rendered: RenderedSseEvent = { text: lines.map((line) => line + eol).join('') + eol, delayMs: event.delayMs ?? 0 };
    if (event.awaitReply && isPlainObject(event.data) && 'id' in event.data) rendered.awaitReplyId = event.data.id;
    // A 2025-03-26 batch of server requests: wait for the reply to its first request.
    const firstRequest = event.awaitReply && Array.isArray(event.data) ? event.data.find((item) => isPlainObject(item) && 'id' in item) : undefined;
    if (isPlainObject(firstRequest)) rendered.awaitReplyId = firstRequest.id;
    return rendered;
  });
}

function getEventLines(event: SseEvent, responseId: ResponseIdText): string[] {
  const lines: string[] = [];
  if (event.comment !== undefined) lines.push(...splitLines(event.comment).map((text) => prefixField('', text)));
  if (event.event !== undefined) lines.push(prefixField('event', event.event));
  if (event.id !== undefined) lines.push(prefixField('id', event.id));
  if (event.retry !== undefined) lines.push(prefixField('retry', String(event.retry)));
  for (const text of getDataLines(event, responseId)) lines.push(prefixField('data', text));
  return lines;
}

function getDataLines(event: SseEvent, responseId: ResponseIdText): string[] {
  if (event.dataRaw !== undefined) return splitLines(event.dataRaw);
  if (!('data' in event) || event.data === undefined) return [];
  // The event that carries the call's response, and any event marked `responseId` (a duplicate or
  // late answer to the same call), get the id mode; others are sent as scripted.
  const carriesId = event.response === true || event.responseId === true;
  const text = carriesId
    ? serializeMessage(event.data, responseId, event.multiline)
    : JSON.stringify(event.data, null, event.multiline ? 2 : undefined);
  return text.split('\n');
}

// `field: value`, or the bare `field:` for an empty value so no line ends in a stray space.
function prefixField(field: string, value: string): string {
  return value === '' ? `${field}:` : `${field}: ${value}`;
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
