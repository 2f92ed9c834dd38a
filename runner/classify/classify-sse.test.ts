import { describe, expect, test } from 'vitest';
import type { ClassifierInput, Outcome, ProtocolVersion } from '../vocabulary/types.js';
import { parseSseBody } from './parse-sse-body.js';
import { classifyReference } from './reference.js';
import { makeResultMessage as response, makeSseBody as sse, makeSseInput, makeToolResult as tool } from './test-inputs.js';

const result = response(tool());
const text = JSON.stringify(result);
const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };
const listChanged = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
const elicitRequest = { jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object' } } };
const reset = { kind: 'reset', message: 'socket hang up' } as const;

type Row = [title: string, input: ClassifierInput, outcome: Outcome];
const both: ProtocolVersion[] = ['2025-11-25', '2026-07-28'];

describe('SSE framing', () => {
  test.each<Row>([
    ['a single result event', makeSseInput(sse(result)), 'TOOL_SUCCESS'],
    ['comment lines are ignored', makeSseInput(`: keep-alive\n\n:another\ndata: ${text}\n\n`), 'TOOL_SUCCESS'],
    [
      'multi-line data is joined with \\n',
      makeSseInput(`data: {"jsonrpc":"2.0",\ndata: "id":1,\ndata: "result":{"content":[]}}\n\n`),
      'TOOL_SUCCESS',
    ],
    ['CRLF line ends', makeSseInput(`: c\r\nevent: message\r\ndata: ${text}\r\n\r\n`), 'TOOL_SUCCESS'],
    ['CR line ends', makeSseInput(`data: ${text}\r\r`), 'TOOL_SUCCESS'],
    ['a priming event with an id and empty data is ignored', makeSseInput(`id: e0\ndata:\n\nid: e1\ndata: ${text}\n\n`), 'TOOL_SUCCESS'],
    ['a U+FEFF left at the start of the decoded body (a second BOM) hides the first event', makeSseInput(`\uFEFFdata: ${text}\n\n`), 'STREAM_INCOMPLETE'],
    ['retry and unknown fields are ignored', makeSseInput(`retry: 500\nfoo: bar\ndata: ${text}\n\n`), 'TOOL_SUCCESS'],
    ['a named event other than message carries no message', makeSseInput(`event: response\ndata: ${text}\n\n`), 'STREAM_INCOMPLETE'],
    ['a final event without its blank line is discarded (WHATWG)', makeSseInput(`data: ${text}\n`), 'STREAM_INCOMPLETE'],
    ['an empty stream is STREAM_INCOMPLETE', makeSseInput(''), 'STREAM_INCOMPLETE'],
    ['Content-Type parameters are ignored', makeSseInput(sse(result), { contentType: 'text/event-stream; charset=utf-8' }), 'TOOL_SUCCESS'],
  ])('%s', (_title, given, outcome) => {
    expect(classifyReference(given).outcome).toBe(outcome);
  });
});

describe('finding the final response', () => {
  test.each<Row>([
    ['notifications, then the result', makeSseInput(sse(progress, progress, result)), 'TOOL_SUCCESS'],
    ['an unrelated notification is ignored', makeSseInput(sse(listChanged, result)), 'TOOL_SUCCESS'],
    ['a wrong-id response, then the right one', makeSseInput(sse(response(tool(), 99), result)), 'TOOL_SUCCESS'],
    ['only a wrong-id response is INVALID_ENVELOPE', makeSseInput(sse(progress, response(tool(), 99))), 'INVALID_ENVELOPE'],
    ['"1" does not answer 1 on a stream', makeSseInput(sse(response(tool(), '1'))), 'INVALID_ENVELOPE'],
    ['the first final response wins', makeSseInput(sse(result, response(tool({ isError: true })))), 'TOOL_SUCCESS'],
    ['the final response is judged like a JSON body', makeSseInput(sse(response(tool({ isError: true })))), 'TOOL_ERROR'],
    ['a JSON-RPC error on the stream', makeSseInput(sse({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'm' } })), 'JSONRPC_ERROR'],
    ['a matching response with jsonrpc "1.0" is INVALID_ENVELOPE', makeSseInput(sse({ ...result, jsonrpc: '1.0' })), 'INVALID_ENVELOPE'],
    ['an invalid result on the stream', makeSseInput(sse(response({ content: 'x' }))), 'INVALID_TOOL_RESULT'],
    ['a batch array on the stream is INVALID_ENVELOPE', makeSseInput(sse([result])), 'INVALID_ENVELOPE'],
    ['a non-JSON event and nothing else is MALFORMED_JSON', makeSseInput(sse(progress, '{unclosed')), 'MALFORMED_JSON'],
    ['a non-JSON event, then a notification, is MALFORMED_JSON', makeSseInput(sse('{unclosed', progress)), 'MALFORMED_JSON'],
    ['a non-JSON event, then the result', makeSseInput(sse('{unclosed', result)), 'TOOL_SUCCESS'],
    ['a wrong-id response after a non-JSON event: the last miss decides', makeSseInput(sse('{unclosed', response(tool(), 99))), 'INVALID_ENVELOPE'],
    ['a non-JSON event after a wrong-id response: the last miss decides', makeSseInput(sse(response(tool(), 99), 'nope')), 'MALFORMED_JSON'],
    ['notifications only, clean end, is STREAM_INCOMPLETE', makeSseInput(sse(progress)), 'STREAM_INCOMPLETE'],
    ['a reset without a final response is STREAM_INCOMPLETE', makeSseInput(sse(progress), { transportError: reset }), 'STREAM_INCOMPLETE'],
    ['a timeout after the status is STREAM_INCOMPLETE', makeSseInput(sse(progress), { transportError: { kind: 'timeout', message: 't' } }), 'STREAM_INCOMPLETE'],
    ['a reset mid-event is STREAM_INCOMPLETE', makeSseInput(`${sse(progress)}data: {"jsonrpc":"2.0","id":1,`, { transportError: reset }), 'STREAM_INCOMPLETE'],
    ['a reset after the final response keeps the response', makeSseInput(sse(result), { transportError: reset }), 'TOOL_SUCCESS'],
    ['a non-2xx SSE response is HTTP_ERROR', makeSseInput(sse(result), { status: 500 }), 'HTTP_ERROR'],
  ])('%s', (_title, given, outcome) => {
    expect(classifyReference(given).outcome).toBe(outcome);
  });
});

