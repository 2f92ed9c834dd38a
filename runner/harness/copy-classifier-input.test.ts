import { describe, expect, it } from 'vitest';
import { freezeParsedJson } from '../cases/freeze-parsed-json.js';
import type { ClassifierInput } from '../vocabulary/types.js';
import { copyClassifierInput } from './copy-classifier-input.js';

function makeInput(): ClassifierInput {
  const outputSchema = freezeParsedJson(JSON.parse('{"type":"object","__proto__":{"x":1},"properties":{"a":{"type":["string","null"],"enum":["x",null]}},"required":["a"]}') as Record<string, unknown>);
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'mcp-session-id': 's-1' },
    contentType: 'application/json',
    body: '{"jsonrpc":"2.0","id":7,"result":{}}',
    bodyBytes: new Uint8Array(Buffer.from('\uFEFF{"jsonrpc":"2.0","id":7,"result":{}}')),
    expectedId: 7,
    protocolVersion: '2025-11-25',
    request: freezeParsedJson({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't', arguments: { list: [1, { deep: [true, null] }], gone: undefined } } }) as unknown as ClassifierInput['request'],
    outputSchema,
    transportError: { kind: 'timeout', message: 'no complete response within 2000 ms' },
  };
}

describe('copyClassifierInput', () => {
  it('equals what structuredClone gives, own "__proto__" keys and undefined properties included', () => {
    const input = makeInput();
    const copy = copyClassifierInput(input);
    expect(copy).toStrictEqual(structuredClone(input));
    expect(Object.keys(copy.outputSchema!)).toEqual(Object.keys(input.outputSchema!));
    expect(Object.getPrototypeOf(copy.outputSchema)).toBe(Object.prototype);
    expect(Object.hasOwn(copy.request.params.arguments!, 'gone')).toBe(true);
  });

  it('shares nothing mutable with the original: every object, array and byte is the copy’s own and writable', () => {
    const input = makeInput();
    const copy = copyClassifierInput(input);
    for (const [original, copied] of [
      [input.headers, copy.headers],
      [input.bodyBytes, copy.bodyBytes],
      [input.request, copy.request],
      [input.request.params, copy.request.params],
      [input.request.params.arguments, copy.request.params.arguments],
      [input.outputSchema, copy.outputSchema],
      [(input.outputSchema!.properties as { a: { enum: unknown[] } }).a.enum, (copy.outputSchema!.properties as { a: { enum: unknown[] } }).a.enum],
      [input.transportError, copy.transportError],
    ] as const) {
      expect(copied).not.toBe(original);
      expect(Object.isFrozen(copied)).toBe(false);
    }
    copy.bodyBytes[0] = 0;
    copy.headers['content-type'] = 'text/plain';
    (copy.request.params.arguments!.list as unknown[]).push('more');
    expect(input.bodyBytes[0]).toBe(0xef);
    expect(input.headers['content-type']).toBe('application/json');
    expect(input.request.params.arguments!.list).toHaveLength(2);
  });

  it('falls back to structuredClone for what is not plain data, and for data nested past its depth', () => {
    let deep: unknown = { leaf: true };
    for (let level = 0; level < 200; level++) deep = { next: deep };
    const input = { ...makeInput(), request: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't', arguments: { when: new Date(0), deep } } } } as unknown as ClassifierInput;
    const copy = copyClassifierInput(input);
    expect(copy).toStrictEqual(structuredClone(input));
    expect(copy.request.params.arguments!.when).not.toBe(input.request.params.arguments!.when);
  });
});
