import { describe, expect, it } from 'vitest';
import type { Check, Recording } from '../../vocabulary/types.js';
import { readWireCalls } from './read-wire-calls.js';
import { judgeRequestHeaders, judgeRequestSchemas } from './judge-requests.js';
import { makeClientRecording, makeInitializePost, makeToolCallPost } from './test-recordings.js';

const V25 = '2025-11-25';
const V26 = '2026-07-28';
const judge25 = (recording: Recording): Check[] => judgeRequestHeaders(V25, readWireCalls(recording, V25), recording);
const judge26 = (recording: Recording): Check[] => judgeRequestHeaders(V26, readWireCalls(recording, V26), recording);
const find = (checks: Check[], id: string): Check | undefined => checks.find((check) => check.id === id);

describe('judgeRequestHeaders, 2025-11-25: the session id the server issued (T25 § Session Management)', () => {
  const withVersion = { 'mcp-protocol-version': V25 };
  it.each<[string, Record<string, string>, boolean, string | undefined]>([
    ['the issued id', { ...withVersion, 'mcp-session-id': 'sess-1' }, true, 'sess-1'],
    ['another id', { ...withVersion, 'mcp-session-id': 'sess-2' }, false, 'sess-2'],
    ['the id in another case', { ...withVersion, 'mcp-session-id': 'SESS-1' }, false, 'SESS-1'],
    ['no id', withVersion, false, undefined],
  ])('a tools/call with %s', (_title, headers, passed, actual) => {
    const recording = makeClientRecording(makeInitializePost('sess-1'), makeToolCallPost({ headers, at: 10 }));
    expect(find(judge25(recording), 'header.session-id@1')).toMatchObject({ level: 'MUST', passed, expected: 'sess-1', actual, exchange: 2 });
  });

  it('accepts any id the server issued before the call, expecting the latest', () => {
    const recording = makeClientRecording(makeInitializePost('old'), makeInitializePost('new'), makeToolCallPost({ headers: { ...withVersion, 'mcp-session-id': 'old' } }));
    expect(find(judge25(recording), 'header.session-id@1')).toMatchObject({ passed: true, expected: 'new', actual: 'old' });
  });

  it('has no session check when the server issued none, or only after the call', () => {
    expect(find(judge25(makeClientRecording(makeInitializePost(undefined), makeToolCallPost({ headers: withVersion }))), 'header.session-id@1')).toBeUndefined();
    expect(find(judge25(makeClientRecording(makeToolCallPost({ headers: withVersion }), makeInitializePost('late'))), 'header.session-id@1')).toBeUndefined();
  });

  it('requires MCP-Protocol-Version to be present', () => {
    expect(find(judge25(makeClientRecording(makeToolCallPost({ headers: withVersion }))), 'header.protocol-version@1')).toMatchObject({ passed: true, actual: V25 });
    expect(find(judge25(makeClientRecording(makeToolCallPost())), 'header.protocol-version@1')).toMatchObject({ level: 'MUST', passed: false, expected: 'present' });
    expect(judge25(makeClientRecording(makeToolCallPost())).map((check) => check.id)).toEqual(['header.accept@1', 'header.protocol-version@1']);
  });
});

describe('judgeRequestHeaders: Accept lists both media types (every version)', () => {
  it.each<[string | undefined, boolean]>([
    ['application/json, text/event-stream', true],
    ['text/event-stream,application/json', true],
    ['Application/JSON; q=1.0, Text/Event-Stream; q=0.5', true],
    ['application/json', false],
    ['text/event-stream', false],
    ['*/*', false],
    ['application/jsonx, text/event-stream', false],
    [undefined, false],
  ])('Accept %s', (accept, passed) => {
    const post = makeToolCallPost({ headers: { 'mcp-protocol-version': V25 } });
    if (accept === undefined) delete post.request.headers.accept;
    else post.request.headers.accept = accept;
    expect(find(judge25(makeClientRecording(post)), 'header.accept@1')).toMatchObject({ level: 'MUST', passed, actual: accept, expected: 'application/json, text/event-stream' });
  });
});

