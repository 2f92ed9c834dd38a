// Maps what `@langchain/mcp-adapters` gave a host from `tool.invoke(args)` (its observation record)
// onto the outcome taxonomy. It wraps the official v1 SDK (@modelcontextprotocol/sdk) and converts
// on its own (dist/tools.js of 1.1.4, `_callTool` and `_convertCallToolResult`). Every failure
// reaches the host as a ToolException, and the SDK's error is not reachable from it: `_callTool`
// catches it and throws `new ToolException(\`Error calling tool ${name}: ${String(error)}\`)` with
// no cause (only a ZodError of langchain's own Zod instances is kept, prettified, as the cause; the
// SDK under it validates with another Zod instance, so its ZodErrors take the generic path). What
// is left of the SDK's error is its `String()`; that text is therefore read back into the record the
// SDK threw (class, code, Zod issues) and mapped by the SDK's own rows (../map-sdk-outcome.mjs, v1),
// so langchain and ts-sdk grade one SDK behaviour alike:
//
//   a resolved value (the result's content, as text or content blocks) ..................... TOOL_SUCCESS
//   ToolException "MCP tool '…' on server '…' returned an error: …" (isError: true) ........ TOOL_ERROR
//   ToolException "… returned an invalid result …" / "… content block with unexpected type" INVALID_TOOL_RESULT
//   ToolException whose cause is a prettified ZodError ("✖ …"; langchain's own Zod: the SDK's
//     JSONRPCMessageSchema.parse), one issue at the root ("✖ Invalid input") .................. INVALID_ENVELOPE
//     with a path ("→ at content[0]") ....................................................... INVALID_TOOL_RESULT
//   ToolException "Error calling tool …: <String(SDK error)>", the SDK error being
//     "McpError: MCP error <code>: …" ........................................................ the v1 McpError rows
//     "Error: Streamable HTTP error: Error POSTing to endpoint: …" ............................. HTTP_ERROR, without
//       a status: String() drops StreamableHTTPError's `code` (the information a host loses)
//     "Error: Streamable HTTP error: Unexpected content type …" ................................ INVALID_ENVELOPE
//     "ZodError: [issues…]" / "[issues…]" (Zod 4's message is the issue array as JSON) ......... the v1 ZodError rows:
//       the envelope union's issues → INVALID_ENVELOPE, a result schema's → INVALID_TOOL_RESULT
//     "SyntaxError: …" ........................................................................ MALFORMED_JSON
//     "TypeError: fetch failed" / "terminated", "AbortError: …", "TimeoutError: …" ............ STREAM_INCOMPLETE
//                                                                                          after a 2xx, else NO_RESPONSE
// Anything else (e.g. ToolInputParsingException: our arguments against the advertised schema) is
// an adapter gap.
import { mapSdkObservation } from '../map-sdk-outcome.mjs';
import { describeThrown, gap, isA, verdict } from '../read-observation.mjs';

/** The verdict for one call of `tool.invoke`: { verdict } or { gap }. */
export function mapLangchainObservation(call, context) {
  if ('returned' in call) {
    const value = call.returned;
    return verdict('TOOL_SUCCESS', `invoke returned ${typeof value === 'string' ? 'text' : Array.isArray(value) ? `${value.length} content block(s)` : typeof value}`);
  }
  const thrown = call.threw;
  if (!isA(thrown, 'ToolException')) return gap('langchain', call);
  const words = describeThrown(thrown);
  const text = thrown.message;
  // A ToolException has no field but its message; the texts below are the library's fixed ones,
  // read only where langchain puts them (at the start): after "Error calling tool …:" come the
  // server's words (a JSON-RPC error's message, a refused POST's body, a piece of a body JSON.parse refused).
  if (/^MCP tool '.*' on server '.*' returned an error:/s.test(text)) return verdict('TOOL_ERROR', words);
  if (/^MCP tool '.*' on server '.*' returned (an invalid result|a content block with unexpected type)/s.test(text)) return verdict('INVALID_TOOL_RESULT', words);
  const atRoot = thrown.cause ? isOneIssueAtRoot(thrown.cause.message) : undefined;
  if (atRoot !== undefined) {
    // Only a ZodError of langchain's own Zod instance keeps a cause (prettified); of the SDK's
    // schemas only JSONRPCMessageSchema is parsed with `.parse()` (transport.send, a JSON body)
    // and so throws that class, and its root is the union of the JSON-RPC message kinds: one issue
    // at the root is the envelope's. Anything with a path is a result's.
    return verdict(atRoot ? 'INVALID_ENVELOPE' : 'INVALID_TOOL_RESULT', `${words} (a ZodError of the SDK's ${atRoot ? 'message envelope' : 'result'} schema)`);
  }
  const wrapped = /^Error calling tool [^:]*: (.*)$/s.exec(text)?.[1];
  const inner = wrapped === undefined ? undefined : readSdkErrorText(wrapped);
  if (inner === undefined) return gap('langchain', call);
  if (inner.class === 'StreamableHTTPError' && /^Streamable HTTP error: Error POSTing to endpoint/.test(inner.message)) {
    return verdict('HTTP_ERROR', `${words} (the status is not in the message)`);
  }
  const mapped = mapSdkObservation({ threw: inner }, context, 'v1');
  return 'verdict' in mapped ? verdict(mapped.verdict.outcome, `${words} (read as ${describeThrown(inner)})`, pickCodes(mapped.verdict)) : gap('langchain', call);
}

/**
 * The record of the SDK error whose `String()` this is (`${name}: ${message}`), as far as the text
 * holds it: McpError's code (its message is "MCP error <code>: …"), StreamableHTTPError (name
 * "Error", message "Streamable HTTP error: …"), a ZodError's issues (Zod 4's message is them as JSON).
 */
export function readSdkErrorText(text) {
  const issues = parseIssueList(text.replace(/^ZodError: /, ''));
  if (issues !== undefined) return { class: 'ZodError', name: 'ZodError', message: text, issues };
  const named = /^([A-Za-z_$][\w$]*): (.*)$/s.exec(text);
  if (!named) return undefined;
  const [, name, message] = named;
  const mcp = name === 'McpError' ? /^MCP error (-?\d+):/.exec(message) : null;
  if (mcp) return { class: 'McpError', name, message, code: Number(mcp[1]) };
  if (name === 'Error' && message.startsWith('Streamable HTTP error: ')) {
    return { class: 'StreamableHTTPError', name, message, ...(/^Streamable HTTP error: Unexpected content type/.test(message) ? { code: -1 } : {}) };
  }
  return { class: name, name, message };
}

/**
 * Whether a `z.prettifyError` text ("✖ message" lines, each maybe followed by "  → at path") is one
 * issue at the root (one "✖" line, no "→ at" line), or undefined when the text is not such a text.
 */
function isOneIssueAtRoot(text) {
  if (typeof text !== 'string' || !text.startsWith('✖')) return undefined;
  const lines = text.split('\n');
  return lines.filter((line) => line.startsWith('✖')).length === 1 && !lines.some((line) => /^\s*→ at /.test(line));
}

function parseIssueList(text) {
  if (!text.trimStart().startsWith('[')) return undefined;
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) && value.every((issue) => issue !== null && typeof issue === 'object' && typeof issue.code === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

function pickCodes(mapped) {
  return { ...(mapped.status === undefined ? {} : { status: mapped.status }), ...(mapped.code === undefined ? {} : { code: mapped.code }) };
}
