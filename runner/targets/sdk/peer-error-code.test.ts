// A peer's error code stays the peer's in every mapper (issue 29 item 2). -32001 and -32000 are
// also the codes the SDKs raise for their own timeout and a closed connection; when the server
// itself sent one in answer to the call, the library reports a JSON-RPC error, and reading it as
// the client's own "lost" call would grade a correct library as retrying unsafely. Each record is
// built as the library raises a peer's error (its own classes, recorded as the worker records them).
import { describe, expect, it } from 'vitest';
import { aiSdk, langchainTools, v1Http, v1Types, v2Client } from '../../../test/bundled-libraries.js';
import { brief, mapFor, mapping, threw } from '../../../test/map-observation-helpers.js';

type Ctor<A extends unknown[]> = new (...args: A) => Error;
const McpError = v1Types.McpError as Ctor<[number, string]>;
const ProtocolError = v2Client.ProtocolError as Ctor<[number, string]>;
const MCPClientError = aiSdk.MCPClientError as new (options: { message: string; code?: number }) => Error;
const ToolException = langchainTools.ToolException as Ctor<[string]>;

const PEER_CODES = [
  [-32001, 'Request timed out'],
  [-32000, 'Connection closed'],
] as const;

/** What each stack records when the server answers its tools/call with `code` and `message`. */
const RECORDS: Record<string, (code: number, message: string) => unknown> = {
  'ts-sdk': (code, message) => threw(new McpError(code, message), v1Types, v1Http),
  'ts-client': (code, message) => threw(new ProtocolError(code, message), v2Client),
  'ai-sdk': (code, message) => threw(new MCPClientError({ message, code }), aiSdk),
  // langchain keeps only String() of the SDK's McpError, inside its ToolException.
  langchain: (code, message) => threw(new ToolException(`Error calling tool synthetic_tool: McpError: MCP error ${code}: ${message}`), langchainTools),
  'openai-agents': (code, message) => threw(new ProtocolError(code, message), v2Client),
  mastra: (code, message) => threw(new ProtocolError(code, message), v2Client),
  // mcp-remote passes the server's error object through on its stdio.
  'mcp-remote': (code, message) => ({ returned: { received: 'message', message: { jsonrpc: '2.0', id: 2, error: { code, message } } } }),
  // The Inspector's CLI 2.x prints the v2 client's ProtocolError as its message alone, exit 1.
  'inspector-cli': (_code, message) => ({ returned: { exit: 1, stdout: '', stderr: `${JSON.stringify({ error: { code: 'error', message } })}\n` } }),
  // agents hands the call to the v2 client and rethrows its ProtocolError unchanged (in workerd).
  'cloudflare-agents': (code, message) => threw(new ProtocolError(code, message), v2Client),
};

// The stacks that print the server's error without its code: the peer's error, no code to keep.
const PRINTS_NO_CODE = new Set(['inspector-cli']);

// The stacks whose library raises the same class and code for its own timer or a closed transport.
const OWN_LOST_CODES = ['ts-sdk', 'ts-client', 'langchain', 'openai-agents', 'mastra', 'cloudflare-agents'];

describe("a peer's error code stays the peer's in every mapper", () => {
  it('every mapped target kind has a row here', () => {
    expect(Object.keys(RECORDS).sort()).toEqual([...mapping.MAPPED_KINDS].sort());
  });

  describe.each(Object.keys(RECORDS))('%s', (kind) => {
    it.each(PEER_CODES)('a %i the server sent is JSONRPC_ERROR with that code, after a 2xx or without a status', (code, message) => {
      const record = RECORDS[kind]!(code, message);
      for (const toolCallStatuses of [[200], [], [0]]) {
        const expected = PRINTS_NO_CODE.has(kind) ? { outcome: 'JSONRPC_ERROR' } : { outcome: 'JSONRPC_ERROR', code };
        expect(brief(mapFor(kind)(record, { toolCallStatuses, peerErrorCodes: [code] })), `statuses ${JSON.stringify(toolCallStatuses)}`).toEqual(expected);
      }
    });
  });

  describe.each(OWN_LOST_CODES)('%s', (kind) => {
    it.each(PEER_CODES)('the same %i not sent by the server (its own, or another code was sent) is the lost call, not the peer\'s error', (code, message) => {
      const record = RECORDS[kind]!(code, message);
      const other = code === -32001 ? -32000 : -32001;
      expect(brief(mapFor(kind)(record, { toolCallStatuses: [200], peerErrorCodes: [] }))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
      expect(brief(mapFor(kind)(record, { toolCallStatuses: [200], peerErrorCodes: [other, -32602] }))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
      expect(brief(mapFor(kind)(record, { toolCallStatuses: [], peerErrorCodes: [other] }))).toEqual({ outcome: 'NO_RESPONSE' });
    });
  });

  it.each(PEER_CODES)("the Inspector CLI's %i text with no error from the server is its own lost call", (code, message) => {
    const record = RECORDS['inspector-cli']!(code, message);
    expect(brief(mapFor('inspector-cli')(record, { toolCallStatuses: [200], peerErrorCodes: [] }))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
    expect(brief(mapFor('inspector-cli')(record, { toolCallStatuses: [], peerErrorCodes: [] }))).toEqual({ outcome: 'NO_RESPONSE' });
  });

  it('the peer codes reach the mapper through mapObservation, not only a context built for it', () => {
    const record = RECORDS['ts-sdk']!(-32001, 'Request timed out');
    expect(brief(mapping.mapObservation('ts-sdk', record, { protocolVersion: '2025-11-25', toolCallStatuses: [200], peerErrorCodes: [-32001] }))).toEqual({ outcome: 'JSONRPC_ERROR', code: -32001 });
    // A context without the list (an older stored observation) reads as "the server sent none".
    expect(brief(mapping.mapObservation('ts-sdk', record, { protocolVersion: '2025-11-25', toolCallStatuses: [200] } as never))).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
});
