// Maps what `@ai-sdk/mcp` (Vercel AI SDK, its own wire implementation) returned or threw from a
// tool's `execute` onto the outcome taxonomy (runner/classify/OUTCOMES.md). Read from the
// package's sources (src/tool/mcp-client.ts, mcp-http-transport.ts, 2.0.x):
//
//   MCPClientError with a numeric `code` (set only from a peer's JSON-RPC error) .. JSONRPC_ERROR + code
//     — also for a non-2xx whose body is a JSON-RPC error: the transport hands the error on and
//       the HTTP status is lost
//   MCPClientError "POSTing to endpoint (HTTP <status>)", `statusCode` ............ HTTP_ERROR + status
//   MCPClientError "Unexpected content type" ...................................... INVALID_ENVELOPE
//   MCPClientError "text/event-stream response without body" ....................... STREAM_INCOMPLETE
//   MCPClientError "Request was aborted" / "Request timed out" (the host's abort
//     signal or the client's own timer) ............................................ STREAM_INCOMPLETE
//     after a 2xx status, else NO_RESPONSE
//   MCPClientError "Failed to parse server response" (result schema), "missing
//     resultType", "Input-required results are not supported", "does not match the
//     expected outputSchema", "did not return structuredContent" ................... INVALID_TOOL_RESULT
//   MCPClientError "Request still requires input", "Unsupported input request",
//     "no handler is registered" ...................................................... INPUT_REQUIRED
//   MCPClientError "Failed to process server response" wrapping a cause ............ the cause's row
//   ZodError (JSONRPCMessageSchema, the transport's envelope check) ................. INVALID_ENVELOPE
//   SyntaxError / AI_JSONParseError (response.json() or an SSE event's data) ......... MALFORMED_JSON
//   TypeError "fetch failed" / AbortError / TimeoutError ............................. STREAM_INCOMPLETE
//     after a 2xx status, else NO_RESPONSE
// A value `execute` resolved with: `isError: true` → TOOL_ERROR (execute returns the result
// instead of throwing); anything else → TOOL_SUCCESS. Anything not in this table is "not
// reported" (null) with the error in the notes.

function verdict(outcome, detail, extra = {}) {
  return { outcome, ...extra, detail: String(detail).slice(0, 300) };
}

/** The verdict for a value the tool's `execute` resolved with. */
export function mapAiSdkResult(result) {
  if (result !== null && typeof result === 'object' && result.isError === true) return verdict('TOOL_ERROR', 'execute returned a result with isError: true');
  return verdict('TOOL_SUCCESS', 'execute returned a result');
}

/** The verdict for an error `execute` rejected with; null when the error is not in the table. */
export function mapAiSdkError(error, log) {
  const message = describe(error);
  const mapped = mapKnownError(error, message, log, 0);
  if (mapped !== undefined) return mapped;
  log.notes.push(`unmapped error from execute: ${message}`);
  return null;
}

function mapKnownError(error, message, log, depth) {
  const name = error?.name;
  const text = typeof error?.message === 'string' ? error.message : '';
  if (name === 'MCPClientError' || name === 'AI_MCPClientError' || error?.constructor?.name === 'MCPClientError') {
    if (typeof error.code === 'number') return verdict('JSONRPC_ERROR', message, { code: error.code });
    if (/POSTing to endpoint \(HTTP \d+\)/.test(text) && typeof error.statusCode === 'number') return verdict('HTTP_ERROR', message, { status: error.statusCode });
    if (/Unexpected content type/.test(text)) return verdict('INVALID_ENVELOPE', message);
    if (/event-stream response without body/.test(text)) return verdict('STREAM_INCOMPLETE', message);
    if (/^Request (was aborted|timed out)/.test(text)) return lostVerdict(message, log);
    if (/still requires input|Unsupported input request|no handler is registered/.test(text)) return verdict('INPUT_REQUIRED', message);
    if (/^Failed to process server response/.test(text) && error.cause !== undefined && depth < 3) {
      const cause = mapKnownError(error.cause, `${message} (cause: ${describe(error.cause)})`, log, depth + 1);
      if (cause !== undefined) return cause;
    }
    if (/Failed to parse server response|missing resultType|Input-required results are not supported|outputSchema|did not return structuredContent/.test(text)) {
      return verdict('INVALID_TOOL_RESULT', `the AI SDK rejected the result: ${message}`);
    }
    return undefined;
  }
  if (name === 'ZodError' || Array.isArray(error?.issues)) return verdict('INVALID_ENVELOPE', message);
  if (name === 'SyntaxError' || name === 'AI_JSONParseError') return verdict('MALFORMED_JSON', message);
  if (name === 'AbortError' || name === 'TimeoutError' || (name === 'TypeError' && /fetch failed|terminated/i.test(text))) return lostVerdict(message, log);
  return undefined;
}

// The client gave up (abort, timer, failed fetch): whether a status came back decides between
// "nothing at all" and "a 2xx that never delivered the response".
function lostVerdict(message, log) {
  const status = log.statuses.at(-1);
  if (status !== undefined && status >= 200 && status <= 299) return verdict('STREAM_INCOMPLETE', `after HTTP ${status}: ${message}`);
  return verdict('NO_RESPONSE', message);
}

function describe(error) {
  if (error instanceof Error) return `${error.constructor?.name ?? error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}
