// Maps what the MCP Inspector's CLI printed for one `--method tools/call` (its observation record,
// inspector-cli.mjs) onto the outcome taxonomy. The developer who ran it reads its exit status, the
// result it printed on stdout (the CallToolResult as pretty-printed JSON) and what it printed on
// stderr; those are the CLI's words, and all of them:
//
//   { returned: { exit, stdout, stderr } }                           it exited (exit: code or signal)
//   { returned: { exit, stdout, stderr, stoppedByHost, afterMs } }   the host's last resort stopped it
//
// 2.x (`@modelcontextprotocol/inspector` 2.x, clients/cli; read from 2.12.0's build, core/cli/
// error-handler.ts and handlers/emit-result.ts): a result is printed on stdout; a failure is one
// JSON line on stderr, `{"error":{code,message,cause?,status?}}`, with an exit status per kind
// (EXIT_CODES: 1 error, 3 auth_required, 4 unreachable, 5 tool_error). `message` is the thrown
// error's message alone: its class, the SDK's error code and a JSON-RPC error's code are gone
// (the v2 ProtocolError's message is the server's message); `status` is the error's HTTP status
// when it has one (SdkHttpError). Where no field tells rows apart, the row reads the fixed text the
// library writes (the v2 client 2.3.1 and @modelcontextprotocol/ext-tasks 0.2.2 under it).
//
//   exit 0, a result on stdout ........................................ the SDK's result rows: isError
//                                                                        TOOL_ERROR, input_required at
//                                                                        2026-07-28 INPUT_REQUIRED, else
//                                                                        TOOL_SUCCESS
//   exit 0, nothing printed (an input request the CLI cannot answer: it never settles it, and
//     Node exits 0 once nothing is left to wait for) ...................... TOOL_SUCCESS: its exit status
//                                                                        says success
//   exit 5, `tool_is_error` (the result with isError: true on stdout) ...... TOOL_ERROR
//   a `status` outside 2xx (SdkHttpError; `auth_required` for 401/403) ........ HTTP_ERROR + status
//   `auth_required` without a status (exit 3: a 401 it could not authorize) .. HTTP_ERROR, no status
//   "Insufficient scope: …" (the v2 InsufficientScopeError) ................... HTTP_ERROR 403
//   `unreachable` ("fetch failed", ECONNRESET, "aborted", …) / "Request timed
//     out", "Connection closed" .......................................... STREAM_INCOMPLETE after a 2xx,
//                                                                        else NO_RESPONSE
//   a message that is a Zod issue list (the SDK's ZodError, as JSON) ........... INVALID_ENVELOPE for the
//                                                                        envelope union, else
//                                                                        INVALID_TOOL_RESULT
//   "Unexpected content type" (CLIENT_HTTP_UNEXPECTED_CONTENT) ................. INVALID_ENVELOPE
//   V8's JSON.parse words ("… in JSON at position n", "Unexpected end of JSON
//     input", "… is not valid JSON") ..................................... MALFORMED_JSON
//   "Invalid result for tools/call", "Unsupported result type", "Protocol value
//     failed schema validation", the CLI's own outputSchema check ("declares an
//     output schema but returned no structured content", Ajv's "data… must …") INVALID_TOOL_RESULT
//   "exceeded n input-required rounds", "exceeded n input_required rounds" ..... INPUT_REQUIRED
//   any other message, when the server sent a JSON-RPC error for the call (the
//     message is the server's; the code is not printed) ...................... JSONRPC_ERROR, no code
//
// 1.x and earlier (`mcp-inspector --cli` runs the inspector-cli package's index.js on the v1 SDK):
// a result on stdout and exit 0 (isError included); a failure is exit 1 and the line
// "Failed to call tool <name>: <the SDK error's message>" on stderr, read by the v1 SDK's texts:
// "Streamable HTTP error: Error POSTing to endpoint" HTTP_ERROR (the status only where the text has
// it, "(HTTP n)"), "Streamable HTTP error: Unexpected content type" INVALID_ENVELOPE, "MCP error n: …"
// JSONRPC_ERROR + n when the server sent n (its own -32001/-32000 are lost calls, its own -32602/-32600
// INVALID_TOOL_RESULT), a Zod issue list, JSON.parse's words and "fetch failed" as above.
//
// Stopped by the host's last resort with nothing printed, or killed by a signal it did not get from
// the host: it concluded nothing. Stopped after it printed a result (it did not exit): the result
// rows, the developer read it. Anything else is not in the table: an adapter gap.
import { mapSdkReturned } from '../map-sdk-outcome.mjs';
import { gap, isEnvelopeIssueList, isPeerCode, lostVerdict, verdict } from '../read-observation.mjs';

/** The verdict for one run of the CLI: { verdict }, { none } or { gap }. */
export function mapInspectorCliObservation(call, context) {
  const run = readRun(call.returned);
  if (!run) return gap('inspector-cli', call);
  const result = parseJson(run.stdout);
  if (run.stoppedByHost) {
    // It printed the result and then did not exit (closing its connection): the developer read the result.
    if (isObject(result) && !readEnvelope(run.stderr)) return withDetail(mapSdkReturned(result, context.protocolVersion), `; the CLI printed the result, then did not exit until the host stopped it ${run.afterMs} ms after it started`);
    return { none: `the CLI had printed no conclusion when the host's last resort stopped it, ${run.afterMs} ms after it started` };
  }
  if (typeof run.exit !== 'number') return { none: `the CLI died (${run.exit}) without a conclusion` };
  if (run.exit === 0 && isObject(result)) return mapSdkReturned(result, context.protocolVersion);
  // 2.x, an input request it cannot answer (the CLI never settles it): Node exits 0 when nothing is left to wait for.
  if (run.exit === 0 && run.stdout.trim() === '' && !readEnvelope(run.stderr)) return verdict('TOOL_SUCCESS', 'the CLI exited 0 and printed nothing: its exit status reports success, with no result');
  const envelope = readEnvelope(run.stderr);
  if (envelope) return mapEnvelope(envelope, run, context) ?? gap('inspector-cli', call);
  // The message may span lines (a Zod issue list): everything after the prefix, up to the line the
  // 1.x launcher adds when the CLI it started failed ("Failed with exit code: 1").
  const v1 = /^Failed to call tool [^\n]*?: ([\s\S]*)$/m.exec(run.stderr)?.[1]?.replace(/\s*Failed with exit code: \d+\s*$/, '').trimEnd();
  if (run.exit === 1 && v1 !== undefined) return mapV1Message(v1, context) ?? gap('inspector-cli', call);
  return gap('inspector-cli', call);
}

