// Maps what `@langchain/mcp-adapters` gave a host from `tool.invoke(args)` onto the outcome
// taxonomy. It wraps the official v1 SDK (@modelcontextprotocol/sdk) and converts on its own
// (src/tools.ts `_callTool` / `_convertCallToolResult`, 1.1.x): every failure reaches the host as a
// ToolException whose message is all that is left (`Error calling tool <name>: ${String(error)}`;
// the original error is not kept as the cause). The table reads that message:
//
//   a resolved value (text or content blocks, the result's content) ..................... TOOL_SUCCESS
//   ToolException "returned an error: …" (the result had isError: true) ................. TOOL_ERROR
//   ToolException "returned an invalid result" / "content block with unexpected type" .... INVALID_TOOL_RESULT
//   ToolException from a ZodError (prettified, "✖ …"; the SDK's result schema) ........... INVALID_TOOL_RESULT
//   "… McpError: MCP error <code>: …" with a code the peer sent for this call ............ JSONRPC_ERROR + code
//   "… McpError: MCP error -32001 / -32000 …" not from the peer (timeout, closed) ........ STREAM_INCOMPLETE
//     after a 2xx status, else NO_RESPONSE
//   other "McpError" raised locally ........................................................ INVALID_TOOL_RESULT
//   "… Streamable HTTP error: Unexpected content type …" ................................... INVALID_ENVELOPE
//   "… Streamable HTTP error: Error POSTing to endpoint …" ................................. HTTP_ERROR, without a
//     status: the message does not carry it (the information a host loses)
//   "… SyntaxError: …" ..................................................................... MALFORMED_JSON
//   "… TypeError: fetch failed" / "AbortError" / "TimeoutError" ............................ STREAM_INCOMPLETE
//     after a 2xx status, else NO_RESPONSE
// Anything else (e.g. ToolInputParsingException: the arguments do not match the advertised schema)
// is "not reported" (null) with the error in the notes.

function verdict(outcome, detail, extra = {}) {
  return { outcome, ...extra, detail: String(detail).slice(0, 300) };
}

/** The verdict for the value tool.invoke() resolved with. */
export function mapLangchainResult(value) {
  return verdict('TOOL_SUCCESS', `invoke returned ${typeof value === 'string' ? 'text' : Array.isArray(value) ? `${value.length} content block(s)` : typeof value}`);
}

/** The verdict for an error tool.invoke() rejected with; null when not in the table. */
export function mapLangchainError(error, log) {
  const name = error?.name;
  const message = typeof error?.message === 'string' ? error.message : String(error);
  const described = `${name ?? 'Error'}: ${message}`;
  if (name === 'ToolException') {
    if (/^MCP tool '.*' on server '.*' returned an error:/s.test(message)) return verdict('TOOL_ERROR', described);
    if (/returned an invalid result|content block with unexpected type/.test(message)) return verdict('INVALID_TOOL_RESULT', described);
    if (/^✖/.test(message)) return verdict('INVALID_TOOL_RESULT', described);
    const wrapped = /^Error calling tool [^:]*: (.*)$/s.exec(message)?.[1];
    if (wrapped !== undefined) {
      const mapped = mapWrappedText(wrapped, described, log);
      if (mapped) return mapped;
    }
  }
  log.notes.push(`unmapped error from invoke: ${described.slice(0, 500)}`);
  return null;
}

function mapWrappedText(text, described, log) {
  const mcp = /^McpError: MCP error (-?\d+):/.exec(text);
  if (mcp) {
    const code = Number(mcp[1]);
    if (log.peerErrorCodes.has(code)) return verdict('JSONRPC_ERROR', described, { code });
    if (code === -32001 || code === -32000) return lostVerdict(described, log);
    return verdict('INVALID_TOOL_RESULT', `the SDK rejected the result locally: ${described}`);
  }
  if (/Streamable HTTP error: Unexpected content type/.test(text)) return verdict('INVALID_ENVELOPE', described);
  if (/Streamable HTTP error: Error POSTing to endpoint/.test(text)) return verdict('HTTP_ERROR', `${described} (the status is not in the message)`);
  if (/^SyntaxError:/.test(text)) return verdict('MALFORMED_JSON', described);
  if (/^(TypeError: (fetch failed|terminated)|AbortError|TimeoutError)/.test(text)) return lostVerdict(described, log);
  return undefined;
}

function lostVerdict(message, log) {
  const status = log.statuses.at(-1);
  if (status !== undefined && status >= 200 && status <= 299) return verdict('STREAM_INCOMPLETE', `after HTTP ${status}: ${message}`);
  return verdict('NO_RESPONSE', message);
}
