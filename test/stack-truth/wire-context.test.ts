// The truth corpus reads each call's wire context from the mock server's recording, not from the client.
import { describe, expect, it } from 'vitest';
import { makeClientRecording, makeInitializePost, makeToolCallPost } from '../../runner/judge/client/test-recordings.js';
import { normalizeVolatile } from './normalize-volatile.js';
import { countToolCalls, readCallContext } from './wire-context.js';

const error = (id: unknown, code: number): string => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: 'x' } });

describe('readCallContext', () => {
  it('lists the status of every tools/call POST in order, 0 for one that got no status, and ignores other requests', () => {
    const noStatus = makeToolCallPost({ id: 3 });
    noStatus.response = { status: undefined, headers: {}, body: '', ending: 'reset' };
    const { exchanges } = makeClientRecording(makeInitializePost('s'), makeToolCallPost({ id: 2, status: 503, body: '' }), noStatus, makeToolCallPost({ id: 4 }));
    expect(readCallContext(exchanges, '2025-11-25')).toEqual({ protocolVersion: '2025-11-25', toolCallStatuses: [503, 0, 200], peerErrorCodes: [] });
  });

  it('takes a JSON-RPC error code only when the server sent it for one of this call’s tools/call ids (JSON, batch or SSE)', () => {
    const sse = `event: message\ndata: ${error(5, -32001)}\n\n`;
    const { exchanges } = makeClientRecording(
      makeToolCallPost({ id: 2, status: 500, body: error(2, -32603) }),
      makeToolCallPost({ id: 3, body: `[${error(3, -32602)}, ${error(99, -32700)}]` }),
      makeToolCallPost({ id: 5, body: sse, responseHeaders: { 'content-type': 'text/event-stream' } }),
      makeToolCallPost({ id: 6, body: error('6', -32600) }),
    );
    expect(readCallContext(exchanges, '2026-07-28').peerErrorCodes).toEqual([-32603, -32602, -32001]);
  });

  it('counts each code once, and reads none from a body that is not JSON', () => {
    const { exchanges } = makeClientRecording(makeToolCallPost({ id: 1, body: error(1, -32603) }), makeToolCallPost({ id: 1, body: error(1, -32603) }), makeToolCallPost({ id: 2, body: '{"jsonrpc":' }));
    expect(readCallContext(exchanges, '2025-11-25').peerErrorCodes).toEqual([-32603]);
  });
});

describe('countToolCalls', () => {
  it('counts the tools/call requests the server received, re-sends included, and nothing else', () => {
    const { exchanges } = makeClientRecording(makeInitializePost('s'), makeToolCallPost({ id: 2 }), makeToolCallPost({ id: 3 }));
    expect(countToolCalls(exchanges)).toBe(2);
  });
});

describe('normalizeVolatile', () => {
  it('replaces the server origin, any loopback port, port properties and UUIDs, and keeps everything else', () => {
    const value = { message: 'POST http://127.0.0.1:40123/mcp failed', cause: { address: '127.0.0.1:51234', remotePort: 40123, code: 'ECONNRESET' }, session: 'f47ac10b-58cc-4372-a567-0e02b2c3d479', n: 40123 };
    expect(normalizeVolatile(value, 'http://127.0.0.1:40123')).toEqual({
      message: 'POST http://127.0.0.1:PORT/mcp failed',
      cause: { address: '127.0.0.1:PORT', remotePort: 0, code: 'ECONNRESET' },
      session: '[uuid]',
      n: 40123,
    });
  });
});