describe('judgeRequestHeaders, 2026-07-28: the routing headers mirror the body (SH26)', () => {
  const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': V26 } };
  const right = { 'mcp-protocol-version': V26, 'mcp-method': 'tools/call', 'mcp-name': 'synthetic_tool' };
  const failures = (headers: Record<string, string>, params: Record<string, unknown> = meta) =>
    judge26(makeClientRecording(makeToolCallPost({ headers, params }))).filter((check) => !check.passed).map((check) => check.id);

  it.each<[string, Record<string, string>, Record<string, unknown>, string[]]>([
    ['all right', right, meta, []],
    ['a version other than the _meta one', { ...right, 'mcp-protocol-version': V25 }, meta, ['header.protocol-version@1']],
    ['no version header', { 'mcp-method': 'tools/call', 'mcp-name': 'synthetic_tool' }, meta, ['header.protocol-version@1']],
    ['the version the call is run under when _meta names none', right, {}, []],
    ['another method', { ...right, 'mcp-method': 'tools/list' }, meta, ['header.mcp-method@1']],
    ['another name', { ...right, 'mcp-name': 'other' }, meta, ['header.mcp-name@1']],
    ['no name', { 'mcp-protocol-version': V26, 'mcp-method': 'tools/call' }, meta, ['header.mcp-name@1']],
    ['a base64-encoded name (SH26 § Value Encoding)', { ...right, 'mcp-name': `=?base64?${Buffer.from('synthetic_tool').toString('base64')}?=` }, meta, []],
    ['a base64-encoded other name', { ...right, 'mcp-name': `=?base64?${Buffer.from('other').toString('base64')}?=` }, meta, ['header.mcp-name@1']],
  ])('%s', (_title, headers, params, failed) => {
    expect(failures(headers, params)).toEqual(failed);
  });

  it('names the n-th tools/call and its transcript entry', () => {
    const recording = makeClientRecording(makeToolCallPost({ id: 1, headers: right, params: meta }), makeToolCallPost({ id: 2, headers: { ...right, 'mcp-name': 'x' }, params: meta }));
    expect(find(judge26(recording), 'header.mcp-name@2')).toMatchObject({ passed: false, exchange: 2, expected: 'synthetic_tool', actual: 'x' });
    expect(judge26(recording).some((check) => check.id.startsWith('header.session-id'))).toBe(false);
  });
});

describe('judgeRequestSchemas', () => {
  it('checks every JSON-RPC message POSTed, skipping other requests and bodies that are not JSON', () => {
    const bad = makeToolCallPost({ id: 2 });
    bad.request.body = '{"jsonrpc":';
    const get = makeToolCallPost({ id: 3 });
    get.request.method = 'GET';
    const recording = makeClientRecording(makeInitializePost('s'), makeToolCallPost({ id: 1 }), bad, get);
    const seen: unknown[] = [];
    const judged = judgeRequestSchemas(V25, recording, (version, message) => {
      seen.push(message);
      const valid = (message as { method?: string }).method === 'initialize';
      return { definition: valid ? 'InitializeRequest' : 'CallToolRequest', valid, errors: valid ? [] : ['/params: bad'] };
    });
    expect(seen).toHaveLength(2);
    expect(judged.schema.map((result) => [result.exchange, result.definition, result.valid, result.sender])).toEqual([
      [0, 'InitializeRequest', true, 'target'],
      [1, 'CallToolRequest', false, 'target'],
    ]);
    expect(judged.checks.map((check) => [check.id, check.level, check.passed, check.exchange, check.message])).toEqual([
      ['schema.request@1', 'MUST', true, 1, 'schema.request@1: initialize is a valid InitializeRequest'],
      ['schema.request@2', 'MUST', false, 2, 'schema.request@2: tools/call is not a valid CallToolRequest: /params: bad'],
    ]);
  });
});

