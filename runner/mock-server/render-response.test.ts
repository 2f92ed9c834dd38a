import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ExchangeSpec, IdMode, ResponseSpec } from '../cases/case-types.js';
import { renderResponse } from './render-response.js';

const result = { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] };

function render(response: ResponseSpec, requestId: unknown = 1, idPresent = true) {
  const exchange: ExchangeSpec = { response, expect: { outcome: 'TOOL_SUCCESS' } };
  return renderResponse(exchange, { requestId, idPresent });
}

function bodyText(response: ResponseSpec, requestId: unknown = 1): string {
  return Buffer.concat(render(response, requestId).chunks.map((chunk) => chunk.bytes)).toString('utf8');
}

describe('renderResponse', () => {
  it('serialises a json body compactly with jsonrpc, then id, then the rest', () => {
    const rendered = render({ body: { json: { result, jsonrpc: '2.0' } } }, 7);
    expect(rendered.status).toBe(200);
    expect(rendered.headers).toEqual([['Content-Type', 'application/json']]);
    expect(rendered.chunks).toHaveLength(1);
    expect(rendered.chunks[0]!.bytes.toString()).toBe(
      '{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","content":[{"type":"text","text":"ok"}]}}',
    );
    expect(rendered).toMatchObject({ start: 'normal', delayMs: 0, end: 'close', isStream: false });
  });

  const idModes: [IdMode | undefined, unknown, string][] = [
    [undefined, 1, '"id":1,'],
    [undefined, 'abc', '"id":"abc",'],
    ['echo', '1', '"id":"1",'],
    ['omit', 1, ''],
    ['null', 1, '"id":null,'],
    ['as-string', 1, '"id":"1",'],
    ['as-number', '7', '"id":7,'],
    ['as-float', 1, '"id":1.0,'],
    ['as-float', '7', '"id":7.0,'],
    [{ literal: 99 }, 1, '"id":99,'],
    [{ literal: { nested: true } }, 1, '"id":{"nested":true},'],
  ];
  it.each(idModes)('id mode %j for request id %j writes %s', (mode, requestId, expected) => {
    const spec: ResponseSpec = { body: { json: { jsonrpc: '2.0', id: 'scripted', result: {} } }, ...(mode ? { id: mode } : {}) };
    expect(bodyText(spec, requestId)).toBe(`{"jsonrpc":"2.0",${expected}"result":{}}`);
  });

  it('injects ids into JSON objects and the object members of a batch array, never into scalars', () => {
    expect(bodyText({ body: { json: [{ jsonrpc: '2.0', result: {} }, 5] } }, 7)).toBe('[{"jsonrpc":"2.0","id":7,"result":{}},5]');
    expect(bodyText({ id: 'omit', body: { json: [{ jsonrpc: '2.0', result: {} }] } })).toBe('[{"jsonrpc":"2.0","result":{}}]');
    // A member that names its own id (another request's answer, the case's subject) keeps it.
    expect(bodyText({ body: { json: [{ jsonrpc: '2.0', id: 99, result: {} }, { jsonrpc: '2.0', result: {} }] } }, 7)).toBe('[{"jsonrpc":"2.0","id":99,"result":{}},{"jsonrpc":"2.0","id":7,"result":{}}]');
    expect(bodyText({ body: { json: 'text' } })).toBe('"text"');
  });

  it('gives an SSE event marked responseId the response id too, and leaves other events as scripted', () => {
    const message = { jsonrpc: '2.0', result: {} };
    const text = bodyText({ body: { sse: { events: [{ response: true, data: message }, { responseId: true, data: message }, { data: message }] } } }, 'call-9');
    expect(text).toBe(`data: {"jsonrpc":"2.0","id":"call-9","result":{}}\n\ndata: {"jsonrpc":"2.0","id":"call-9","result":{}}\n\ndata: {"jsonrpc":"2.0","result":{}}\n\n`);
  });

  it('sends raw text and base64 bytes exactly, without a default content type', () => {
    const raw = render({ body: { raw: '{unclosed' } });
    expect(raw.headers).toEqual([]);
    expect(raw.chunks[0]!.bytes.toString()).toBe('{unclosed');
    const binary = render({ body: { base64: Buffer.from([0, 255, 10]).toString('base64') }, contentType: 'application/json' });
    expect([...binary.chunks[0]!.bytes]).toEqual([0, 255, 10]);
    expect(binary.headers).toEqual([['Content-Type', 'application/json']]);
  });

  it('sends no Content-Type when contentType is null and scripted headers in order', () => {
    const rendered = render({ contentType: null, headers: { 'Retry-After': '1', 'X-B': 'b' }, body: { json: {} } });
    expect(rendered.headers).toEqual([
      ['Retry-After', '1'],
      ['X-B', 'b'],
    ]);
  });

  it('renders SSE fields, comments, multi-line data and the response id', () => {
    const rendered = render(
      {
        body: {
          sse: {
            events: [
              { comment: 'keep-alive' },
              { id: 'e0', retry: 500, dataRaw: '' },
              { event: 'message', data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }, delayMs: 5 },
              { dataRaw: 'line one\nline two' },
              { response: true, multiline: true, data: { jsonrpc: '2.0', result: { a: 1 } } },
            ],
          },
        },
      },
      3,
    );
    expect(rendered.headers).toEqual([
      ['Content-Type', 'text/event-stream'],
      ['Cache-Control', 'no-cache'],
      ['X-Accel-Buffering', 'no'],
    ]);
    expect(rendered.chunks.map((chunk) => chunk.bytes.toString())).toEqual([
      ': keep-alive\n\n',
      'id: e0\nretry: 500\ndata:\n\n',
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
      'data: line one\ndata: line two\n\n',
      'data: {\ndata:   "jsonrpc": "2.0",\ndata:   "id": 3,\ndata:   "result": {\ndata:     "a": 1\ndata:   }\ndata: }\n\n',
    ]);
    expect(rendered.chunks.map((chunk) => chunk.delayMs)).toEqual([0, 0, 5, 0, 0]);
    expect(rendered.chunks.every((chunk) => chunk.isEvent)).toBe(true);
    expect(rendered.isStream).toBe(true);
  });

  it('uses CRLF or CR line endings and keeps SSE header overrides', () => {
    const sse = { events: [{ comment: 'c', response: true, data: { jsonrpc: '2.0', result: {} } }], end: 'reset' as const };
    const crlf = render({ headers: { 'cache-control': 'no-store' }, body: { sse: { ...sse, lineEnding: 'crlf' } } });
    expect(crlf.chunks[0]!.bytes.toString()).toBe(': c\r\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n');
    expect(crlf.headers).toEqual([
      ['Content-Type', 'text/event-stream'],
      ['X-Accel-Buffering', 'no'],
      ['cache-control', 'no-store'],
    ]);
    expect(crlf.end).toBe('reset');
    const cr = render({ body: { sse: { ...sse, lineEnding: 'cr' } } });
    expect(cr.chunks[0]!.bytes.toString()).toBe(': c\rdata: {"jsonrpc":"2.0","id":1,"result":{}}\r\r');
  });

  it('marks awaitReply events with the id of the server request they carry', () => {
    const request = { jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: {} };
    const rendered = render({ body: { sse: { events: [{ data: request, awaitReply: true }] } } });
    expect(rendered.chunks[0]!.awaitReplyId).toBe('srv-1');
    expect(rendered.chunks[0]!.bytes.toString()).toBe(`data: ${JSON.stringify(request)}\n\n`);
  });

  it('leaves resumeOnly events out of the stream it renders', () => {
    const response: ResponseSpec = { body: { sse: { events: [{ id: 'e1', retry: 300, dataRaw: '' }, { id: 'e2', response: true, resumeOnly: true, data: { jsonrpc: '2.0', result } }] } } };
    expect(render(response).chunks).toHaveLength(1);
    expect(bodyText(response)).toBe('id: e1\nretry: 300\ndata:\n\n');
  });

  it('prefixes a BOM and gzips the body on request', () => {
    const bom = render({ bom: true, body: { json: { jsonrpc: '2.0', result: {} } } });
    expect([...bom.chunks[0]!.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const gzip = render({ bom: true, contentEncoding: 'gzip', body: { sse: { events: [{ data: 1, delayMs: 3 }, { data: 2, delayMs: 4 }] } } });
    expect(gzip.headers).toContainEqual(['Content-Encoding', 'gzip']);
    expect(gzip.chunks).toHaveLength(1);
    expect(gzip.chunks[0]!.delayMs).toBe(7);
    expect(gunzipSync(gzip.chunks[0]!.bytes).toString()).toBe('\ufeffdata: 1\n\ndata: 2\n\n');
  });

  it('prefixes as many BOMs as a count asks for: two make the second one data (a case about that)', () => {
    const twice = render({ bom: 2, body: { sse: { events: [{ data: 1 }] } } });
    expect([...twice.chunks[0]!.bytes.subarray(0, 7)]).toEqual([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x64]);
    expect(render({ bom: 1, body: { raw: 'x' } }).chunks[0]!.bytes).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0x78]));
    expect(render({ bom: false, body: { raw: 'x' } }).chunks[0]!.bytes).toEqual(Buffer.from('x'));
  });

  it('carries start, delay and status through', () => {
    expect(render({ start: 'hang', delayMs: 20, status: 503 })).toMatchObject({ start: 'hang', delayMs: 20, status: 503, chunks: [], headers: [] });
  });
});
