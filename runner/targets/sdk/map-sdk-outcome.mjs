// Maps what an MCP TypeScript SDK returned or threw from `callTool` (its observation record,
// observe-call.mjs) onto the outcome taxonomy (runner/classify/OUTCOMES.md), by structure: the
// exported class (`instanceOf`), `code`, `status`, Zod issues. Read from the SDK sources, per major:
//
// v1 (@modelcontextprotocol/sdk 1.x; client/streamableHttp.js, shared/protocol.js, client/index.js)
//   StreamableHTTPError, `code` an HTTP status (100–599) .......................... HTTP_ERROR + status
//   StreamableHTTPError, `code` -1 ("Unexpected content type") ..................... INVALID_ENVELOPE
//   plain Error "Error POSTing to endpoint (HTTP 503): …" (1.10–1.23: no class, no
//     code; the status is only in the text) ........................................ HTTP_ERROR + status
//   McpError (or UrlElicitationRequiredError) with a code the peer sent for this call JSONRPC_ERROR + code
//   McpError -32001 RequestTimeout / -32000 ConnectionClosed, not from the peer (its
//     own timer, a closed transport) ............................................... STREAM_INCOMPLETE after
//                                                                                     a 2xx, else NO_RESPONSE
//   McpError -32602 / -32600 raised locally (structuredContent against the tool's
//     outputSchema, or missing) ...................................................... INVALID_TOOL_RESULT
//   ZodError whose issues are the envelope union's (JSONRPCMessageSchema, parsed by
//     transport.send for a JSON body) ............................................... INVALID_ENVELOPE
//   any other ZodError (CallToolResultSchema, the result) .......................... INVALID_TOOL_RESULT
// v2 (@modelcontextprotocol/client 2.x; branded classes, local and peer errors kept apart)
//   ProtocolError (or a subclass) with a code the peer sent for this call ........... JSONRPC_ERROR + code
//   ProtocolError -32602 "Client does not support <mode> elicitation requests" raised
//     locally (an input request in a mode the host's handler does not support) ........ INPUT_REQUIRED
//   ProtocolError -32602 / -32600 raised locally (an embedded input request it
//     rejects as invalid, structuredContent against the outputSchema) ................ INVALID_TOOL_RESULT
//   SdkHttpError, `status` (data.status; CLIENT_HTTP_* codes) ....................... HTTP_ERROR + status
//   InsufficientScopeError (an OAuthClientFlowError: the server answered 403
//     insufficient_scope and no provider can step up), `requiredScope` ............... HTTP_ERROR 403
//   SdkError CLIENT_HTTP_UNEXPECTED_CONTENT ......................................... INVALID_ENVELOPE
//   SdkError REQUEST_TIMEOUT / CONNECTION_CLOSED / SEND_FAILED ..................... STREAM_INCOMPLETE after
//                                                                                     a 2xx, else NO_RESPONSE
//   SdkError INVALID_RESULT / UNSUPPORTED_RESULT_TYPE ............................... INVALID_TOOL_RESULT
//   SdkError INPUT_REQUIRED_ROUNDS_EXCEEDED ......................................... INPUT_REQUIRED
//   SdkError CAPABILITY_NOT_SUPPORTED while fulfilling an input request (no handler
//     registered for it: stacks built on the v2 client) ............................. INPUT_REQUIRED
// Both
//   SyntaxError (response.json() on a JSON body) .................................... MALFORMED_JSON
//   TypeError "fetch failed" / "terminated", AbortError, TimeoutError ............... STREAM_INCOMPLETE after
//                                                                                     a 2xx, else NO_RESPONSE
// A returned result: `resultType: "input_required"` passed through (2026-07-28) → INPUT_REQUIRED;
// `isError: true` → TOOL_ERROR; any other value the SDK accepted → TOOL_SUCCESS.
// Anything else is not in the table: an adapter gap (the cell is `error`), never "no conclusion".
import { describeThrown, gap, isA, isEnvelopeIssueList, isPeerCode, lostVerdict, verdict } from './read-observation.mjs';

const LOCAL_RESULT_CODES = new Set([-32602, -32600]);
const LOCAL_LOST_CODES = new Set([-32001, -32000]);

/** The verdict for one call of the SDK of major `major` ('v1' | 'v2'): { verdict } or { gap }. */
export function mapSdkObservation(call, context, major) {
  if ('returned' in call) return mapSdkReturned(call.returned, context.protocolVersion);
  const thrown = call.threw;
  return (major === 'v2' ? mapV2Thrown(thrown, context) : mapV1Thrown(thrown, context)) ?? mapCommonThrown(thrown, context) ?? gap(major === 'v2' ? 'ts-client' : 'ts-sdk', call);
}

