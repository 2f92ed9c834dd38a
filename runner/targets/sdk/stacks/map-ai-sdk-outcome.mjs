// Maps what `@ai-sdk/mcp` (Vercel AI SDK, its own wire implementation) gave a host from a tool's
// `execute` (its observation record) onto the outcome taxonomy. Read from the package's dist
// (index.js of 2.0.99: the HTTP transport's send, MCPClient.request/requestOnce/onResponse, the
// tool's execute). Every failure is an MCPClientError (an AISDKError, `name` "MCPClientError");
// its typed fields are `code` (set only from a peer's JSON-RPC error, in onResponse), `statusCode`
// (set by the transport on the response it refused, 2xx included) and `cause`. Where those do not
// tell two rows apart, the row reads the message, which the library builds from fixed text:
//
//   MCPClientError with a numeric `code` (the peer's error object; also for a non-2xx whose
//     body is a JSON-RPC error: the transport hands the error on, the status is dropped) . JSONRPC_ERROR + code
//   MCPClientError `statusCode` outside 2xx ("POSTing to endpoint (HTTP n)") ............ HTTP_ERROR + status
//   MCPClientError "Unexpected content type" (`statusCode` 2xx) ............................ INVALID_ENVELOPE
//   MCPClientError "Protocol error: Received a response for an unknown message ID" ........ INVALID_ENVELOPE
//   MCPClientError "text/event-stream response without body" (`statusCode` 2xx) ........... STREAM_INCOMPLETE
//   MCPClientError "Request was aborted" (the host's abortSignal: the library sets no
//     timeout of its own on a tool call) / "Request timed out" / "Connection closed" ...... STREAM_INCOMPLETE
//                                                                                          after a 2xx, else NO_RESPONSE
//   MCPClientError "Failed to parse server response" (the result schema), "Modern MCP
//     result is missing resultType", "Input-required results are not supported",
//     "does not match the expected outputSchema", "did not return structuredContent" ..... INVALID_TOOL_RESULT
//   MCPClientError "Request still requires input", "Unsupported input request",
//     "no handler is registered" .............................................................. INPUT_REQUIRED
//   MCPClientError "Failed to process server response" (wraps whatever else failed) ....... its `cause`'s row:
//     ZodError of the envelope union (JSONRPCMessageSchema) → INVALID_ENVELOPE, another
//     ZodError (a result schema) → INVALID_TOOL_RESULT, SyntaxError / AI_JSONParseError
//     (response.json()) → MALFORMED_JSON, TypeError "fetch failed" → NO_RESPONSE
// A value `execute` resolved with: `isError: true` → TOOL_ERROR (execute returns tool errors,
// it does not throw); anything else → TOOL_SUCCESS. Anything else is an adapter gap.
import { mapCommonThrown } from '../map-sdk-outcome.mjs';
import { describeThrown, gap, isA, lostVerdict, verdict } from '../read-observation.mjs';

const MAX_CAUSES = 3;

/** The verdict for one call of `execute`: { verdict } or { gap }. */
export function mapAiSdkObservation(call, context) {
  if ('returned' in call) {
    const value = call.returned;
    if (value !== null && typeof value === 'object' && value.isError === true) return verdict('TOOL_ERROR', 'execute returned a result with isError: true');
    return verdict('TOOL_SUCCESS', 'execute returned a result');
  }
  return mapThrown(call.threw, context, 0) ?? gap('ai-sdk', call);
}

function mapThrown(thrown, context, depth) {
  if (!thrown) return undefined;
  if (isA(thrown, 'MCPClientError')) return mapClientError(thrown, context, depth);
  if (isA(thrown, 'AI_JSONParseError')) return verdict('MALFORMED_JSON', describeThrown(thrown));
  return mapCommonThrown(thrown, context);
}

function mapClientError(thrown, context, depth) {
  const words = describeThrown(thrown);
  const text = thrown.message;
  if (typeof thrown.code === 'number') return verdict('JSONRPC_ERROR', words, { code: thrown.code });
  // observe-call records the error's `statusCode` as the record's `status`.
  const statusCode = thrown.status;
  if (typeof statusCode === 'number' && (statusCode < 200 || statusCode > 299)) return verdict('HTTP_ERROR', words, { status: statusCode });
  // The rows below carry no typed field that tells them apart (a 2xx statusCode at most): the
  // message is the library's fixed text for each (index.js of 2.0.99), so it is read.
  if (/Unexpected content type/.test(text)) return verdict('INVALID_ENVELOPE', words);
  if (/^Protocol error: Received a response for an unknown message ID/.test(text)) return verdict('INVALID_ENVELOPE', words);
  if (/event-stream response without body/.test(text)) return verdict('STREAM_INCOMPLETE', words);
  if (/^(Request was aborted|Request timed out|Connection closed$)/.test(text)) return lostVerdict(context, words);
  if (/still requires input|^Unsupported input request|no handler is registered/.test(text)) return verdict('INPUT_REQUIRED', words);
  if (/^Failed to process server response/.test(text)) return depth < MAX_CAUSES ? mapThrown(thrown.cause, context, depth + 1) : undefined;
  if (/^Failed to parse server response|missing resultType|^Input-required results are not supported|does not match the expected outputSchema|did not return structuredContent/.test(text)) {
    return verdict('INVALID_TOOL_RESULT', `the AI SDK rejected the result: ${words}`);
  }
  return undefined;
}
