// One test per row of the inspector-cli mapping table (map-inspector-cli-outcome.mjs), with what the
// Inspector's CLI printed against the mock server: 2.x lines recorded from 2.12.0, 1.x lines from
// 1.0.3 (its `--cli` runs @modelcontextprotocol/inspector-cli 1.0.3 on @modelcontextprotocol/sdk 1.x).
import { describe, expect, it } from 'vitest';
import { brief, mapFor, type MapContext } from '../../../../test/map-observation-helpers.js';

const map = mapFor('inspector-cli');
const RESULT_OK = '{\n  "content": [\n    {\n      "type": "text",\n      "text": "ok"\n    }\n  ],\n  "isError": false\n}\n';
const RESULT_FAILED = '{\n  "content": [\n    {\n      "type": "text",\n      "text": "failed"\n    }\n  ],\n  "isError": true\n}\n';

/** What the CLI printed and how it exited, as inspector-cli.mjs records it. */
function ran(exit: number | string, stdout: string, stderr: string, extra: Record<string, unknown> = {}) {
  return { returned: { exit, stdout, stderr, ...extra } };
}
/** A 2.x failure: the error envelope on stderr. */
function failed(exit: number, error: Record<string, unknown>) {
  return ran(exit, '', `${JSON.stringify({ error })}\n`);
}
/** A 1.x failure: exit 1; on stderr, its deprecation notice, "Failed to call tool …" and its launcher's line. */
function failedV1(message: string) {
  const notice = '\n⚠️  @modelcontextprotocol/inspector v1 is deprecated.\n    Upgrade:  npx @modelcontextprotocol/inspector@latest\n    v1 receives security fixes only.\n\n';
  return ran(1, '', `${notice}Failed to call tool delete_record: ${message}\n\nFailed with exit code: 1\n`);
}
const outcomeOf = (call: unknown, context: Partial<MapContext> = {}) => brief(map(call, context));

describe('inspector-cli mapping: what it printed on stdout', () => {
  it('exit 0 with a result is read by the result rows: TOOL_SUCCESS', () => {
    expect(map(ran(0, RESULT_OK, ''))).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'the SDK returned a result' } });
  });
  it('exit 0 with a result with isError: true (1.x exits 0 for it) is TOOL_ERROR', () => {
    expect(outcomeOf(ran(0, RESULT_FAILED, ''))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('exit 0 with an input_required result means it only at 2026-07-28', () => {
    const result = JSON.stringify({ content: [], resultType: 'input_required', inputRequests: {} }, null, 2);
    expect(outcomeOf(ran(0, result, ''), { protocolVersion: '2026-07-28' })).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(outcomeOf(ran(0, result, ''), { protocolVersion: '2025-11-25' })).toEqual({ outcome: 'TOOL_SUCCESS' });
  });
  it('exit 0 with nothing printed (2.x: an input request it never answers, and Node exits when nothing is left to wait for) is TOOL_SUCCESS', () => {
    // Recorded: input-required [2026-07-28].
    expect(map(ran(0, '', ''))).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'the CLI exited 0 and printed nothing: its exit status reports success, with no result' } });
  });
  it('exit 5 with tool_is_error (2.x prints the result, then the error line) is TOOL_ERROR', () => {
    const call = ran(5, RESULT_FAILED, `${JSON.stringify({ error: { code: 'tool_is_error', message: "Tool 'synthetic_tool' returned isError:true." } })}\n`);
    expect(map(call)).toMatchObject({ verdict: { outcome: 'TOOL_ERROR', detail: "the CLI printed the result with isError: true and exited 5 (Tool 'synthetic_tool' returned isError:true.)" } });
  });
});