function mapEnvelope({ code, message, status, cause }, run, context) {
  const words = `exit ${run.exit}, ${code}: ${message}${cause ? ` (cause: ${cause})` : ''}`;
  if (code === 'tool_is_error' && run.exit === 5) return verdict('TOOL_ERROR', `the CLI printed the result with isError: true and exited 5 (${message})`);
  if (typeof status === 'number' && (status < 200 || status > 299)) return verdict('HTTP_ERROR', words, { status });
  // A 401 the transport could not answer (no OAuth provider, --stored-auth-only): the CLI's own kind, no status.
  if (code === 'auth_required') return verdict('HTTP_ERROR', words);
  if (code === 'unreachable') return lostVerdict(context, words);
  if (code !== 'error') return undefined;
  return mapText(message, context, words) ?? (context.peerErrorCodes.length > 0 && status === undefined ? verdict('JSONRPC_ERROR', `the server's JSON-RPC error, printed without its code: ${words}`) : undefined);
}

// The fixed texts of the SDKs (v2 client, ext-tasks; v1 for 1.x) and of the CLI, shared by both majors.
function mapText(message, context, words) {
  const issues = parseJson(message);
  if (Array.isArray(issues) && issues.length > 0 && issues.every((issue) => isObject(issue) && typeof issue.code === 'string')) {
    return isEnvelopeIssueList(issues) ? verdict('INVALID_ENVELOPE', words) : verdict('INVALID_TOOL_RESULT', words);
  }
  if (/Unexpected content type/.test(message)) return verdict('INVALID_ENVELOPE', words);
  // The v2 transport's InsufficientScopeError: a 403 `insufficient_scope` it cannot step up from.
  if (/^Insufficient scope: /.test(message)) return verdict('HTTP_ERROR', words, { status: 403 });
  if (/ in JSON at position \d+|^Unexpected end of JSON input|is not valid JSON|^Unexpected token|^Bad control character in string literal/.test(message)) return verdict('MALFORMED_JSON', words);
  // The SDK's own texts for a lost call; but 2.x prints a JSON-RPC error's message without its code,
  // so when the server answered the call with an error, the same text is the server's (a -32001
  // "Request timed out" it sent is not the CLI's lost call; issue 29): mapEnvelope reads it as such.
  if (/^(Request timed out|Connection closed)\b/.test(message) && context.peerErrorCodes.length > 0) return undefined;
  if (/^(Request timed out|Connection closed|fetch failed|terminated)\b/.test(message)) return lostVerdict(context, words);
  if (/exceeded \d+ input[-_]required rounds/.test(message)) return verdict('INPUT_REQUIRED', words);
  if (/^Invalid result for tools\/call|^Unsupported result type|^Protocol value failed schema validation|declares an output schema but returned no structured content|^data(\/\S*)? must /.test(message)) {
    return verdict('INVALID_TOOL_RESULT', `the CLI rejected the result: ${words}`);
  }
  return undefined;
}

function mapV1Message(message, context) {
  const words = `exit 1: Failed to call tool …: ${message}`;
  if (/^Streamable HTTP error: Error POSTing to endpoint/.test(message) || /^Error POSTing to endpoint/.test(message)) {
    const status = /\(HTTP (\d{3})\)/.exec(message)?.[1];
    return verdict('HTTP_ERROR', words, status === undefined ? {} : { status: Number(status) });
  }
  const rpc = /^MCP error (-?\d+): /.exec(message);
  if (rpc) {
    const code = Number(rpc[1]);
    if (isPeerCode(context, code)) return verdict('JSONRPC_ERROR', words, { code });
    if (code === -32001 || code === -32000) return lostVerdict(context, words);
    if (code === -32602 || code === -32600) return verdict('INVALID_TOOL_RESULT', `the SDK rejected the result locally: ${words}`);
    return undefined;
  }
  return mapText(message.replace(/^Streamable HTTP error: /, ''), context, words);
}

/** The record's fields, when it has the shape inspector-cli.mjs writes. */
function readRun(value) {
  if (!isObject(value) || !('exit' in value) || typeof value.stdout !== 'string' || typeof value.stderr !== 'string') return undefined;
  return value;
}

/** The 2.x error envelope: the last stderr line that is `{"error":{"code":…,"message":…}}`. */
function readEnvelope(stderr) {
  for (const line of stderr.trim().split('\n').reverse()) {
    const parsed = parseJson(line);
    if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.code === 'string' && typeof parsed.error.message === 'string') return parsed.error;
  }
  return undefined;
}

function withDetail(mapped, more) {
  return 'verdict' in mapped ? { verdict: { ...mapped.verdict, detail: `${mapped.verdict.detail}${more}`.slice(0, 300) } } : mapped;
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
