// The edges of the SDK rows (map-sdk-outcome.mjs) and of the mapping contract (map-observation.mjs)
// that the one-test-per-row tables leave open: each test states where a row ends, so a row that
// reaches too far (or not far enough) changes a verdict here first. Issue 29's mutation run.
import { describe, expect, it } from 'vitest';
import { v1Http, v1Types, v2Client } from '../../../test/bundled-libraries.js';
import { brief, mapFor, mapping, threw, type MapContext } from '../../../test/map-observation-helpers.js';

type Ctor<A extends unknown[]> = new (...args: A) => Error;
const McpError = v1Types.McpError as Ctor<[number, string]>;
const StreamableHTTPError = v1Http.StreamableHTTPError as Ctor<[number, string]>;
const ProtocolError = v2Client.ProtocolError as Ctor<[number, string]>;
const SdkError = v2Client.SdkError as Ctor<[string, string, unknown?]>;
const InsufficientScopeError = v2Client.InsufficientScopeError as Ctor<[Record<string, unknown>, string?]>;

const v1 = (error: unknown, context: Partial<MapContext> = {}) => mapFor('ts-sdk')(threw(error, v1Types, v1Http), context);
const v2 = (error: unknown, context: Partial<MapContext> = {}) => mapFor('ts-client')(threw(error, v2Client), context);
const named = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('an HTTP status is one only inside 100–599', () => {
  it.each([
    [100, { outcome: 'HTTP_ERROR', status: 100 }],
    [599, { outcome: 'HTTP_ERROR', status: 599 }],
    [99, { gap: true }],
    [600, { gap: true }],
    [-2, { gap: true }],
  ])('StreamableHTTPError with code %i', (code, expected) => {
    expect(brief(v1(new StreamableHTTPError(code, 'Error POSTing to endpoint: ')))).toEqual(expected);
  });
});

describe("1.10–1.23's plain Error carries a status only in its exact text", () => {
  it.each([
    ['Error POSTing to endpoint (HTTP 502): bad gateway', { outcome: 'HTTP_ERROR', status: 502 }],
    ['Error POSTing to endpoint (HTTP 50): short', { gap: true }],
    ['An Error POSTing to endpoint (HTTP 502)', { gap: true }],
  ])('%s', (message, expected) => {
    expect(brief(v1(new Error(message)))).toEqual(expected);
  });
  it('the same text on another class, or on an Error with a code, is not that row', () => {
    expect(brief(v1(new RangeError('Error POSTing to endpoint (HTTP 502)')))).toEqual({ gap: true });
    expect(brief(v1(Object.assign(new Error('Error POSTing to endpoint (HTTP 502)'), { code: 'ECONNRESET' })))).toEqual({ gap: true });
  });
});

describe('each major reads only its own classes', () => {
  it('a v2 ProtocolError is no row of v1, a v1 McpError no row of v2: an adapter gap naming the target', () => {
    expect(v1(new ProtocolError(-32603, 'Internal error'), { peerErrorCodes: [-32603] })).toEqual({ gap: expect.stringMatching(/^ts-sdk has no mapping for a thrown ProtocolError/) });
    expect(mapFor('ts-client')(threw(new McpError(-32603, 'Internal error'), v1Types), { peerErrorCodes: [-32603] })).toEqual({ gap: expect.stringMatching(/^ts-client has no mapping for a thrown McpError/) });
  });
});

describe('the rows both majors share end where their text ends', () => {
  it.each([
    ['TypeError "fetch failed"', new TypeError('fetch failed'), { outcome: 'NO_RESPONSE' }],
    ['TypeError "terminated"', new TypeError('terminated'), { outcome: 'NO_RESPONSE' }],
    ['TypeError "fetch failed: other"', new TypeError('fetch failed: other'), { gap: true }],
    ['TypeError "not terminated"', new TypeError('not terminated'), { gap: true }],
    ['AbortError', named('AbortError', 'This operation was aborted'), { outcome: 'NO_RESPONSE' }],
    ['TimeoutError', named('TimeoutError', 'The operation timed out'), { outcome: 'NO_RESPONSE' }],
    ['an error carrying a Zod issue list without the class', Object.assign(new Error('bad'), { issues: [{ code: 'invalid_type', path: ['content'] }] }), { outcome: 'INVALID_TOOL_RESULT' }],
  ])('%s', (_label, error, expected) => {
    expect(brief(v2(error))).toEqual(expected);
    expect(brief(v1(error))).toEqual(expected);
  });
});