describe('inspector-cli mapping: the 2.x error line', () => {
  it('a status outside 2xx is HTTP_ERROR + the status', () => {
    // Recorded: http-503-empty-body and http-429-retry-after [2025-11-25].
    expect(outcomeOf(failed(1, { code: 'error', message: 'Error POSTing to endpoint: ', status: 503 }))).toEqual({ outcome: 'HTTP_ERROR', status: 503 });
    expect(outcomeOf(failed(1, { code: 'error', message: 'Rate limited by the server (HTTP 429) on tools/call. The server asked to retry after 1s. Error POSTing to endpoint: ', cause: 'Error POSTing to endpoint: ', status: 429 }))).toEqual({ outcome: 'HTTP_ERROR', status: 429 });
  });
  it('auth_required without a status (a 401 it could not authorize, exit 3) is HTTP_ERROR without a status', () => {
    // Recorded: http-401-www-authenticate [2025-11-25].
    expect(outcomeOf(failed(3, { code: 'auth_required', message: 'Error POSTing to endpoint: ' }))).toEqual({ outcome: 'HTTP_ERROR' });
  });
  it('"Insufficient scope" (the v2 transport\'s InsufficientScopeError) is HTTP_ERROR 403', () => {
    expect(outcomeOf(failed(1, { code: 'error', message: 'Insufficient scope: required "files:write"' }), { toolCallStatuses: [403], peerErrorCodes: [-32001] })).toEqual({ outcome: 'HTTP_ERROR', status: 403 });
  });
  it('unreachable (exit 4) is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    // Recorded: no-response-reset [2025-11-25].
    const call = failed(4, { code: 'unreachable', message: 'fetch failed', cause: 'read ECONNRESET' });
    expect(outcomeOf(call, { toolCallStatuses: [0] })).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(call, { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('"Request timed out" is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    expect(outcomeOf(failed(1, { code: 'error', message: 'Request timed out' }), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it("a Zod issue list (the SDK's ZodError as JSON) is INVALID_ENVELOPE for the envelope union, else INVALID_TOOL_RESULT", () => {
    const branch = [{ expected: 'object', code: 'invalid_type', path: [], message: 'Invalid input: expected object, received string' }];
    const envelope = JSON.stringify([{ code: 'invalid_union', errors: [branch, branch, branch, branch], path: [], message: 'Invalid input' }], null, 2);
    expect(outcomeOf(failed(1, { code: 'error', message: envelope }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
    const result = JSON.stringify([{ expected: 'array', code: 'invalid_type', path: ['content'], message: 'Invalid input: expected array, received string' }], null, 2);
    expect(outcomeOf(failed(1, { code: 'error', message: result }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('"Unexpected content type" is INVALID_ENVELOPE', () => {
    expect(outcomeOf(failed(1, { code: 'error', message: 'Unexpected content type: text/html; charset=utf-8' }))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it.each(["Expected property name or '}' in JSON at position 1", 'Unexpected end of JSON input', 'Unterminated string in JSON at position 93', 'Unexpected token \'h\', "hello" is not valid JSON'])("JSON.parse's words (%s) are MALFORMED_JSON", (message) => {
    expect(outcomeOf(failed(1, { code: 'error', message }))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it.each([
    'Invalid result for tools/call: content.0: Invalid input',
    "Unsupported result type 'partial' for tools/call",
    'Protocol value failed schema validation',
    'Tool "get_weather" declares an output schema but returned no structured content',
    "data must have required property 'temperature'",
    'data/pair/0 must be string, data/pair/1 must be integer',
  ])('a result the SDK or the CLI rejects ("%s") is INVALID_TOOL_RESULT', (message) => {
    expect(outcomeOf(failed(1, { code: 'error', message }))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('"exceeded n input-required rounds" is INPUT_REQUIRED', () => {
    // Recorded: mrtr-loop [2026-07-28] (ext-tasks' limit; the CLI's own MRTR loop says input_required).
    expect(outcomeOf(failed(1, { code: 'error', message: 'Tool call exceeded 10 input-required rounds (options.maxInputRounds)' }))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(outcomeOf(failed(1, { code: 'error', message: 'Multi-round-trip "tools/call" exceeded 10 input_required rounds without completing.' }))).toEqual({ outcome: 'INPUT_REQUIRED' });
  });
  it("any other message, when the server sent a JSON-RPC error for the call, is JSONRPC_ERROR without a code (the CLI prints the server's message alone)", () => {
    // Recorded: jsonrpc-invalid-params [2025-11-25].
    const call = failed(1, { code: 'error', message: 'synthetic invalid params' });
    expect(map(call, { peerErrorCodes: [-32602] })).toMatchObject({ verdict: { outcome: 'JSONRPC_ERROR', detail: "the server's JSON-RPC error, printed without its code: exit 1, error: synthetic invalid params" } });
    expect(map(call, { peerErrorCodes: [-32602] })).not.toHaveProperty('verdict.code');
  });
  it('the same message with no JSON-RPC error from the server, or another kind of error line, is an adapter gap', () => {
    expect(map(failed(1, { code: 'error', message: 'synthetic invalid params' }))).toMatchObject({ gap: expect.stringMatching(/^inspector-cli has no mapping for a returned value/) });
    expect(map(failed(5, { code: 'tool_not_found', message: "Tool 'delete_record' not found on server." }))).toMatchObject({ gap: expect.any(String) });
  });
});

describe('inspector-cli mapping: the 1.x "Failed to call tool" line', () => {
  it('"Streamable HTTP error: Error POSTing to endpoint" is HTTP_ERROR, with the status only where the text has it', () => {
    expect(outcomeOf(failedV1('Streamable HTTP error: Error POSTing to endpoint: '))).toEqual({ outcome: 'HTTP_ERROR' });
    expect(outcomeOf(failedV1('Error POSTing to endpoint (HTTP 503): '))).toEqual({ outcome: 'HTTP_ERROR', status: 503 });
  });
  it('"Streamable HTTP error: Unexpected content type" is INVALID_ENVELOPE', () => {
    expect(outcomeOf(failedV1('Streamable HTTP error: Unexpected content type: text/html; charset=utf-8'))).toEqual({ outcome: 'INVALID_ENVELOPE' });
  });
  it('"MCP error n" is JSONRPC_ERROR + n when the server sent n', () => {
    expect(outcomeOf(failedV1('MCP error -32602: synthetic invalid params'), { peerErrorCodes: [-32602] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
  });
  it("the SDK's own -32001 (its timeout) is NO_RESPONSE / STREAM_INCOMPLETE after a 2xx; its own -32602 is INVALID_TOOL_RESULT", () => {
    expect(outcomeOf(failedV1('MCP error -32001: Request timed out'), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
    expect(outcomeOf(failedV1('MCP error -32602: Structured content does not match the tool\'s output schema: data must have required property \'temperature\''))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
  });
  it('a Zod issue list, JSON.parse\'s words and "fetch failed" follow the shared rows', () => {
    const issues = JSON.stringify([{ expected: 'array', code: 'invalid_type', path: ['content'], message: 'Invalid input: expected array, received string' }], null, 2);
    expect(outcomeOf(failedV1(issues))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(outcomeOf(failedV1("Expected property name or '}' in JSON at position 1"))).toEqual({ outcome: 'MALFORMED_JSON' });
    expect(outcomeOf(failedV1('fetch failed'))).toEqual({ outcome: 'NO_RESPONSE' });
  });
  it('an "MCP error" code the table does not hold is an adapter gap', () => {
    expect(map(failedV1('MCP error -32099: something else'))).toMatchObject({ gap: expect.stringMatching(/^inspector-cli has no mapping for a returned value/) });
  });
});

describe('inspector-cli mapping: a CLI that did not exit on its own', () => {
  it("stopped by the host's last resort with nothing printed: it concluded nothing", () => {
    expect(map(ran('SIGTERM', '', '', { stoppedByHost: true, afterMs: 30512 }))).toEqual({ none: "the CLI had printed no conclusion when the host's last resort stopped it, 30512 ms after it started" });
  });
  it('stopped by the host after it printed a result: the developer read the result', () => {
    expect(map(ran('SIGTERM', RESULT_OK, '', { stoppedByHost: true, afterMs: 61000 }))).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS', detail: expect.stringMatching(/then did not exit until the host stopped it 61000 ms after it started$/) } });
  });
  it('killed by a signal the host did not send: it died without a conclusion', () => {
    expect(map(ran('SIGSEGV', '', ''))).toEqual({ none: 'the CLI died (SIGSEGV) without a conclusion' });
  });
  it('a record of another shape is an adapter gap, never a verdict', () => {
    expect(map({ returned: { something: 'else' } })).toMatchObject({ gap: expect.stringMatching(/^inspector-cli has no mapping/) });
  });
});

// Where each reading of the CLI's words ends (issue 29's mutation run): the rows above say what a
// line means; these say which lines, statuses and records are not that row.
const PEER = { peerErrorCodes: [-32603] };

describe('inspector-cli mapping: which run is which reading', () => {
  it('a run no row reads (an exit status and words the table does not have) is an adapter gap naming the stack', () => {
    for (const call of [ran(2, '', "error: unknown option '--bogus'\n"), ran(1, '', "error: unknown option '--bogus'\n"), ran(0, 'not a result\n', '')]) {
      expect(map(call)).toMatchObject({ gap: expect.stringMatching(/^inspector-cli has no mapping for a returned value/) });
    }
  });
  it('exit 0 with only white space printed is the same as nothing printed: TOOL_SUCCESS', () => {
    expect(outcomeOf(ran(0, '\n', ''))).toEqual({ outcome: 'TOOL_SUCCESS' });
  });
  it('1.x\'s "Failed to call tool" line counts only at the start of a line and with exit status 1', () => {
    expect(map(ran(1, '', 'Warning: Failed to call tool delete_record: fetch failed\n'))).toMatchObject({ gap: expect.any(String) });
    expect(map(ran(2, '', 'Failed to call tool delete_record: fetch failed\n'))).toMatchObject({ gap: expect.any(String) });
  });
  it("1.x's message is read without the launcher's closing line, whether or not the launcher ran, and whatever white space ends it", () => {
    const detail = 'exit 1: Failed to call tool …: MCP error -32602: synthetic invalid params';
    for (const tail of ['\n', '\n\nFailed with exit code: 1\n', '\n\nFailed with exit code: 1', '\n\nFailed with exit code: 1\n\n']) {
      const call = ran(1, '', `Failed to call tool delete_record: MCP error -32602: synthetic invalid params${tail}`);
      expect(map(call, { peerErrorCodes: [-32602] })).toEqual({ verdict: { outcome: 'JSONRPC_ERROR', code: -32602, detail } });
    }
  });
  it("only the launcher's closing line is cut: the same words inside the server's message stay", () => {
    const message = 'MCP error -32603: the build step Failed with exit code: 2; see the server log';
    expect(map(failedV1(message), PEER)).toEqual({ verdict: { outcome: 'JSONRPC_ERROR', code: -32603, detail: `exit 1: Failed to call tool …: ${message}` } });
  });
  it('the last 2.x error line is the CLI\'s answer', () => {
    const lines = [{ error: { code: 'error', message: 'Unexpected content type: text/html' } }, { error: { code: 'unreachable', message: 'fetch failed' } }].map((line) => JSON.stringify(line)).join('\n');
    expect(outcomeOf(ran(4, '', `${lines}\n`))).toEqual({ outcome: 'NO_RESPONSE' });
  });
  it('a stderr line is the 2.x error line only with a string code and a string message', () => {
    expect(map(ran(1, '', `${JSON.stringify({ error: { code: 5, message: 'Service Unavailable', status: 503 } })}\n`))).toMatchObject({ gap: expect.any(String) });
    expect(map(ran(4, '', `${JSON.stringify({ error: { code: 'unreachable', message: 5 } })}\n`))).toMatchObject({ gap: expect.any(String) });
  });
  it.each([
    ['null', null],
    ['a string', 'exit 1'],
    ['no exit status', { stdout: '', stderr: '' }],
    ['no stdout', { exit: 1, stderr: '' }],
    ['a stdout that is not text', { exit: 0, stdout: 5, stderr: '' }],
    ['a stderr that is not text', { exit: 1, stdout: '', stderr: 5 }],
  ])('a record with %s is an adapter gap, never a verdict', (_label, returned) => {
    expect(map({ returned })).toMatchObject({ gap: expect.stringMatching(/^inspector-cli has no mapping/) });
  });
});

describe('inspector-cli mapping: the 2.x error line, edge by edge', () => {
  it('unreachable keeps its cause in the words', () => {
    const call = failed(4, { code: 'unreachable', message: 'fetch failed', cause: 'read ECONNRESET' });
    expect(map(call, { toolCallStatuses: [0] })).toEqual({ verdict: { outcome: 'NO_RESPONSE', detail: 'exit 4, unreachable: fetch failed (cause: read ECONNRESET)' } });
  });
  it('tool_is_error is TOOL_ERROR only with its exit status 5', () => {
    expect(map(failed(1, { code: 'tool_is_error', message: "Tool 'synthetic_tool' returned isError:true." }))).toMatchObject({ gap: expect.any(String) });
  });
  it('a status from 300 up is HTTP_ERROR + the status', () => {
    expect(outcomeOf(failed(1, { code: 'error', message: 'Error POSTing to endpoint: ', status: 300 }))).toEqual({ outcome: 'HTTP_ERROR', status: 300 });
  });
  it.each([200, 250, 299])("a status inside 2xx (2.x prints a server's JSON-RPC error code from 100 to 599 as `status`: %i) is never HTTP_ERROR", (status) => {
    const mapped = map(failed(1, { code: 'error', message: 'synthetic error', status }), { peerErrorCodes: [status] });
    expect(mapped).not.toMatchObject({ verdict: { outcome: 'HTTP_ERROR' } });
  });
  it('a status that is not a number is no HTTP status', () => {
    expect(map(failed(1, { code: 'error', message: 'Service Unavailable', status: '503' }))).not.toMatchObject({ verdict: { outcome: 'HTTP_ERROR' } });
  });
  it.each(['[]', '[null]', '[{"message":"not an issue"}]', '[{"code":"invalid_type","path":["content"]},{"message":"no code"}]'])(
    "a server's message that is a JSON list but not a Zod issue list (%s) stays the server's",
    (message) => {
      expect(outcomeOf(failed(1, { code: 'error', message }), PEER)).toEqual({ outcome: 'JSONRPC_ERROR' });
    },
  );
  it.each([
    'upstream refused: Insufficient scope: files:write',
    'config step: Unexpected end of JSON input',
    'config step: Unexpected token } in the file',
    'config step: Bad control character in string literal',
    'upstream fetch failed',
    'upstream terminated',
    'upstream: Invalid result for tools/call',
    'upstream: Unsupported result type',
    'upstream: Protocol value failed schema validation',
    'metadata must be an object',
  ])("the SDK's and the CLI's fixed texts count only at the start of the message: the server's message \"%s\" stays the server's", (message) => {
    expect(outcomeOf(failed(1, { code: 'error', message }), PEER)).toEqual({ outcome: 'JSONRPC_ERROR' });
  });
  it('a result the CLI rejects says so in its words', () => {
    expect(map(failed(1, { code: 'error', message: 'Protocol value failed schema validation' }))).toEqual({ verdict: { outcome: 'INVALID_TOOL_RESULT', detail: 'the CLI rejected the result: exit 1, error: Protocol value failed schema validation' } });
  });
  it('a detail is cut at 300 characters, like every verdict\'s', () => {
    const mapped = map(ran('SIGTERM', RESULT_OK, '', { stoppedByHost: true, afterMs: '9'.repeat(400) }));
    expect(mapped).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS' } });
    expect((mapped as { verdict: { detail: string } }).verdict.detail).toHaveLength(300);
  });
});

describe('inspector-cli mapping: the 1.x line, edge by edge', () => {
  it.each([
    'MCP error -32603: Streamable HTTP error: Error POSTing to endpoint (HTTP 502): upstream',
    'MCP error -32603: Error POSTing to endpoint (HTTP 502): upstream',
  ])("a server's JSON-RPC error quoting an HTTP failure stays the server's: %s", (message) => {
    expect(outcomeOf(failedV1(message), PEER)).toEqual({ outcome: 'JSONRPC_ERROR', code: -32603 });
  });
  it("a server's positive JSON-RPC code is read as the v1 SDK writes it (MCP error 404: …)", () => {
    expect(outcomeOf(failedV1('MCP error 404: no such record'), { peerErrorCodes: [404] })).toEqual({ outcome: 'JSONRPC_ERROR', code: 404 });
  });
  it('only a message that starts with "MCP error n:" is the v1 SDK\'s McpError', () => {
    expect(map(failedV1('Request failed: MCP error -32603: upstream'), PEER)).toMatchObject({ gap: expect.any(String) });
  });
  it("the SDK's own -32000 (connection closed) is NO_RESPONSE / STREAM_INCOMPLETE after a 2xx", () => {
    expect(outcomeOf(failedV1('MCP error -32000: Connection closed'))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(failedV1('MCP error -32000: Connection closed'), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it("the SDK's own -32600 (a tool with an output schema returned no structured content) is INVALID_TOOL_RESULT, in words", () => {
    const message = 'MCP error -32600: Tool delete_record has an output schema but did not return structured content';
    expect(map(failedV1(message))).toEqual({ verdict: { outcome: 'INVALID_TOOL_RESULT', detail: `the SDK rejected the result locally: exit 1: Failed to call tool …: ${message}` } });
  });
});
