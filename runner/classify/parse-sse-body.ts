// Splits an SSE body into events by the WHATWG rules, with the eventsource-parser package:
// comment lines ignored, several data lines joined with \n, CR, LF and CRLF line ends, one
// leading BOM dropped, and an event that is not ended by a blank line never dispatched.
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
  // WHATWG decodes the stream with "UTF-8 decode", which drops one leading BOM; the package
  // only drops its byte form, so the decoded U+FEFF is dropped here.
  parser.feed(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
  // A CR at the very end is a complete line end once the stream is over; the package waits to
  // see whether an LF follows, so the LF it waits for is supplied (CR LF is one line end).
  if (body.endsWith('\r')) parser.feed('\n');
  // No reset({ consume: true }): WHATWG "pending data must be discarded" at the end of the
  // stream, so a final event without its blank line is lost, as it is in a browser.
  return events;
}
