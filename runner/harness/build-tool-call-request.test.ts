import { describe, expect, it } from 'vitest';
import { makeCase } from '../mock-server/test-cases.js';
import { buildToolCallRequest } from './build-tool-call-request.js';
import { encodeHeaderValue } from './request-headers.js';

describe('buildToolCallRequest', () => {
  it('uses exchangeIndex+1 as id and the default tool, without _meta under 2025-11-25', () => {
    const request = buildToolCallRequest({ case: makeCase([{}, {}]), protocolVersion: '2025-11-25', exchangeIndex: 1 });
    expect(request).toEqual({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'synthetic_tool', arguments: { input: 'synthetic' } } });
  });

  it('takes the scripted id and adds the required _meta keys under 2026-07-28', () => {
    const testCase = makeCase([{}], { tool: { name: 'echo', arguments: { a: 1 } } });
    testCase.exchanges[0]!.request = { id: 'seven' };
    const request = buildToolCallRequest({ case: testCase, protocolVersion: '2026-07-28', exchangeIndex: 0 });
    expect(request.id).toBe('seven');
    expect(request.params).toMatchObject({ name: 'echo', arguments: { a: 1 } });
    expect(Object.keys(request.params._meta!)).toEqual([
      'io.modelcontextprotocol/protocolVersion',
      'io.modelcontextprotocol/clientCapabilities',
      'io.modelcontextprotocol/clientInfo',
    ]);
  });

  it('answers each input request kind and never invents a requestState', () => {
    const testCase = makeCase([{}, {}]);
    testCase.exchanges[1]!.request = { followUp: true };
    const previous = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultType: 'input_required',
        inputRequests: {
          url: { method: 'elicitation/create', params: { mode: 'url', url: 'https://example.com', message: 'go' } },
          llm: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
          odd: { method: 'ping' },
        },
      },
    };
    const request = buildToolCallRequest({ case: testCase, protocolVersion: '2026-07-28', exchangeIndex: 1, previousResult: previous });
    expect(request.params.inputResponses).toEqual({
      url: { action: 'accept' },
      llm: { role: 'assistant', content: { type: 'text', text: 'synthetic' }, model: 'synthetic-model', stopReason: 'endTurn' },
    });
    expect('requestState' in request.params).toBe(false);
    const stateOnly = buildToolCallRequest({ case: testCase, protocolVersion: '2026-07-28', exchangeIndex: 1, previousResult: { resultType: 'input_required', requestState: 'abc' } });
    expect(stateOnly.params.requestState).toBe('abc');
    expect('inputResponses' in stateOnly.params).toBe(false);
  });
});

describe('encodeHeaderValue', () => {
  it.each([
    ['plain', 'plain'],
    ['caf\u00e9', `=?base64?${Buffer.from('caf\u00e9').toString('base64')}?=`],
    [' padded', `=?base64?${Buffer.from(' padded').toString('base64')}?=`],
    ['=?base64?abc?=', `=?base64?${Buffer.from('=?base64?abc?=').toString('base64')}?=`],
  ])('encodes %j as %s', (value, expected) => {
    expect(encodeHeaderValue(value)).toBe(expected);
  });
});
