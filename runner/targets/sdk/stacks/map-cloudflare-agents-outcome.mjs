// Maps what the tool from Cloudflare's `agents` MCP client gave a host (its observation record) onto
// the outcome taxonomy. The host is an Agent that connected with `addMcpServer` and calls the tool
// `this.mcp.getAITools()` made, as the AI SDK does (cloudflare-agents-host.mjs). Read from the
// package's dist (client-*.js of agents 0.32.0: MCPClientManager.getAITools and callTool, the
// invoker's callV2Tool): `execute` calls the manager's `callTool`, which hands the call to the
// official v2 client (`@modelcontextprotocol/client`, its peer) unchanged, and rethrows its errors
// unchanged. What `agents` adds:
//
//   execute resolved with the result (a result with isError: true never resolves) ..... the SDK's result
//                                                                                       rows (2026-07-28
//                                                                                       input_required:
//                                                                                       INPUT_REQUIRED;
//                                                                                       else TOOL_SUCCESS)
//   a plain `Error` with no code, status or cause: `throw new Error(text)`, where text is the
//     result's first content block when it is text, else "Tool call failed" (isError: true) ... TOOL_ERROR
//   an OAuthClientFlowError other than InsufficientScopeError (RegistrationRejectedError, …) after
//     this call's tools/call was answered 401 or 403: `addMcpServer` gives every server an OAuth
//     provider (its callback URL from the request), so the transport tries to authorize and
//     fails; the error's own status is the authorization server's ................... HTTP_ERROR + the
//                                                                                      tools/call's status
//   the Workers runtime's network error: a plain `Error` "Network connection lost." with
//     `retryable: true` (workerd's fetch; Node's is TypeError "fetch failed") ............ STREAM_INCOMPLETE after
//                                                                                      a 2xx, else NO_RESPONSE
//   ProtocolError / SdkError / SdkHttpError / InsufficientScopeError / ZodError / SyntaxError /
//     fetch failures ........................................................................ the v2 rows
//                                                                                      (../map-sdk-outcome.mjs)
// Anything else is an adapter gap.
import { mapSdkObservation, mapSdkReturned } from '../map-sdk-outcome.mjs';
import { describeThrown, gap, isA, lostVerdict, verdict } from '../read-observation.mjs';

/** The verdict for one call of the tool's `execute`: { verdict } or { gap }. */
export function mapCloudflareAgentsObservation(call, context) {
  if ('returned' in call) return mapSdkReturned(call.returned, context.protocolVersion);
  const thrown = call.threw;
  if (isToolErrorConversion(thrown)) return verdict('TOOL_ERROR', `execute threw the tool's error text (isError: true): ${describeThrown(thrown)}`);
  if (isA(thrown, 'OAuthClientFlowError') && !isA(thrown, 'InsufficientScopeError')) {
    const refused = context.toolCallStatuses.findLast((status) => status === 401 || status === 403);
    if (refused !== undefined) return verdict('HTTP_ERROR', `the tools/call was answered ${refused}; authorizing failed: ${describeThrown(thrown)}`, { status: refused });
  }
  if (isRuntimeNetworkError(thrown)) return lostVerdict(context, describeThrown(thrown));
  const mapped = mapSdkObservation(call, context, 'v2');
  return 'gap' in mapped ? gap('cloudflare-agents', call) : mapped;
}

// workerd turns a connection that broke under a fetch into `Error: Network connection lost.`, retryable.
function isRuntimeNetworkError(thrown) {
  return thrown?.class === 'Error' && thrown.properties?.retryable === true && /^Network connection lost/.test(thrown.message);
}

// getAITools' execute: `if (result.isError) throw new Error(message)`; nothing else on the call path
// throws a bare Error (the v2 client's own are SdkError / ProtocolError, fetch's are TypeError).
function isToolErrorConversion(thrown) {
  return thrown?.class === 'Error' && thrown.name === 'Error' && thrown.code === undefined && thrown.status === undefined && thrown.cause === undefined && thrown.instanceOf === undefined && thrown.properties === undefined;
}
