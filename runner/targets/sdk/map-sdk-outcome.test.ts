// One row per line of map-sdk-outcome.mjs's table: what an SDK version threw or returned, and the
// verdict it becomes. The errors are built as the SDKs build them (class name, message, code);
// the 1.10–1.23 row is the plain Error their StreamableHTTPClientTransport.send throws for a
// non-2xx POST (`Error POSTing to endpoint (HTTP 503): …`, read from 1.17.0's dist).
import { describe, expect, it } from 'vitest';
import type { MapperCellLog as CellLog } from '../../../test/sdk-mapper-types.js';

interface MapperModule {
  mapSdkError(error: unknown, context: { flavor: 'v1' | 'v2'; types: Record<string, unknown>; log: CellLog }): Record<string, unknown> | null;
  mapSdkResult(result: unknown, protocolVersion: string): Record<string, unknown>;
}
// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const mapper = (await import('./map-sdk-outcome.mjs' as string)) as MapperModule;

class StreamableHTTPError extends Error {
  constructor(readonly code: number, message: string) {
    super(`Streamable HTTP error: ${message}`);
  }
}
class McpError extends Error {
  constructor(readonly code: number, message: string) {
    super(`MCP error ${code}: ${message}`);
  }
}
class ProtocolError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}
class SdkError extends Error {
  constructor(readonly code: string, message: string, readonly data?: unknown) {
    super(message);
  }
}
class SdkHttpError extends SdkError {}
const V1_TYPES = { McpError };
const V2_TYPES = { ProtocolError, SdkError, SdkHttpError };

function log(statuses: number[] = [], peerCodes: number[] = []): CellLog {
  return { statuses, peerErrorCodes: new Set(peerCodes), notes: [] };
}
function named(name: string, message: string, extra: Record<string, unknown> = {}): Error {
  const error = Object.assign(new Error(message), extra);
  error.name = name;
  return error;
}
const zodFromSend = Object.defineProperty(named('ZodError', 'invalid_union', { issues: [] }), '__memOrigin', { value: 'send' });

