// Maps what a host receives on mcp-remote's stdio for its tools/call onto the outcome taxonomy.
// mcp-remote (a stdio ⇄ Streamable HTTP bridge with the official SDK bundled) passes the server's
// result or JSON-RPC error through; a failure on the HTTP side becomes a JSON-RPC error it writes
// itself, code -32001 and message "mcp-remote: <the SDK error's message>" (0.15.x). The host reads:
//
//   a response with `result`, `isError: true` ............................ TOOL_ERROR
//   a response with `result`, `resultType: "input_required"` (2026) ....... INPUT_REQUIRED
//   a response with any other `result` .................................... TOOL_SUCCESS
//   a response with `error` and an integer code ........................... JSONRPC_ERROR + code; this
//     includes the bridge's own -32001 "mcp-remote: …" for an HTTP status, a body that does not
//     parse, a wrong content type or a dropped stream: the host cannot tell those from a server's
//     JSON-RPC error (the information a host loses)
//   a line on stdout that is not JSON ..................................... MALFORMED_JSON
//   a JSON line for this id that is neither a result nor an error ........ INVALID_ENVELOPE
//   nothing for this id within the timeout, or the bridge exits ........... NO_RESPONSE (the host has
//     no HTTP status to tell a stream that broke after a 2xx)

function verdict(outcome, detail, extra = {}) {
  return { outcome, ...extra, detail: String(detail).slice(0, 300) };
}

/** The verdict for the message the host received for its tools/call (parsed JSON). */
export function mapMcpRemoteMessage(message, protocolVersion) {
  if (message !== null && typeof message === 'object' && 'result' in message && !('error' in message)) {
    const result = message.result;
    if (result?.isError === true) return verdict('TOOL_ERROR', 'the bridge delivered a result with isError: true');
    if (result?.resultType === 'input_required' && protocolVersion !== '2025-11-25') return verdict('INPUT_REQUIRED', 'the bridge delivered an input_required result');
    return verdict('TOOL_SUCCESS', 'the bridge delivered a result');
  }
  if (message !== null && typeof message === 'object' && 'error' in message && !('result' in message) && Number.isInteger(message.error?.code)) {
    const text = typeof message.error.message === 'string' ? message.error.message : '';
    const origin = text.startsWith('mcp-remote:') ? 'the bridge wrote a JSON-RPC error for an HTTP-side failure' : 'the bridge passed a JSON-RPC error through';
    return verdict('JSONRPC_ERROR', `${origin}: ${message.error.code} ${text}`, { code: message.error.code });
  }
  return verdict('INVALID_ENVELOPE', `the bridge delivered neither a result nor an error: ${JSON.stringify(message).slice(0, 200)}`);
}

/** The verdict for a stdout line that is not JSON. */
export function mapMcpRemoteGarbage(line) {
  return verdict('MALFORMED_JSON', `the bridge wrote a line that is not JSON: ${line.slice(0, 200)}`);
}

/** The verdict when no answer came: the timeout ran out, or the bridge exited (`exit` says how). */
export function mapMcpRemoteSilence(timeoutMs, exit) {
  return verdict('NO_RESPONSE', exit ? `the bridge exited (${exit}) without answering` : `no answer on the bridge's stdout within ${timeoutMs} ms`);
}
