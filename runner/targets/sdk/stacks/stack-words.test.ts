// A verdict about a library keeps what the library did in its own words (the project's rule): each
// mcp-remote and Mastra row's detail, and where each row ends. Issue 29's mutation run: their tests
// compared outcomes only, so a row's words and its edges could change unseen.
import { describe, expect, it } from 'vitest';
import { v2Client } from '../../../../test/bundled-libraries.js';
import { brief, mapFor, threw } from '../../../../test/map-observation-helpers.js';

const remote = mapFor('mcp-remote');
const message = (body: unknown, protocolVersion = '2025-11-25') => remote({ returned: { received: 'message', message: body } }, { protocolVersion });

describe('mcp-remote: what the host read, in words', () => {
  it.each([
    [{ result: { isError: true } }, 'TOOL_ERROR', 'the bridge delivered a result with isError: true'],
    [{ result: { content: [] } }, 'TOOL_SUCCESS', 'the bridge delivered a result'],
    [{ result: { isError: 'true' } }, 'TOOL_SUCCESS', 'the bridge delivered a result'],
    [{ result: null }, 'TOOL_SUCCESS', 'the bridge delivered a result'],
    [{ error: { code: -32602, message: 'Invalid params' } }, 'JSONRPC_ERROR', 'the bridge passed a JSON-RPC error through: -32602 Invalid params'],
    [{ error: { code: -32001, message: 'mcp-remote: fetch failed' } }, 'JSONRPC_ERROR', 'the bridge wrote a JSON-RPC error for an HTTP-side failure: -32001 mcp-remote: fetch failed'],
    [{ error: { code: -32603, message: 42 } }, 'JSONRPC_ERROR', 'the bridge passed a JSON-RPC error through: -32603 '],
    [{ error: { code: 1.5, message: 'odd' } }, 'INVALID_ENVELOPE', 'the bridge delivered neither a result nor an error: {"error":{"code":1.5,"message":"odd"}}'],
    [{ error: { code: '-32602' } }, 'INVALID_ENVELOPE', 'the bridge delivered neither a result nor an error: {"error":{"code":"-32602"}}'],
    [{ error: null }, 'INVALID_ENVELOPE', 'the bridge delivered neither a result nor an error: {"error":null}'],
  ])('%j is %s', (body, outcome, detail) => {
    expect(message(body)).toEqual({ verdict: { outcome, ...(outcome === 'JSONRPC_ERROR' ? { code: (body as { error: { code: number } }).error.code } : {}), detail } });
  });

  it('input_required is read only at 2026-07-28, and only as that exact result type', () => {
    expect(message({ result: { resultType: 'input_required' } }, '2026-07-28')).toEqual({ verdict: { outcome: 'INPUT_REQUIRED', detail: 'the bridge delivered an input_required result' } });
    expect(message({ result: { resultType: 'complete' } }, '2026-07-28')).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'the bridge delivered a result' } });
  });

  it('a long envelope or line is cut at 200 characters', () => {
    const long = 'x'.repeat(300);
    expect(message({ other: long })).toEqual({ verdict: { outcome: 'INVALID_ENVELOPE', detail: `the bridge delivered neither a result nor an error: ${JSON.stringify({ other: long }).slice(0, 200)}` } });
    expect(remote({ returned: { received: 'line', line: long } })).toEqual({ verdict: { outcome: 'MALFORMED_JSON', detail: `the bridge wrote a line that is not JSON: ${'x'.repeat(200)}` } });
  });

  it('a message that is no object, an array, or a record of another kind is an adapter gap', () => {
    expect(message(null)).toEqual({ gap: 'mcp-remote has no mapping for a returned value {"received":"message","message":null}' });
    expect(message([{ result: {} }])).toEqual({ gap: expect.stringMatching(/^mcp-remote has no mapping for a returned value/) });
    expect(message('text')).toEqual({ gap: expect.stringMatching(/^mcp-remote has no mapping for a returned value/) });
    expect(remote({ threw: { class: 'Error', name: 'Error', message: 'spawn failed' } })).toEqual({ gap: 'mcp-remote has no mapping for a thrown Error: spawn failed' });
  });
});