describe('the v2 rows keep their own words', () => {
  it("InsufficientScopeError names the scope the server asked for (or null), and is the 403 it answered", () => {
    expect(v2(new InsufficientScopeError({ requiredScope: 'files:write' }))).toMatchObject({ verdict: { outcome: 'HTTP_ERROR', status: 403, detail: expect.stringMatching(/\(requiredScope "files:write"\)$/) } });
    // A record without the property (observe-call.mjs records what the error had).
    expect(mapFor('ts-client')({ threw: { class: 'InsufficientScopeError', name: 'InsufficientScopeError', message: 'Insufficient scope' } })).toMatchObject({ verdict: { outcome: 'HTTP_ERROR', status: 403, detail: expect.stringMatching(/\(requiredScope null\)$/) } });
  });
  it('a local -32602 / -32600 says the SDK rejected the result itself', () => {
    expect(v2(new ProtocolError(-32600, 'Tool has an output schema but did not return structured content'))).toMatchObject({ verdict: { outcome: 'INVALID_TOOL_RESULT', detail: expect.stringMatching(/^the SDK rejected the result locally: ProtocolError/) } });
  });
  it('only "Client does not support <mode> elicitation requests" is the input the host cannot give; another -32602 text is a result row', () => {
    expect(brief(v2(new ProtocolError(-32602, 'Client does not support form elicitation requests')))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(brief(v2(new ProtocolError(-32602, 'Client does not support elicitation requests')))).toEqual({ outcome: 'INVALID_TOOL_RESULT' });
    expect(brief(v2(new ProtocolError(-32603, 'Client does not support form elicitation requests')))).toEqual({ gap: true });
  });
  it('CAPABILITY_NOT_SUPPORTED is an input request only when its message starts so', () => {
    expect(brief(v2(new SdkError('CAPABILITY_NOT_SUPPORTED', "Server says: Cannot fulfil input request 'x'")))).toEqual({ gap: true });
  });
  it("the v2 rows are keyed by the SDK's classes: another error carrying an HTTP status or an SdkError code is not their row", () => {
    expect(brief(v2(Object.assign(new Error('Service Unavailable'), { status: 503 })))).toEqual({ gap: true });
    expect(brief(v2(Object.assign(new Error('timed out'), { code: 'REQUEST_TIMEOUT' })))).toEqual({ gap: true });
    expect(brief(v2(Object.assign(new Error('bad result'), { code: 'INVALID_RESULT' })))).toEqual({ gap: true });
  });
  it('an SdkError code the table does not hold is an adapter gap', () => {
    expect(brief(v2(new SdkError('SOMETHING_NEW', 'new')))).toEqual({ gap: true });
  });
});

describe('a returned value is a success unless it says otherwise', () => {
  it.each([
    ['a string', 'done', 'the SDK returned a non-object: "done"'],
    ['null', null, 'the SDK returned a non-object: null'],
    ['an array', [1], 'the SDK returned a non-object: [1]'],
    ['an object', { content: [] }, 'the SDK returned a result'],
    ['isError that is not true', { content: [], isError: 'true' }, 'the SDK returned a result'],
  ])('%s is TOOL_SUCCESS, in words', (_label, returned, detail) => {
    expect(mapFor('ts-sdk')({ returned })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail } });
  });
  it('at 2026-07-28 only a result whose resultType is input_required is INPUT_REQUIRED; any other is read as before', () => {
    const at = { protocolVersion: '2026-07-28' };
    expect(brief(mapFor('ts-client')({ returned: { content: [] } }, at))).toEqual({ outcome: 'TOOL_SUCCESS' });
    expect(brief(mapFor('ts-client')({ returned: { content: [], resultType: 'complete' } }, at))).toEqual({ outcome: 'TOOL_SUCCESS' });
    expect(brief(mapFor('ts-client')({ returned: { content: [], isError: true } }, at))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it("a returned non-object's words are cut at 200 characters, and a value JSON cannot write is still words", () => {
    expect(mapFor('ts-sdk')({ returned: 'r'.repeat(500) })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: `the SDK returned a non-object: "${'r'.repeat(199)}` } });
    expect(mapFor('ts-sdk')({ returned: undefined })).toEqual({ verdict: { outcome: 'TOOL_SUCCESS', detail: 'the SDK returned a non-object: undefined' } });
  });
  it('isError: true is TOOL_ERROR, and input_required at 2026-07-28 is INPUT_REQUIRED, in words', () => {
    expect(mapFor('ts-sdk')({ returned: { content: [], isError: true } })).toEqual({ verdict: { outcome: 'TOOL_ERROR', detail: 'the SDK returned a result with isError: true' } });
    expect(mapFor('ts-client')({ returned: { resultType: 'input_required' } }, { protocolVersion: '2026-07-28' })).toEqual({ verdict: { outcome: 'INPUT_REQUIRED', detail: 'the SDK returned the input_required result to the caller' } });
  });
});