/** The verdict for a result `callTool` resolved with, under the cell's protocol version. */
export function mapSdkReturned(result, protocolVersion) {
  if (result !== null && typeof result === 'object' && !Array.isArray(result)) {
    // `resultType` means something only from 2026-07-28 on; in an earlier result it is an ignored extra key.
    if (result.resultType === 'input_required' && protocolVersion === '2026-07-28') return verdict('INPUT_REQUIRED', 'the SDK returned the input_required result to the caller');
    if (result.isError === true) return verdict('TOOL_ERROR', 'the SDK returned a result with isError: true');
    return verdict('TOOL_SUCCESS', 'the SDK returned a result');
  }
  return verdict('TOOL_SUCCESS', `the SDK returned a non-object: ${JSON.stringify(result)?.slice(0, 200)}`);
}

function mapV1Thrown(thrown, context) {
  const words = describeThrown(thrown);
  if (isA(thrown, 'StreamableHTTPError')) {
    if (typeof thrown.code === 'number' && thrown.code >= 100 && thrown.code <= 599) return verdict('HTTP_ERROR', words, { status: thrown.code });
    if (thrown.code === -1) return verdict('INVALID_ENVELOPE', words);
    return undefined;
  }
  // 1.10–1.23 report a non-2xx POST as a plain Error with no code: the status is only in its text.
  const plainStatus = thrown.class === 'Error' && thrown.code === undefined ? /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(thrown.message) : null;
  if (plainStatus) return verdict('HTTP_ERROR', words, { status: Number(plainStatus[1]) });
  if (isA(thrown, 'McpError', 'UrlElicitationRequiredError')) return mapRpcError(thrown, context, words);
  return undefined;
}

function mapV2Thrown(thrown, context) {
  const words = describeThrown(thrown);
  if (isA(thrown, 'ProtocolError')) return mapRpcError(thrown, context, words);
  if (isA(thrown, 'SdkHttpError') && typeof thrown.status === 'number') return verdict('HTTP_ERROR', words, { status: thrown.status });
  // Thrown by the transport for a 403 `insufficient_scope` it cannot step up from (no OAuth
  // provider): the typed answer to an HTTP 403, carrying the scope the server asked for.
  if (isA(thrown, 'InsufficientScopeError')) return verdict('HTTP_ERROR', `${words} (requiredScope ${JSON.stringify(thrown.properties?.requiredScope ?? null)})`, { status: 403 });
  if (!isA(thrown, 'SdkError')) return undefined;
  switch (thrown.code) {
    case 'CLIENT_HTTP_UNEXPECTED_CONTENT':
      return verdict('INVALID_ENVELOPE', words);
    case 'REQUEST_TIMEOUT':
    case 'CONNECTION_CLOSED':
    case 'SEND_FAILED':
      return lostVerdict(context, words);
    case 'INVALID_RESULT':
    case 'UNSUPPORTED_RESULT_TYPE':
      return verdict('INVALID_TOOL_RESULT', words);
    case 'INPUT_REQUIRED_ROUNDS_EXCEEDED':
      return verdict('INPUT_REQUIRED', words);
    case 'CAPABILITY_NOT_SUPPORTED':
      // The same code also names a server capability missing for a method; only the input
      // request the host cannot fulfil ("Cannot fulfil input request …") is this row. The record
      // has no other field that tells the two apart (data is absent), hence the message.
      if (/^Cannot fulfil input request/.test(thrown.message)) return verdict('INPUT_REQUIRED', words);
      return undefined;
    default:
      return undefined;
  }
}

// A JSON-RPC error object, as both majors raise it: the peer's, or the SDK's own under the same class.
function mapRpcError(thrown, context, words) {
  if (isPeerCode(context, thrown.code)) return verdict('JSONRPC_ERROR', words, { code: thrown.code });
  if (LOCAL_LOST_CODES.has(thrown.code)) return lostVerdict(context, words);
  // The host's elicitation support refused the mode an input request asks for (client/index.js:
  // "Client does not support URL-mode elicitation requests"): the call still needs input the host
  // cannot give, as CAPABILITY_NOT_SUPPORTED "Cannot fulfil input request" says for a host with no
  // handler. The same -32602 also rejects a malformed input request (a result row); only the text differs.
  if (thrown.code === -32602 && /Client does not support [\w-]+ elicitation requests/.test(thrown.message)) return verdict('INPUT_REQUIRED', words);
  if (LOCAL_RESULT_CODES.has(thrown.code)) return verdict('INVALID_TOOL_RESULT', `the SDK rejected the result locally: ${words}`);
  return undefined;
}

/** Rows every stack on these SDKs shares: Zod, JSON parsing and fetch failures. */
export function mapCommonThrown(thrown, context) {
  const words = describeThrown(thrown);
  if (isA(thrown, 'ZodError') || Array.isArray(thrown.issues)) {
    return isEnvelopeIssueList(thrown.issues) ? verdict('INVALID_ENVELOPE', words) : verdict('INVALID_TOOL_RESULT', words);
  }
  if (isA(thrown, 'SyntaxError')) return verdict('MALFORMED_JSON', words);
  if (isA(thrown, 'AbortError', 'TimeoutError')) return lostVerdict(context, words);
  if (isA(thrown, 'TypeError') && /^(fetch failed|terminated)$/.test(thrown.message)) return lostVerdict(context, words);
  return undefined;
}
