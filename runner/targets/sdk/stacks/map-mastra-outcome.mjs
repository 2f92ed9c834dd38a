// Maps what `@mastra/mcp` (Mastra's MCPClient) gave a host from a tool's `execute(args)` onto the
// outcome taxonomy. It drives the official v2 client (`@modelcontextprotocol/client`) and rethrows
// its errors unchanged, so those follow the v2 table (../map-sdk-outcome.mjs, "v2"); what Mastra
// adds (dist/index.js of 2.0.0, the tool's `execute` and @mastra/core's createTool wrapper):
//
//   a result with isError: true is thrown as MastraError MCP_CLIENT_TOOL_EXECUTION_FAILED,
//     carrying the content's text (onToolError 'throw', the default) ................... TOOL_ERROR
//   a resolved object { error: true, validationErrors, message "Tool output validation
//     failed …" } (structuredContent against the advertised outputSchema: returned, not thrown) INVALID_TOOL_RESULT
//   any other resolved value: the result, or its structuredContent alone when it has one . TOOL_SUCCESS
//   SdkError / ProtocolError / SdkHttpError / ZodError / SyntaxError / fetch failures .... the v2 rows
//   anything else (other MastraErrors, input validation of our own arguments) ........... not reported (null)
// Not a row but seen in the wire: after an HTTP 400/401/403/404, "fetch failed" or a closed
// connection, Mastra reconnects and sends the tools/call once more; the verdict is that of the retry.
import { mapSdkError } from '../map-sdk-outcome.mjs';

function verdict(outcome, detail, extra = {}) {
  return { outcome, ...extra, detail: String(detail).slice(0, 300) };
}

/** The verdict for the value execute() resolved with; null when not in the table. */
export function mapMastraResult(value, log) {
  if (isValidationError(value)) {
    if (/^Tool output validation failed/.test(value.message)) return verdict('INVALID_TOOL_RESULT', `execute returned a validation error: ${value.message}`);
    log.notes.push(`execute returned a validation error not about the result: ${String(value.message).slice(0, 300)}`);
    return null;
  }
  if (value !== null && typeof value === 'object' && Array.isArray(value.content)) return verdict('TOOL_SUCCESS', `execute returned the result (${value.content.length} content block(s))`);
  return verdict('TOOL_SUCCESS', `execute returned the structured content: ${JSON.stringify(value)}`);
}

/** The verdict for an error execute() rejected with; null when not in the table. */
export function mapMastraError(error, context) {
  if (isMastraError(error)) {
    if (error.id === 'MCP_CLIENT_TOOL_EXECUTION_FAILED') return verdict('TOOL_ERROR', `MastraError ${error.id}: ${error.message}`);
    context.log.notes.push(`unmapped error from execute: MastraError ${error.id}: ${String(error.message).slice(0, 400)}`);
    return null;
  }
  return mapSdkError(error, { flavor: 'v2', types: context.types, log: context.log });
}

// @mastra/core's createTool wrapper returns (does not throw) input and output validation failures.
function isValidationError(value) {
  return value !== null && typeof value === 'object' && value.error === true && 'validationErrors' in value && typeof value.message === 'string';
}

// MastraError (from @mastra/core/error): an Error with a string `id` and `domain`.
function isMastraError(error) {
  return error instanceof Error && typeof error.id === 'string' && typeof error.domain === 'string';
}
