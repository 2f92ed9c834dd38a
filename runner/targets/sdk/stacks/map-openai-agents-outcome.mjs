// Maps what `@openai/agents` (OpenAI Agents SDK) returned or threw from
// `MCPServerStreamableHttp.callTool()` onto the outcome taxonomy. The Agents SDK drives the
// official v2 client (`@modelcontextprotocol/client`, versionNegotiation auto), so errors are the
// v2 SDK's own and follow its table (../map-sdk-outcome.mjs, "v2"); what the Agents SDK adds:
//
//   callTool() resolves with the result's `content` array only: `isError`, `structuredContent`
//     and `resultType` are not part of its return value ............................. TOOL_SUCCESS
//     (so a tool error reaches the host as a success: the information a host loses)
//   a value that is not an array (not expected from callTool) ......................... TOOL_SUCCESS,
//     with the value in the detail
//   ProtocolError / SdkError / SdkHttpError / ZodError / SyntaxError / fetch failures . the v2 rows
//     (among them SdkError CAPABILITY_NOT_SUPPORTED "Cannot fulfil input request" → INPUT_REQUIRED:
//     the Agents SDK registers no elicitation/sampling/roots handler)
//   anything else (e.g. "Server not initialized", a sanitized MCPTransportError) ..... not reported (null)
import { mapSdkError } from '../map-sdk-outcome.mjs';

function verdict(outcome, detail, extra = {}) {
  return { outcome, ...extra, detail: String(detail).slice(0, 300) };
}

/** The verdict for the value callTool() resolved with. */
export function mapOpenAiAgentsResult(content) {
  if (Array.isArray(content)) return verdict('TOOL_SUCCESS', `callTool returned ${content.length} content block(s); isError is not part of its return value`);
  return verdict('TOOL_SUCCESS', `callTool returned a non-array: ${JSON.stringify(content)}`);
}

/** The verdict for an error callTool() rejected with (v2 client errors); null when not in the table. */
export function mapOpenAiAgentsError(error, context) {
  return mapSdkError(error, { flavor: 'v2', types: context.types, log: context.log });
}
