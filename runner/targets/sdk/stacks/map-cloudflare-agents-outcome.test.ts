// One test per row of the cloudflare-agents mapping table (map-cloudflare-agents-outcome.mjs): what
// the tool from agents 0.32.0's getAITools() gave its Agent host in workerd against the mock server,
// recorded as the host records it. The v2 errors are built with @modelcontextprotocol/client 2.4.0,
// the version agents 0.32.0 pins as its peer.
import { describe, expect, it } from 'vitest';
import { v2Client } from '../../../../test/bundled-libraries.js';
import { brief, mapFor, threw, type MapContext } from '../../../../test/map-observation-helpers.js';

type Ctor<A extends unknown[]> = new (...args: A) => Error;
const ProtocolError = v2Client.ProtocolError as Ctor<[number, string, unknown?]>;
const SdkError = v2Client.SdkError as Ctor<[string, string, unknown?]>;
const SdkHttpError = v2Client.SdkHttpError as Ctor<[string, string, unknown?]>;
const map = mapFor('cloudflare-agents');
const outcomeOf = (call: unknown, context: Partial<MapContext> = {}) => brief(map(call, context));

describe('cloudflare-agents mapping: what execute resolved with', () => {
  it('the result is TOOL_SUCCESS', () => {
    // Recorded: baseline [2025-11-25] → {"content":[{"type":"text","text":"ok"}],"isError":false}.
    expect(map({ returned: { content: [{ type: 'text', text: 'ok' }], isError: false } })).toMatchObject({ verdict: { outcome: 'TOOL_SUCCESS' } });
  });
  it('an input_required result passed through is INPUT_REQUIRED at 2026-07-28 only', () => {
    const returned = { content: [], resultType: 'input_required' };
    expect(outcomeOf({ returned }, { protocolVersion: '2026-07-28' })).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(outcomeOf({ returned }, { protocolVersion: '2025-11-25' })).toEqual({ outcome: 'TOOL_SUCCESS' });
  });
});

