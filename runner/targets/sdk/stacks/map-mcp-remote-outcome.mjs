// Maps what a host receives on mcp-remote's stdio for its tools/call (the observation record)
// onto the outcome taxonomy. mcp-remote (a stdio ⇄ Streamable HTTP bridge with the official SDK
// bundled) is not a library in the host's process, so what "it returned" is what the host read
// on its stdout for the call's id:
//
//   { returned: { received: 'message', message } }   a JSON-RPC message answering the call
//   { returned: { received: 'line', line } }          a stdout line that is not JSON
//   { returned: { received: 'nothing', waitedMs } }   nothing before the host's request deadline
//   { returned: { received: 'nothing', exit } }       the bridge exited without answering
//
// It passes the server's result or JSON-RPC error through; a failure on the HTTP side becomes a
// JSON-RPC error it writes itself, code -32001 and message "mcp-remote: <the SDK error's message>"
// (0.15.x). The host reads:
//
//   a `result` with `isError: true` ....................................................... TOOL_ERROR
//   a `result` with `resultType: "input_required"`, at 2026-07-28 only (before it, the key
//     is an ignored extra) ............................................................... INPUT_REQUIRED
//   any other `result` .................................................................... TOOL_SUCCESS
//   an `error` with an integer code: a server's, passed through, or the bridge's own -32001
//     "mcp-remote: …" for an HTTP status, a body that does not parse, a wrong content type or
//     a dropped stream (the host cannot tell those from a server's -32001) ................ JSONRPC_ERROR + code
//   a line that is not JSON ............................................................... MALFORMED_JSON
//   a message for this id that is neither a result nor an error (or both) ................. INVALID_ENVELOPE
//   nothing before the host's request deadline (the bridge gives the host no timeout of its
//     own; a stdio host's deadline is the only timer, and it is the host's conclusion) .... NO_RESPONSE (the host
//                                                                                          has no HTTP status)
//   the bridge exited without answering ................................................... no conclusion: it died
import { gap, verdict } from '../read-observation.mjs';

/** The verdict for what the host read for one tools/call: { verdict }, { none } (the bridge died) or { gap }. */
export function mapMcpRemoteObservation(call, context) {
  const received = 'returned' in call ? call.returned : undefined;
  switch (received?.received) {
    case 'message':
      return mapMessage(received.message, context.protocolVersion) ?? gap('mcp-remote', call);
    case 'line':
      return verdict('MALFORMED_JSON', `the bridge wrote a line that is not JSON: ${String(received.line).slice(0, 200)}`);
    case 'nothing':
      if (received.exit !== undefined) return { none: `the bridge exited (${received.exit}) without answering` };
      return verdict('NO_RESPONSE', `no answer on the bridge's stdout within the host's deadline of ${received.waitedMs} ms`);
    default:
      return gap('mcp-remote', call);
  }
}

function mapMessage(message, protocolVersion) {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult && !hasError) {
    const result = message.result;
    if (result?.isError === true) return verdict('TOOL_ERROR', 'the bridge delivered a result with isError: true');
    // `resultType` means something only from 2026-07-28 on; in an earlier result it is an ignored extra key.
    if (result?.resultType === 'input_required' && protocolVersion === '2026-07-28') return verdict('INPUT_REQUIRED', 'the bridge delivered an input_required result');
    return verdict('TOOL_SUCCESS', 'the bridge delivered a result');
  }
  if (hasError && !hasResult && Number.isInteger(message.error?.code)) {
    const text = typeof message.error.message === 'string' ? message.error.message : '';
    const origin = text.startsWith('mcp-remote:') ? 'the bridge wrote a JSON-RPC error for an HTTP-side failure' : 'the bridge passed a JSON-RPC error through';
    return verdict('JSONRPC_ERROR', `${origin}: ${message.error.code} ${text}`, { code: message.error.code });
  }
  return verdict('INVALID_ENVELOPE', `the bridge delivered neither a result nor an error: ${JSON.stringify(message).slice(0, 200)}`);
}