describe('judgeRequestHeaders and judgeRequestSchemas: edges', () => {
  const encoded = `=?base64?${Buffer.from('synthetic_tool').toString('base64')}?=`;
  it.each([
    [`x${encoded}`, false],
    [`${encoded}x`, false],
    [encoded, true],
  ])('decodes Mcp-Name %s only as a whole =?base64?…?= value', (name, passed) => {
    const headers = { 'mcp-protocol-version': V26, 'mcp-method': 'tools/call', 'mcp-name': name };
    expect(find(judge26(makeClientRecording(makeToolCallPost({ headers }))), 'header.mcp-name@1')?.passed).toBe(passed);
  });

  it('makes every header check a MUST', () => {
    const checks = [...judge26(makeClientRecording(makeToolCallPost())), ...judge25(makeClientRecording(makeInitializePost('s'), makeToolCallPost()))];
    expect(checks.length).toBe(7);
    expect(checks.every((check) => check.level === 'MUST')).toBe(true);
  });

  it('counts only initialize answers, before the call, that carry a session id', () => {
    const notInitialize = makeToolCallPost({ id: 0, responseHeaders: { 'mcp-session-id': 'from-a-call' } });
    const noRpc = makeToolCallPost({ id: 9 });
    delete noRpc.request.rpc;
    const unanswered = makeInitializePost('lost');
    unanswered.response = undefined;
    const recording = makeClientRecording(notInitialize, noRpc, unanswered, makeToolCallPost({ id: 1, headers: { 'mcp-protocol-version': V25, 'mcp-session-id': 'from-a-call' } }));
    const calls = readWireCalls(recording, V25);
    expect(judgeRequestHeaders(V25, calls.slice(1), recording).some((check) => check.id.startsWith('header.session-id'))).toBe(false);
    expect(judgeRequestHeaders(V25, calls, undefined).some((check) => check.id.startsWith('header.session-id'))).toBe(false);
  });

  it('checks nothing without a recording, skips POSTs that are not JSON-RPC, and names a posted response', () => {
    const checker = () => ({ definition: 'JSONRPCResponse', valid: false, errors: [] });
    expect(judgeRequestSchemas(V26, undefined, checker)).toEqual({ checks: [], schema: [] });
    const notRpc = makeToolCallPost();
    notRpc.request.body = '[1]';
    delete notRpc.request.rpc;
    const response = makeToolCallPost();
    response.request.body = '{"jsonrpc":"2.0","id":"srv-1","result":{}}';
    response.request.rpc = { id: 'srv-1', isNotification: false, isResponse: true };
    const judged = judgeRequestSchemas(V26, makeClientRecording(notRpc, response), checker);
    expect(judged.checks).toEqual([
      { id: 'schema.request@2', level: 'MUST', passed: false, expected: 'valid JSONRPCResponse', actual: [], exchange: 2, message: 'schema.request@2: response is not a valid JSONRPCResponse: ' },
    ]);
    const valid = judgeRequestSchemas(V26, makeClientRecording(makeToolCallPost()), () => ({ definition: 'CallToolRequest', valid: true, errors: [] }));
    expect(valid.checks[0]).toMatchObject({ expected: 'valid CallToolRequest', actual: 'valid', passed: true });
  });
});

describe('judgeRequestHeaders, 2025-03-26: no MCP-Protocol-Version header yet (LEGACY 1.13)', () => {
  it('asks only for Accept, and the session id the server issued', () => {
    const V0326 = '2025-03-26';
    const recording = makeClientRecording(makeInitializePost('sess-1', V0326), makeToolCallPost({ headers: { 'mcp-session-id': 'sess-1' } }));
    const checks = judgeRequestHeaders(V0326, readWireCalls(recording, V0326), recording);
    expect(checks.map((check) => [check.id, check.passed])).toEqual([
      ['header.accept@1', true],
      ['header.session-id@1', true],
    ]);
  });
});
