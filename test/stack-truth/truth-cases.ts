// The cases of the truth corpus: every layer a tools/call can fail on, and every cell issue 26 names
// as disagreeing with its library. Each runs at every protocol version it applies to that the
// stack speaks. A case listed under DEADLINE_CASES ends only when a deadline fires: it is kept for
// a stack only where the library's own default deadline decides (never a timer of ours).

/** Case id → what it covers. */
export const TRUTH_CASES: Readonly<Record<string, string>> = {
  baseline: 'a complete tool result',
  'tool-is-error': 'a tool error (isError: true)',
  'content-not-array': 'an invalid result (content not an array); langchain reads it as a raw Zod issue array (issue 26)',
  'result-not-object': 'an invalid result (not an object); graded two ways on one SDK (issue 26)',
  'result-meta-not-object': 'an invalid result (_meta not an object); graded two ways on one SDK (issue 26)',
  'is-error-string': 'an invalid result (isError a string)',
  'structured-content-array': 'a valid result the v1 SDK rejects (structuredContent an array): a false failure, not silence (issue 26)',
  'block-last-modified-number': 'a valid result langchain reported nothing for (issue 26)',
  'structured-content-violates-output-schema': 'structuredContent against the advertised outputSchema',
  'result-type-in-2025-result': 'resultType in a result: input_required at 2026-07-28, a mapper bug at 2025-03-26/06-18 (issue 26)',
  'http-503-empty-body': 'an HTTP error without a body',
  'http-500-jsonrpc-error-body': 'an HTTP error with a JSON-RPC error body',
  'http-403-insufficient-scope': 'HTTP 403 insufficient_scope: a typed InsufficientScopeError in the v2 client (issue 26)',
  'http-404-method-not-found-26': 'HTTP 404 with a JSON-RPC error (2026-07-28)',
  'http-400-unsupported-version-32022': 'HTTP 400 with -32022 (2026-07-28)',
  'http-503-then-200': 'two calls: an HTTP error, then a result (each call its own context)',
  'http-200-text-html': 'a 200 with an unexpected content type',
  'session-expired-404': 'a session the server no longer knows',
  'jsonrpc-invalid-params': 'a JSON-RPC error -32602',
  'error-32001-from-peer': 'a -32001 the server sent: the peer error, not the library timeout (issue 26)',
  'error-with-data': 'a JSON-RPC error with data',
  'error-code-string': 'an invalid error object (code a string)',
  'result-and-error': 'an invalid envelope (both result and error)',
  'neither-result-nor-error': 'an invalid envelope (neither)',
  'wrong-response-id': 'a response for another id: ai-sdk rejects it at once (issue 26)',
  'malformed-json': 'a body that is not JSON',
  'truncated-json-body': 'a JSON body cut short',
  'sse-final-jsonrpc-error': 'a JSON-RPC error as the final SSE event',
  'sse-final-data-not-json': 'a final SSE event whose data is not JSON',
  'sse-reset-mid-stream': 'an SSE stream reset before its final event',
  'sse-end-without-result': 'an SSE stream that ends cleanly without a result',
  'no-response-reset': 'a connection reset before any status: mastra re-sends the call (issue 26)',
  'no-response-hang': 'no answer at all: the library deadline decides',
  'input-required': 'resultType input_required (2026-07-28)',
  'mrtr-loop': 'input_required round after round (2026-07-28): openai-agents and ts-client graded apart (issue 26)',
};

/** Cases that end only when a deadline fires, for some library: what waits. */
export const DEADLINE_CASES: Readonly<Record<string, string>> = {
  'no-response-hang': 'the server never answers',
  'sse-end-without-result': 'the stream ends without the response; a client waits for it',
  'wrong-response-id': 'the only response carries another id; a client waits for its own',
  'sse-reset-mid-stream': 'the stream is cut before the response; a client waits for it (or resumes)',
  'sse-final-data-not-json': 'the final event cannot be read; a client waits for a response it can read',
};
