// Maps what an MCP TypeScript SDK returned or threw from `callTool` onto the outcome taxonomy
// (runner/classify/OUTCOMES.md). The table is read from the SDK sources, per major version:
//
// v1 (@modelcontextprotocol/sdk 1.x)
//   StreamableHTTPError (client/streamableHttp.js), `.code` = HTTP status ... HTTP_ERROR + status
//   plain Error "Error POSTing to endpoint (HTTP 503): …" (1.10–1.23, before
//     StreamableHTTPError carried the status): the status read from the text  HTTP_ERROR + status
//     `.code` -1 "Unexpected content type" .................................. INVALID_ENVELOPE
//   McpError with a code the peer sent for this call (seen on the wire) .... JSONRPC_ERROR + code
//   McpError -32001 RequestTimeout / -32000 ConnectionClosed, not from the
//     peer (the SDK's own timer or a closed transport) ...................... STREAM_INCOMPLETE after a
//     2xx status, else NO_RESPONSE
//   other local McpError (e.g. -32602 structuredContent vs outputSchema) .... INVALID_TOOL_RESULT
//   ZodError thrown by transport.send (JSONRPCMessageSchema.parse) .......... INVALID_ENVELOPE
//   ZodError from the result schema (CallToolResultSchema) ................... INVALID_TOOL_RESULT
//   SyntaxError (response.json() on a JSON body) ............................. MALFORMED_JSON
//   TypeError "fetch failed" / AbortError .................................... NO_RESPONSE, or
//     STREAM_INCOMPLETE after a 2xx status
// v2 (@modelcontextprotocol/client 2.x): branded classes, local and peer errors kept apart
//   ProtocolError with a code the peer sent for this call ..................... JSONRPC_ERROR + code
//   ProtocolError raised locally (e.g. an embedded input request it rejects) . INVALID_TOOL_RESULT
//   SdkHttpError, `.status` (data.status) .................................... HTTP_ERROR + status
//   SdkError CLIENT_HTTP_UNEXPECTED_CONTENT .................................. INVALID_ENVELOPE
//   SdkError REQUEST_TIMEOUT / CONNECTION_CLOSED / SEND_FAILED ............... STREAM_INCOMPLETE / NO_RESPONSE
//   SdkError INVALID_RESULT / UNSUPPORTED_RESULT_TYPE ........................ INVALID_TOOL_RESULT
//   SdkError INPUT_REQUIRED_ROUNDS_EXCEEDED .................................. INPUT_REQUIRED
//   SdkError CAPABILITY_NOT_SUPPORTED "Cannot fulfil input request" (an input_required
//     result, and the host registered no handler for it: stacks built on the v2 client) INPUT_REQUIRED
//   ZodError / SyntaxError: as in v1
// A returned result: `resultType: "input_required"` passed through (2026-07-28) → INPUT_REQUIRED;
// `isError: true` → TOOL_ERROR; anything else the SDK accepted → TOOL_SUCCESS.
// Anything not in this table is reported as "not reported" (null) with the error in the notes.

// No layer is sent: the runner's verdict reader derives it from the outcome (OUTCOME_LAYER in
// runner/types.ts), so the taxonomy is written once.

function verdict(outcome, detail, extra = {}) {
  return { outcome, ...extra, detail: String(detail).slice(0, 300) };
}

/** The verdict for a value `callTool` resolved with, under the cell's protocol version. */
export function mapSdkResult(result, protocolVersion) {
  if (result !== null && typeof result === 'object') {
    // `resultType` means something only from 2026-07-28 on; in an earlier result it is an ignored extra key.
    if (result.resultType === 'input_required' && protocolVersion === '2026-07-28') return verdict('INPUT_REQUIRED', 'the SDK returned the input_required result to the caller');
    if (result.isError === true) return verdict('TOOL_ERROR', 'the SDK returned a result with isError: true');
    return verdict('TOOL_SUCCESS', 'the SDK returned a result');
  }
  return verdict('TOOL_SUCCESS', `the SDK returned a non-object: ${JSON.stringify(result)}`);
}

/** The verdict for an error `callTool` rejected with; null when the error is not in the table. */
export function mapSdkError(error, context) {
  const message = describe(error);
  if (context.flavor === 'v2') {
    const mapped = mapV2Error(error, message, context);
    if (mapped !== undefined) return mapped;
  } else {
    const mapped = mapV1Error(error, message, context);
    if (mapped !== undefined) return mapped;
  }
  return mapCommonError(error, message, context);
}