type Ctor<A extends unknown[]> = new (...args: A) => Error;
const SdkError = v2Client.SdkError as Ctor<[string, string, unknown?]>;
const mastra = mapFor('mastra');
/** MastraError's record: its id and domain are own properties of the error. */
const mastraError = (id: unknown, domain: unknown, message: string) => ({ threw: { class: 'MastraError', name: 'MastraError', message, properties: { id, domain } } });

describe('Mastra: what execute gave the host, in words', () => {
  it('a tool error keeps the MastraError id and the content text it carries', () => {
    expect(mastra(mastraError('MCP_CLIENT_TOOL_EXECUTION_FAILED', 'MCP', 'failed'))).toEqual({ verdict: { outcome: 'TOOL_ERROR', detail: 'MastraError MCP_CLIENT_TOOL_EXECUTION_FAILED: failed' } });
  });
  it('a MastraError is one only with a string id and a string domain; otherwise the v2 rows read it', () => {
    expect(mastra(mastraError('MCP_CLIENT_TOOL_EXECUTION_FAILED', undefined, 'failed'))).toEqual({ gap: 'mastra has no mapping for a thrown MastraError: failed' });
    expect(mastra(mastraError(7, 'MCP', 'failed'))).toEqual({ gap: 'mastra has no mapping for a thrown MastraError: failed' });
    // A v2 error that happens to carry a domain but no string id is read by the v2 rows, not as Mastra's.
    const timedOut = { class: 'SdkError', name: 'SdkError', instanceOf: ['SdkError'], code: 'REQUEST_TIMEOUT', message: 'Request timed out', properties: { id: 1, domain: 'MCP' } };
    expect(brief(mastra({ threw: timedOut }))).toEqual({ outcome: 'NO_RESPONSE' });
    expect(mastra(mastraError('OTHER', 'MCP', 'schema too complex'))).toEqual({ gap: 'mastra has no mapping for a thrown MastraError: schema too complex' });
  });
  it('an output validation error keeps the wrapper\'s message; an error object missing a field is a value', () => {
    const message = 'Tool output validation failed for t. The tool returned invalid output';
    expect(mastra({ returned: { error: true, validationErrors: {}, message } })).toEqual({ verdict: { outcome: 'INVALID_TOOL_RESULT', detail: `execute returned a validation error: ${message}` } });
    expect(brief(mastra({ returned: { error: true, message } }))).toEqual({ outcome: 'TOOL_SUCCESS' });
    expect(brief(mastra({ returned: { error: 'yes', validationErrors: {}, message } }))).toEqual({ outcome: 'TOOL_SUCCESS' });
    expect(brief(mastra({ returned: { error: true, validationErrors: {}, message: 1 } }))).toEqual({ outcome: 'TOOL_SUCCESS' });
    expect(mastra({ returned: { error: true, validationErrors: {}, message: `Input: ${message}` } })).toEqual({ gap: expect.stringMatching(/^mastra has no mapping for a returned value/) });
  });
  it('a result counts its content blocks; structured content is shown cut at 200 characters', () => {
    expect(mastra({ returned: { content: [{}, {}] } })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned the result (2 content block(s))' } });
    expect(mastra({ returned: { content: 'text' } })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned the structured content: {"content":"text"}' } });
    const big = 'y'.repeat(300);
    expect(mastra({ returned: big })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: `execute returned the structured content: ${JSON.stringify(big).slice(0, 200)}` } });
  });
  it('a value JSON cannot write (undefined) still reads as a success, in words', () => {
    expect(mastra({ returned: undefined })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'execute returned the structured content: undefined' } });
    expect(mapFor('openai-agents')({ returned: undefined })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'callTool returned a non-array: undefined' } });
    const big = { text: 'z'.repeat(300) };
    expect(mapFor('openai-agents')({ returned: big })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: `callTool returned a non-array: ${JSON.stringify(big).slice(0, 200)}` } });
  });
  it('a v2 error with no row is a gap in Mastra\'s name', () => {
    expect(mastra(threw(new SdkError('SOMETHING_NEW', 'new'), v2Client))).toEqual({ gap: expect.stringMatching(/^mastra has no mapping for a thrown SdkError/) });
  });
});