type Row = [label: string, flavor: 'v1' | 'v2', error: unknown, context: CellLog, expected: Record<string, unknown> | null];
const ROWS: Row[] = [
  ['v1 StreamableHTTPError with an HTTP status', 'v1', new StreamableHTTPError(503, 'Service Unavailable'), log([503]), { outcome: 'HTTP_ERROR', status: 503 }],
  ['v1 StreamableHTTPError -1 "Unexpected content type"', 'v1', new StreamableHTTPError(-1, 'Unexpected content type: text/html'), log([200]), { outcome: 'INVALID_ENVELOPE' }],
  ['1.10–1.23 plain Error "(HTTP 503)" in its text', 'v1', new Error('Error POSTing to endpoint (HTTP 503): busy'), log([503]), { outcome: 'HTTP_ERROR', status: 503 }],
  ['1.10–1.23 plain Error "(HTTP 404)" in its text', 'v1', new Error('Error POSTing to endpoint (HTTP 404): Session not found'), log([404]), { outcome: 'HTTP_ERROR', status: 404 }],
  ['a plain Error with any other text stays unreported', 'v1', new Error('Error POSTing somewhere (HTTP 503)'), log([503]), null],
  ['v1 McpError with a code the peer sent', 'v1', new McpError(-32602, 'Invalid params'), log([200], [-32602]), { outcome: 'JSONRPC_ERROR', code: -32602 }],
  ['v1 McpError -32001 of its own timer after a 2xx', 'v1', new McpError(-32001, 'Request timed out'), log([200]), { outcome: 'STREAM_INCOMPLETE' }],
  ['v1 McpError -32001 with no status', 'v1', new McpError(-32001, 'Request timed out'), log([]), { outcome: 'NO_RESPONSE' }],
  ['v1 other local McpError', 'v1', new McpError(-32602, 'Structured content does not match'), log([200]), { outcome: 'INVALID_TOOL_RESULT' }],
  ['ZodError thrown by transport.send', 'v1', zodFromSend, log([200]), { outcome: 'INVALID_ENVELOPE' }],
  ['ZodError from the result schema (1.10 rejects a result without content)', 'v1', named('ZodError', 'content: Required', { issues: [] }), log([200]), { outcome: 'INVALID_TOOL_RESULT' }],
  ['SyntaxError from response.json()', 'v1', named('SyntaxError', 'Unexpected token'), log([200]), { outcome: 'MALFORMED_JSON' }],
  ['TypeError "fetch failed" before a status', 'v1', named('TypeError', 'fetch failed'), log([0]), { outcome: 'NO_RESPONSE' }],
  ['v2 ProtocolError with a code the peer sent', 'v2', new ProtocolError(-32603, 'Internal error'), log([200], [-32603]), { outcome: 'JSONRPC_ERROR', code: -32603 }],
  ['v2 ProtocolError raised locally', 'v2', new ProtocolError(-32602, 'Invalid elicitation request'), log([200]), { outcome: 'INVALID_TOOL_RESULT' }],
  ['v2 SdkHttpError with data.status', 'v2', new SdkHttpError('CLIENT_HTTP_ERROR', 'HTTP 503', { status: 503 }), log([503]), { outcome: 'HTTP_ERROR', status: 503 }],
  ['v2 SdkError CLIENT_HTTP_UNEXPECTED_CONTENT', 'v2', new SdkError('CLIENT_HTTP_UNEXPECTED_CONTENT', 'text/html'), log([200]), { outcome: 'INVALID_ENVELOPE' }],
  ['v2 SdkError REQUEST_TIMEOUT after a 2xx', 'v2', new SdkError('REQUEST_TIMEOUT', 'timed out'), log([200]), { outcome: 'STREAM_INCOMPLETE' }],
  ['v2 SdkError INVALID_RESULT', 'v2', new SdkError('INVALID_RESULT', 'bad result'), log([200]), { outcome: 'INVALID_TOOL_RESULT' }],
  ['v2 SdkError INPUT_REQUIRED_ROUNDS_EXCEEDED', 'v2', new SdkError('INPUT_REQUIRED_ROUNDS_EXCEEDED', 'too many rounds'), log([200]), { outcome: 'INPUT_REQUIRED' }],
  // Recorded (openai-agents, mastra: no handler registered): input-required [2026-07-28].
  ['v2 SdkError CAPABILITY_NOT_SUPPORTED "Cannot fulfil input request"', 'v2', new SdkError('CAPABILITY_NOT_SUPPORTED', "Cannot fulfil input request 'approval': no handler is registered for 'elicitation/create' on this client."), log([200]), { outcome: 'INPUT_REQUIRED' }],
  ['v2 SdkError CAPABILITY_NOT_SUPPORTED for anything else', 'v2', new SdkError('CAPABILITY_NOT_SUPPORTED', 'Server does not support tools'), log([200]), null],
];

describe('mapSdkError', () => {
  it.each(ROWS)('%s', (_label, flavor, error, context, expected) => {
    const verdict = mapper.mapSdkError(error, { flavor, types: flavor === 'v1' ? V1_TYPES : V2_TYPES, log: context });
    if (expected === null) {
      expect(verdict).toBeNull();
      expect(context.notes.join('\n')).toMatch(/unmapped error from callTool/);
    } else {
      expect(verdict).toMatchObject(expected);
      // Only the keys the row names: no status or code beside them.
      for (const key of ['status', 'code']) if (!(key in expected)) expect(verdict).not.toHaveProperty(key);
    }
  });
});

describe('mapSdkResult', () => {
  it.each([
    ['2026-07-28', { resultType: 'input_required', requestState: 's' }, 'INPUT_REQUIRED'],
    ['2025-11-25', { resultType: 'input_required', requestState: 's' }, 'TOOL_SUCCESS'],
    ['2025-06-18', { resultType: 'input_required', requestState: 's' }, 'TOOL_SUCCESS'],
    ['2025-03-26', { resultType: 'input_required', requestState: 's' }, 'TOOL_SUCCESS'],
    ['2025-03-26', { content: [], isError: true }, 'TOOL_ERROR'],
    ['2025-06-18', { content: [] }, 'TOOL_SUCCESS'],
  ] as const)('under %s, %j is %s', (version, result, outcome) => {
    expect(mapper.mapSdkResult(result, version)).toMatchObject({ outcome });
  });
});