function mapV1Error(error, message, context) {
  const name = error?.constructor?.name;
  const code = error?.code;
  if (name === 'StreamableHTTPError' || /^Streamable HTTP error:/.test(error?.message ?? '')) {
    if (typeof code === 'number' && code >= 100 && code <= 599) return verdict('HTTP_ERROR', message, { status: code });
    if (/Unexpected content type/.test(error.message)) return verdict('INVALID_ENVELOPE', message);
    return lostVerdict(message, context.log);
  }
  // 1.10–1.23 report a non-2xx POST as a plain Error whose only trace of the status is its text.
  const plainStatus = name === 'Error' ? /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(error.message ?? '') : null;
  if (plainStatus) return verdict('HTTP_ERROR', message, { status: Number(plainStatus[1]) });
  const McpError = context.types.McpError;
  if ((McpError && error instanceof McpError) || name === 'McpError' || name === 'UrlElicitationRequiredError') {
    if (context.log.peerErrorCodes.has(code)) return verdict('JSONRPC_ERROR', message, { code });
    if (code === -32001 || code === -32000) return lostVerdict(message, context.log);
    return verdict('INVALID_TOOL_RESULT', `the SDK rejected the result locally: ${message}`);
  }
  return undefined;
}

function mapV2Error(error, message, context) {
  const { ProtocolError, SdkError, SdkHttpError } = context.types;
  if (ProtocolError && error instanceof ProtocolError) {
    // Peer errors arrive as ProtocolError, but the SDK also raises it locally (e.g. "Invalid
    // elicitation request" while fulfilling an input_required result): only a code the peer sent counts.
    if (context.log.peerErrorCodes.has(error.code)) return verdict('JSONRPC_ERROR', message, { code: error.code });
    return verdict('INVALID_TOOL_RESULT', `the SDK rejected the result locally: ${message}`);
  }
  if (SdkHttpError && error instanceof SdkHttpError) {
    const status = error.data?.status;
    if (typeof status === 'number') return verdict('HTTP_ERROR', message, { status });
  }
  if (SdkError && error instanceof SdkError) {
    switch (error.code) {
      case 'CLIENT_HTTP_UNEXPECTED_CONTENT':
        return verdict('INVALID_ENVELOPE', message);
      case 'REQUEST_TIMEOUT':
      case 'CONNECTION_CLOSED':
      case 'SEND_FAILED':
        return lostVerdict(message, context.log);
      case 'INVALID_RESULT':
      case 'UNSUPPORTED_RESULT_TYPE':
        return verdict('INVALID_TOOL_RESULT', message);
      case 'INPUT_REQUIRED_ROUNDS_EXCEEDED':
        return verdict('INPUT_REQUIRED', message);
      case 'CAPABILITY_NOT_SUPPORTED':
        if (/^Cannot fulfil input request/.test(error.message)) return verdict('INPUT_REQUIRED', message);
        break;
    }
  }
  return undefined;
}

function mapCommonError(error, message, context) {
  const name = error?.name;
  if (name === 'ZodError' || Array.isArray(error?.issues)) {
    return error.__memOrigin === 'send' ? verdict('INVALID_ENVELOPE', message) : verdict('INVALID_TOOL_RESULT', message);
  }
  if (name === 'SyntaxError') return verdict('MALFORMED_JSON', message);
  if (name === 'AbortError' || name === 'TimeoutError' || (name === 'TypeError' && /fetch failed|terminated/i.test(error?.message ?? ''))) {
    return lostVerdict(message, context.log);
  }
  context.log.notes.push(`unmapped error from callTool: ${message}`);
  return null;
}

// The SDK gave up on its own (timer, closed connection, failed fetch): whether a status came back
// decides between "nothing at all" and "a 2xx that never delivered the response".
function lostVerdict(message, log) {
  const status = log.statuses.at(-1);
  if (status !== undefined && status >= 200 && status <= 299) return verdict('STREAM_INCOMPLETE', `after HTTP ${status}: ${message}`);
  return verdict('NO_RESPONSE', message);
}

function describe(error) {
  if (error instanceof Error) return `${error.constructor?.name ?? error.name}: ${error.message}`;
  return String(error);
}
