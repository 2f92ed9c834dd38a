// Splits an SSE body into events by the WHATWG rules, with the eventsource-parser package:
// comment lines ignored, several data lines joined with \n, CR, LF and CRLF line ends, and an
// event that is not ended by a blank line never dispatched. The body is decoded text: WHATWG
// decodes a stream with "UTF-8 decode", which dropped its one leading BOM before this point.
import { createParser } from 'eventsource-parser';

export interface SseEvent {
  /** The event type; undefined when the event had no `event:` field (type "message"). */
  event: string | undefined;
  id: string | undefined;
  data: string;
}

/** Parses the whole text of an event stream, as received, into its dispatched events. */
export function parseSseBody(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: ({ event, id, data }) => events.push({ event, id, data }),
    // Unknown fields and bad retry values are ignored, as WHATWG says; they never end the stream.
  });
  // No BOM is dropped here: UTF-8 decode took the first one, and a U+FEFF still at the start (a
  // second BOM in the bytes) is part of the first line, as in a browser: "\uFEFFdata" is an
  // unknown field, so that event carries no data and is not dispatched.
  parser.feed(body);
  // A CR at the very end is a complete line end once the stream is over; the package waits to
  // see whether an LF follows, so the LF it waits for is supplied (CR LF is one line end).
  if (body.endsWith('\r')) parser.feed('\n');
  // No reset({ consume: true }): WHATWG "pending data must be discarded" at the end of the
  // stream, so a final event without its blank line is lost, as it is in a browser.
  return events;
}