describe('cloudflare-agents mapping: what execute threw', () => {
  it("a plain Error with nothing but the tool's text (getAITools' conversion of isError: true) is TOOL_ERROR", () => {
    // Recorded: tool-is-error [2025-11-25] → Error "failed"; block-resource-link-tool-error → Error "Tool call failed".
    expect(map(threw(new Error('failed'), v2Client))).toMatchObject({ verdict: { outcome: 'TOOL_ERROR', detail: "execute threw the tool's error text (isError: true): Error: failed" } });
    expect(outcomeOf(threw(new Error('Tool call failed'), v2Client))).toEqual({ outcome: 'TOOL_ERROR' });
  });
  it('an OAuth flow error after the tools/call was answered 401 or 403 is HTTP_ERROR + that status', () => {
    // Recorded: http-401-www-authenticate [2025-11-25] → RegistrationRejectedError, status 404 (the registration endpoint's).
    const RegistrationRejectedError = v2Client.RegistrationRejectedError as new (...args: unknown[]) => Error;
    expect(RegistrationRejectedError).toBeTypeOf('function');
    const error = Object.assign(Object.create(RegistrationRejectedError.prototype) as Error, { message: 'Dynamic Client Registration rejected (HTTP 404): ', name: 'RegistrationRejectedError', status: 404 });
    const call = threw(error, v2Client);
    expect(call.threw.instanceOf).toEqual(expect.arrayContaining(['OAuthClientFlowError', 'RegistrationRejectedError']));
    expect(outcomeOf(call, { toolCallStatuses: [401] })).toEqual({ outcome: 'HTTP_ERROR', status: 401 });
    expect(outcomeOf(call, { toolCallStatuses: [403] })).toEqual({ outcome: 'HTTP_ERROR', status: 403 });
    // Not after a refused tools/call: not in the table.
    expect(outcomeOf(call, { toolCallStatuses: [200] })).toEqual({ gap: true });
  });
  it('the Workers runtime\'s "Network connection lost." (retryable) is NO_RESPONSE, or STREAM_INCOMPLETE after a 2xx', () => {
    // Recorded: no-response-reset [2025-11-25] → Error "Network connection lost.", retryable: true.
    const lost = () => Object.assign(new Error('Network connection lost.'), { retryable: true });
    expect(outcomeOf(threw(lost(), v2Client), { toolCallStatuses: [0] })).toEqual({ outcome: 'NO_RESPONSE' });
    expect(outcomeOf(threw(lost(), v2Client), { toolCallStatuses: [200] })).toEqual({ outcome: 'STREAM_INCOMPLETE' });
  });
  it('the v2 client\'s errors follow the v2 rows', () => {
    expect(outcomeOf(threw(new SdkHttpError('CLIENT_HTTP_NOT_IMPLEMENTED', 'Error POSTing to endpoint: ', { status: 503 }), v2Client))).toEqual({ outcome: 'HTTP_ERROR', status: 503 });
    expect(outcomeOf(threw(new ProtocolError(-32602, 'synthetic invalid params'), v2Client), { peerErrorCodes: [-32602] })).toEqual({ outcome: 'JSONRPC_ERROR', code: -32602 });
    expect(outcomeOf(threw(new SdkError('CAPABILITY_NOT_SUPPORTED', "Cannot fulfil input request 'confirm': no handler is registered for 'elicitation/create' on this client."), v2Client))).toEqual({ outcome: 'INPUT_REQUIRED' });
    expect(outcomeOf(threw(new SyntaxError("Expected property name or '}' in JSON at position 1"), v2Client))).toEqual({ outcome: 'MALFORMED_JSON' });
  });
  it('the OAuth row names the refused status and the library\'s words', () => {
    const RegistrationRejectedError = v2Client.RegistrationRejectedError as new (...args: unknown[]) => Error;
    const error = Object.assign(Object.create(RegistrationRejectedError.prototype) as Error, { message: 'Dynamic Client Registration rejected (HTTP 404): ', name: 'RegistrationRejectedError', status: 404 });
    expect(map(threw(error, v2Client), { toolCallStatuses: [200, 401] })).toEqual({ verdict: { outcome: 'HTTP_ERROR', status: 401, detail: 'the tools/call was answered 401; authorizing failed: RegistrationRejectedError (status 404): Dynamic Client Registration rejected (HTTP 404): ' } });
  });
  it('after a 401 or 403, only an OAuth flow error other than InsufficientScopeError is the OAuth row: the others keep their v2 row and its words', () => {
    const InsufficientScopeError = v2Client.InsufficientScopeError as new (init: Record<string, unknown>) => Error;
    expect(map(threw(new InsufficientScopeError({ requiredScope: 'files:write' }), v2Client), { toolCallStatuses: [403] })).toMatchObject({ verdict: { outcome: 'HTTP_ERROR', status: 403, detail: expect.stringMatching(/\(requiredScope "files:write"\)$/) } });
    expect(map(threw(new SdkHttpError('CLIENT_HTTP_FORBIDDEN', 'Error POSTing to endpoint: forbidden', { status: 403 }), v2Client), { toolCallStatuses: [403] })).toMatchObject({ verdict: { outcome: 'HTTP_ERROR', status: 403, detail: expect.stringMatching(/^SdkHttpError/) } });
  });
  it('the tool-error row is a plain Error only: named otherwise, of another class, or carrying a status or a cause, it is read by the other rows', () => {
    // Not what getAITools throws (`new Error(text)`): the table's "a plain Error with no code, status, cause or other property".
    const named = Object.assign(new Error('failed'), { name: 'Custom' });
    expect(map(threw(named, v2Client))).toMatchObject({ gap: expect.stringMatching(/^cloudflare-agents has no mapping for a thrown Error \(Custom\): failed/) });
    class UnnamedError extends Error {}
    expect(outcomeOf(threw(new UnnamedError('failed'), v2Client))).toEqual({ gap: true });
    expect(outcomeOf(threw(Object.assign(new Error('failed'), { status: 500 }), v2Client))).toEqual({ gap: true });
    expect(outcomeOf(threw(new Error('failed', { cause: new Error('under') }), v2Client))).toEqual({ gap: true });
  });
  it('the network row is workerd\'s plain Error starting "Network connection lost", retryable: the words elsewhere or in another class are not it', () => {
    expect(outcomeOf(threw(Object.assign(new TypeError('Network connection lost.'), { retryable: true }), v2Client), { toolCallStatuses: [200] })).toEqual({ gap: true });
    expect(outcomeOf(threw(Object.assign(new Error('Upstream said: Network connection lost.'), { retryable: true }), v2Client), { toolCallStatuses: [200] })).toEqual({ gap: true });
  });
  it('anything else (an Error with a code, a property it does not know) is an adapter gap naming the library\'s words', () => {
    expect(map(threw(Object.assign(new Error('Network connection lost.'), { retryable: false }), v2Client))).toMatchObject({ gap: expect.stringMatching(/^cloudflare-agents has no mapping for a thrown Error: Network connection lost\./) });
    expect(map(threw(Object.assign(new Error('Blocked'), { code: 'E_BLOCKED' }), v2Client))).toMatchObject({ gap: expect.any(String) });
  });
});