describe('server requests on the stream, per version', () => {
  test.each<[ProtocolVersion, Outcome]>([
    ['2025-11-25', 'TOOL_SUCCESS'],
    ['2026-07-28', 'INVALID_ENVELOPE'],
  ])('under %s a server request, then the result, is %s', (protocolVersion, outcome) => {
    expect(classifyReference(makeSseInput(sse(elicitRequest, result), { protocolVersion })).outcome).toBe(outcome);
  });

  test.each(both)('under %s a server request after the final response is ignored', (protocolVersion) => {
    expect(classifyReference(makeSseInput(sse(result, elicitRequest), { protocolVersion })).outcome).toBe('TOOL_SUCCESS');
  });

  test('under 2025-11-25 a server request and no result is STREAM_INCOMPLETE', () => {
    const given = makeSseInput(sse(elicitRequest), { protocolVersion: '2025-11-25' });
    expect(classifyReference(given).outcome).toBe('STREAM_INCOMPLETE');
  });
});

describe('parseSseBody', () => {
  test('returns dispatched events with their type and id', () => {
    expect(parseSseBody('id: 7\nevent: message\ndata: a\ndata: b\n\n: c\n\ndata:\n\n')).toEqual([
      { event: 'message', id: '7', data: 'a\nb' },
      { event: undefined, id: undefined, data: '' },
    ]);
  });

  test('drops no byte order mark: UTF-8 decode dropped the one BOM of the bytes, and a U+FEFF left at the start is data', () => {
    // WHATWG SSE: the U+FEFF is part of the first line, a field named "\uFEFFdata", which is ignored,
    // so the first event has no data and is not dispatched.
    expect(parseSseBody('\uFEFFdata: a\n\n')).toEqual([]);
    expect(parseSseBody('\uFEFFdata: a\n\ndata: b\n\n')).toEqual([{ event: undefined, id: undefined, data: 'b' }]);
  });

  test('reads CR, LF and CRLF as line ends, a CR at the very end included; an event without its blank line is never dispatched', () => {
    expect(parseSseBody('data: a\r\rdata: b\r\n\r\ndata: c\n\n')).toEqual(['a', 'b', 'c'].map((data) => ({ event: undefined, id: undefined, data })));
    expect(parseSseBody('data: a\r\r')).toEqual([{ event: undefined, id: undefined, data: 'a' }]);
    expect(parseSseBody('data: a\n')).toEqual([]);
    expect(parseSseBody('data: a\n\ndata: b')).toEqual([{ event: undefined, id: undefined, data: 'a' }]);
  });
});
