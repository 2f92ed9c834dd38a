// Maps what `@openai/agents` (OpenAI Agents SDK) gave a host from
// `MCPServerStreamableHttp.callTool()` (its observation record) onto the outcome taxonomy. The
// Agents SDK drives the official v2 client (`@modelcontextprotocol/client`, versionNegotiation
// auto) and rethrows its errors unchanged (dist/shims/mcp-server/node.mjs of agents-core 0.20.0;
// `sanitizeMcpTransportError` replaces an error only for an endpoint URL with credentials, a query
// or a fragment, which the matrix's never has), so errors follow the v2 rows (../map-sdk-outcome.mjs);
// what the Agents SDK adds:
//
//   callTool() resolves with the result's `content` array; `isError`, `structuredContent` and
//     `_meta` ride along as non-enumerable properties, which the Agents runtime reads only to
//     choose the tool output (useStructuredContent) and to hand a customDataExtractor: the model
//     gets the content with no error flag .................................................. TOOL_SUCCESS
//   ProtocolError / SdkError / SdkHttpError / InsufficientScopeError / ZodError / SyntaxError /
//     fetch failures ........................................................................ the v2 rows
//     (among them SdkError CAPABILITY_NOT_SUPPORTED "Cannot fulfil input request" → INPUT_REQUIRED:
//     the Agents SDK registers no elicitation/sampling/roots handler)
// Anything else (e.g. "Server not initialized", a sanitized MCPTransportError) is an adapter gap.
// Not a row, but what the wire may show: after an error it reads as a closed session, callTool
// reconnects and sends the tools/call once more (callToolResult, "streamable HTTP tool call retry").
import { mapSdkObservation } from '../map-sdk-outcome.mjs';
import { gap, verdict } from '../read-observation.mjs';

/** The verdict for one call of `callTool`: { verdict } or { gap }. */
export function mapOpenAiAgentsObservation(call, context) {
  if ('returned' in call) {
    const content = call.returned;
    if (Array.isArray(content)) return verdict('TOOL_SUCCESS', `callTool returned ${content.length} content block(s), with no error flag the host reads`);
    return verdict('TOOL_SUCCESS', `callTool returned a non-array: ${JSON.stringify(content)?.slice(0, 200)}`);
  }
  const mapped = mapSdkObservation(call, context, 'v2');
  return 'gap' in mapped ? gap('openai-agents', call) : mapped;
}
