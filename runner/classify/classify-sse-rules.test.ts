// The rules of classifySseBody stated one at a time, called directly (no status or Content-Type
// routing in front of it): which events can answer the call, which only remember a miss, and the
// detail each verdict gives.
import { describe, expect, test } from 'vitest';
import type { ClassifierInput, Outcome, ProtocolVersion } from '../vocabulary/types.js';
import { classifySseBody } from './classify-sse.js';
import { REFERENCE_RULES } from './rules.js';
import { makeResultMessage as response, makeSseBody as sse, makeSseInput, makeToolResult as tool } from './test-inputs.js';

type TransportError = NonNullable<ClassifierInput['transportError']>;

const result = response(tool());
const toolError = response(tool({ isError: true }));
const stranger = response(tool(), 99);
const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };
const rootsRequest = { jsonrpc: '2.0', id: 's1', method: 'roots/list' };

function classify(body: string, protocolVersion: ProtocolVersion = '2025-11-25', transportError?: TransportError) {
  const input = makeSseInput(body, transportError ? { protocolVersion, transportError } : { protocolVersion });
  const { outcome, detail } = classifySseBody({ input, rules: REFERENCE_RULES });
  return { outcome, detail };
}

function verdict(outcome: Outcome, detail: string) {
  return { outcome, detail };
}

describe('events that cannot be the answer', () => {
  test('a priming event (an id and empty data) is no message: alone, the stream answered nothing', () => {
    expect(classify('id: e0\ndata:\n\n')).toEqual(verdict('STREAM_INCOMPLETE', 'the event stream ended without a response for this request'));
  });

  test('an event with data is never taken for a priming event', () => {
    expect(classify('id: e0\ndata: Stryker was here!\n\n')).toEqual(verdict('MALFORMED_JSON', 'SSE event 0 data is not JSON'));
  });
});

describe('the last miss decides when no final response comes, named by its event index', () => {
  test('a non-JSON event', () => {
    expect(classify(sse(progress, '{unclosed', progress))).toEqual(verdict('MALFORMED_JSON', 'SSE event 1 data is not JSON'));
  });

  test("a response to another id, with the envelope check's own detail", () => {
    expect(classify(sse(progress, progress, stranger))).toEqual(verdict('INVALID_ENVELOPE', 'SSE event 2: response id 99 does not match request id 1'));
  });

  test('a message that is no response at all', () => {
    expect(classify(sse('"text"'))).toEqual(verdict('INVALID_ENVELOPE', 'SSE event 0: the body is not a JSON object'));
  });
});

describe('a stream that ends without a final response', () => {
  test('a clean end says "ended"', () => {
    expect(classify(sse(progress))).toEqual(verdict('STREAM_INCOMPLETE', 'the event stream ended without a response for this request'));
  });

  test('a transport error names its kind', () => {
    const reset: TransportError = { kind: 'reset', message: 'socket hang up' };
    expect(classify(sse(progress), '2025-11-25', reset)).toEqual(
      verdict('STREAM_INCOMPLETE', 'the event stream ended by reset without a response for this request'),
    );
  });
});

test('a 2026-07-28 server request ends the exchange, named by its event index', () => {
  expect(classify(sse(progress, rootsRequest, result), '2026-07-28')).toEqual(
    verdict('INVALID_ENVELOPE', 'SSE event 1 is a server request, forbidden in 2026-07-28'),
  );
});

describe('2025-03-26 batches on the stream (T0326 item 6; LEGACY cases 1-6, K11-K12)', () => {
  const legacy = (body: string) => classify(body, '2025-03-26');

  test('a batch holding our response answers the call, whatever else it holds', () => {
    expect(legacy(sse([result])).outcome).toBe('TOOL_SUCCESS');
    expect(legacy(sse([stranger, toolError])).outcome).toBe('TOOL_ERROR');
  });

  test('a batch of requests and notifications asks nothing of the call: the next event decides', () => {
    expect(legacy(sse([progress, rootsRequest], result)).outcome).toBe('TOOL_SUCCESS');
    expect(legacy(sse([progress, rootsRequest]))).toEqual(verdict('STREAM_INCOMPLETE', 'the event stream ended without a response for this request'));
  });

  test('a batch of responses to other ids is a miss: the next event decides, else the batch does', () => {
    expect(legacy(sse([stranger], result)).outcome).toBe('TOOL_SUCCESS');
    expect(legacy(sse(progress, [stranger]))).toEqual(verdict('INVALID_ENVELOPE', 'SSE event 1: a batch without a response for this request'));
  });

  test('an empty batch answers nothing: a miss, not the end of the search', () => {
    expect(legacy(sse([], result)).outcome).toBe('TOOL_SUCCESS');
    expect(legacy(sse([]))).toEqual(verdict('INVALID_ENVELOPE', 'SSE event 0: an empty batch answers nothing'));
  });

  test('a batch that mixes requests or non-objects with responses is INVALID_ENVELOPE at once (batches are homogeneous)', () => {
    const mixed = 'a batch that is not made of responses only (2025-03-26 batches are homogeneous)';
    expect(legacy(sse([progress, result]))).toEqual(verdict('INVALID_ENVELOPE', mixed));
    expect(legacy(sse([null], result))).toEqual(verdict('INVALID_ENVELOPE', mixed));
    expect(legacy(sse([1, progress], result))).toEqual(verdict('INVALID_ENVELOPE', mixed));
  });

  test('from 2025-06-18 a batch is no message: a miss even when it holds our response', () => {
    expect(classify(sse([result]), '2025-06-18')).toEqual(verdict('INVALID_ENVELOPE', 'SSE event 0: a JSON array (batch) instead of a single response'));
  });
});