describe('the mapping contract: a conclusion only from what the library did', () => {
  const context = { protocolVersion: '2025-11-25', toolCallStatuses: [], peerErrorCodes: [] };
  it('a record that is no object is a gap naming it', () => {
    expect(mapping.mapObservation('ts-sdk', null, context)).toEqual({ gap: 'ts-sdk: not an observation: null' });
    expect(mapping.mapObservation('ts-sdk', 'x', context)).toEqual({ gap: 'ts-sdk: not an observation: "x"' });
  });
  it('a call that never settled, or hung until the host aborted it, concluded nothing, and says how', () => {
    expect(mapping.mapObservation('ts-sdk', { hung: { afterMs: 2000 } }, context)).toEqual({ none: "the call never settled, even 2000 ms after the host's last-resort abort" });
    expect(mapping.mapObservation('ts-sdk', { threw: { class: 'AbortError', name: 'AbortError', message: 'aborted' }, hostAborted: true }, context)).toEqual({
      none: "the library hung until the host's last-resort abort, then threw AbortError: aborted",
    });
  });
  it('a hung record without its time still concludes nothing (it does not crash the mapping)', () => {
    expect(mapping.mapObservation('ts-sdk', { hung: null }, context)).toEqual({ none: "the call never settled, even undefined ms after the host's last-resort abort" });
  });
  it('hostAborted must be true: another value leaves the record to its row', () => {
    expect(brief(mapping.mapObservation('ts-sdk', { threw: { class: 'AbortError', name: 'AbortError', message: 'aborted' }, hostAborted: 'yes' }, context))).toEqual({ outcome: 'NO_RESPONSE' });
  });
  it('a record that neither threw nor returned is a gap; so is a kind with no mapper', () => {
    expect(mapping.mapObservation('ts-sdk', { started: true }, context)).toEqual({ gap: 'ts-sdk: an unreadable observation {"started":true}' });
    expect(mapping.mapObservation('no-such-kind', { returned: {} }, context)).toEqual({ gap: 'no mapping for target kind "no-such-kind"' });
  });
  it('the context reaches the mapper: the protocol version, and no statuses when none are given', () => {
    expect(brief(mapping.mapObservation('ts-client', { returned: { resultType: 'input_required' } }, { ...context, protocolVersion: '2026-07-28' }))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(brief(mapping.mapObservation('ts-sdk', { threw: { class: 'TypeError', name: 'TypeError', message: 'terminated' } }, undefined as never))).toEqual({ outcome: 'NO_RESPONSE' });
  });
  it('every kind the runner maps is listed, and only those', () => {
    expect([...mapping.MAPPED_KINDS].sort()).toEqual(['ai-sdk', 'cloudflare-agents', 'inspector-cli', 'langchain', 'mastra', 'mcp-remote', 'openai-agents', 'ts-client', 'ts-sdk']);
  });
});
