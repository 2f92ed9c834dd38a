// Finds this request's final response in an SSE stream and classifies it
// (T25 § Sending Messages to the Server, item 6; SH26 § Receiving Messages; WIRE-FACTS §1.3).
import type { Verdict } from '../vocabulary/types.js';
import { allowsBatching, allowsServerRequestsOnStream } from '../vocabulary/version-features.js';
import { classifyResponseBatch, classifyResponseMessage } from './check-envelope.js';
import { isPlainObject, parseJsonText } from './json-value.js';
import { parseSseBody } from './parse-sse-body.js';
import type { ClassifyContext } from './rules.js';
import { createVerdict } from './verdict.js';

/** Classifies a 2xx `text/event-stream` response body. */
export function classifySseBody(context: ClassifyContext): Verdict {
  const { input, rules } = context;
  // The last event that could have been our answer but was not: it decides when no final
  // response arrives. Notifications, server requests and priming events never could.
  let lastMiss: Verdict | undefined;
  for (const [index, event] of parseSseBody(input.body).entries()) {
    // MCP sends every message as a default-type ("message") event; a named event is not
    // delivered to a message listener (WHATWG § dispatch), so it carries no JSON-RPC message.
    if (event.event !== undefined && event.event !== 'message') continue;
    // T25 item 6: the priming event has an id and empty data; it seeds Last-Event-ID only.
    if (event.data === '') continue;
    const parsed = parseJsonText(event.data);
    if (!parsed.ok) {
      // Its id cannot be read, so it may have been the answer: remembered, not yet decisive
      // (DESIGN §2: MALFORMED_JSON when the final SSE event's data is not JSON).
      lastMiss = createVerdict('MALFORMED_JSON', `SSE event ${index} data is not JSON`);
      continue;
    }
    const message = parsed.value;
    // 2025-03-26: an event may carry a batch (T0326 item 6). One of requests and notifications
    // asks nothing of the call's outcome (its requests are answered by POST); one of responses is
    // ours when it holds our id (LEGACY cases 1–6, K11–K12).
    if (Array.isArray(message) && allowsBatching(input.protocolVersion) && message.length > 0) {
      const isRequestOrNotification = (member: unknown) => isPlainObject(member) && typeof member['method'] === 'string';
      if (message.every(isRequestOrNotification)) continue;
      const verdict = classifyResponseBatch(message, context);
      if (verdict !== undefined) return verdict;
      lastMiss = createVerdict('INVALID_ENVELOPE', `SSE event ${index}: a batch without a response for this request`);
      continue;
    }
    if (isPlainObject(message) && typeof message['method'] === 'string') {
      if (!('id' in message)) continue; // a notification: related or not, it asks nothing of us (§ rules)
      // A server request. 2025-03-26 to 2025-11-25 allow it before the final response (the client
      // answers in its own POST). 2026-07-28 forbids it (SH26 § Receiving Messages: "MUST NOT"), and a 2026
      // client has no way to answer it (clients MUST NOT send responses, SH26 § Sending Messages):
      // the stream is not a 2026 exchange any more.
      if (allowsServerRequestsOnStream(input.protocolVersion)) continue;
      return createVerdict('INVALID_ENVELOPE', `SSE event ${index} is a server request, forbidden in 2026-07-28`);
    }
    if (isPlainObject(message) && rules.matchesId(message['id'], input.expectedId)) {
      // The first response for our id is the final response; anything after it is ignored.
      return classifyResponseMessage(message, context);
    }
    // A response to another request (or not a JSON-RPC message at all) is not our answer: keep
    // looking, but if nothing else comes, the stream answered with a stranger (WIRE-FACTS case 28).
    const miss = classifyResponseMessage(message, context);
    lastMiss = createVerdict('INVALID_ENVELOPE', `SSE event ${index}: ${miss.detail ?? 'not our response'}`);
  }
  if (lastMiss !== undefined) return lastMiss;
  const ending = input.transportError ? `ended by ${input.transportError.kind}` : 'ended';
  return createVerdict('STREAM_INCOMPLETE', `the event stream ${ending} without a response for this request`);
}
