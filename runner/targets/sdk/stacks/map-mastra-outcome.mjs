// Maps what `@mastra/mcp` (Mastra's MCPClient) gave a host from a tool's `execute(args)` (its
// observation record) onto the outcome taxonomy. It drives the official v2 client
// (`@modelcontextprotocol/client` 2.0.0, its own copy) and rethrows its errors unchanged, so those
// follow the v2 rows (../map-sdk-outcome.mjs); what Mastra adds (dist/index.js of 2.0.0, the
// tool's `execute`, and @mastra/core's createTool wrapper):
//
//   a result with isError: true is thrown as MastraError `id` MCP_CLIENT_TOOL_EXECUTION_FAILED,
//     carrying the content's text (onToolError 'throw', the default) ........................ TOOL_ERROR
//   a resolved object { error: true, validationErrors, message } whose message is the
//     wrapper's "Tool output validation failed …" (structuredContent against the advertised
//     outputSchema: returned, not thrown; the object has no field naming the direction) ...... INVALID_TOOL_RESULT
//   any other resolved value: the result, or its structuredContent alone when it has one ...... TOOL_SUCCESS
//   SdkError / ProtocolError / SdkHttpError / InsufficientScopeError / ZodError / SyntaxError /
//     fetch failures ........................................................................ the v2 rows
// Anything else (other MastraErrors, input validation of our own arguments) is an adapter gap.
// Not a row but what the wire shows: after an error whose message names "fetch failed", a closed
// connection, "not connected" or HTTP 400/401/403/404, Mastra reconnects and sends the tools/call
// once more (isReconnectableMCPError); the record is that of the retry.
import { mapSdkObservation } from '../map-sdk-outcome.mjs';
import { gap, verdict } from '../read-observation.mjs';

/** The verdict for one call of `execute`: { verdict } or { gap }. */
export function mapMastraObservation(call, context) {
  if ('returned' in call) return mapReturned(call);
  const thrown = call.threw;
  if (isMastraError(thrown)) {
    if (thrown.properties.id === 'MCP_CLIENT_TOOL_EXECUTION_FAILED') return verdict('TOOL_ERROR', `MastraError ${thrown.properties.id}: ${thrown.message}`);
    return gap('mastra', call);
  }
  const mapped = mapSdkObservation(call, context, 'v2');
  return 'gap' in mapped ? gap('mastra', call) : mapped;
}

function mapReturned(call) {
  const value = call.returned;
  if (isValidationError(value)) {
    if (/^Tool output validation failed/.test(value.message)) return verdict('INVALID_TOOL_RESULT', `execute returned a validation error: ${value.message}`);
    return gap('mastra', call);
  }
  if (value !== null && typeof value === 'object' && Array.isArray(value.content)) return verdict('TOOL_SUCCESS', `execute returned the result (${value.content.length} content block(s))`);
  return verdict('TOOL_SUCCESS', `execute returned the structured content: ${JSON.stringify(value)?.slice(0, 200)}`);
}

// @mastra/core's createTool wrapper returns (does not throw) input and output validation failures.
function isValidationError(value) {
  return value !== null && typeof value === 'object' && value.error === true && 'validationErrors' in value && typeof value.message === 'string';
}

// MastraError (from @mastra/core/error): an Error with a string `id` and `domain`.
function isMastraError(thrown) {
  return typeof thrown?.properties?.id === 'string' && typeof thrown?.properties?.domain === 'string';
}
