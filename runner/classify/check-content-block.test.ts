import { describe, expect, test } from 'vitest';
import { checkContentBlock } from './check-content-block.js';

describe('checkContentBlock', () => {
  test.each<[string, unknown]>([
    ['text', { type: 'text', text: 'hi' }],
    ['text with annotations', { type: 'text', text: '', annotations: { audience: ['user', 'assistant'], priority: 0, lastModified: 'x' } }],
    ['text with priority 1', { type: 'text', text: '', annotations: { priority: 1 } }],
    ['text with extra keys', { type: 'text', text: 'hi', extra: true, _meta: { a: 1 } }],
    ['image', { type: 'image', data: 'AAAA', mimeType: 'image/png' }],
    ['audio', { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
    ['resource_link', { type: 'resource_link', uri: 'file:///a', name: 'a' }],
    ['resource_link with optional fields', { type: 'resource_link', uri: 'file:///a', name: 'a', title: 't', size: 3, icons: [] }],
    ['resource with text', { type: 'resource', resource: { uri: 'file:///a', text: 'x' } }],
    ['resource with blob', { type: 'resource', resource: { uri: 'file:///a', blob: 'AAAA', mimeType: 'x/y' } }],
  ])('accepts %s', (_title, block) => {
    expect(checkContentBlock(block)).toBeUndefined();
  });

  test.each<[string, unknown]>([
    ['a non-object', 'text'],
    ['null', null],
    ['an array', [{ type: 'text', text: 'x' }]],
    ['no type', { text: 'x' }],
    ['an unknown type', { type: 'video', url: 'x' }],
    ['a sampling-only tool_use block', { type: 'tool_use', id: 'x', name: 'n', input: {} }],
    ['text without text', { type: 'text' }],
    ['text with a number', { type: 'text', text: 1 }],
    ['image without mimeType', { type: 'image', data: 'AAAA' }],
    ['audio without data', { type: 'audio', mimeType: 'audio/wav' }],
    ['resource_link without name', { type: 'resource_link', uri: 'file:///a' }],
    ['resource_link without uri', { type: 'resource_link', name: 'a' }],
    ['resource_link with a fractional size', { type: 'resource_link', uri: 'u', name: 'a', size: 1.5 }],
    ['resource without text or blob', { type: 'resource', resource: { uri: 'file:///a' } }],
    ['resource without uri', { type: 'resource', resource: { text: 'x' } }],
    ['resource that is a string', { type: 'resource', resource: 'file:///a' }],
    ['priority 1.5', { type: 'text', text: 'x', annotations: { priority: 1.5 } }],
    ['priority -0.1', { type: 'text', text: 'x', annotations: { priority: -0.1 } }],
    ['priority as a string', { type: 'text', text: 'x', annotations: { priority: '1' } }],
    ['an unknown audience', { type: 'text', text: 'x', annotations: { audience: ['model'] } }],
    ['annotations not an object', { type: 'text', text: 'x', annotations: [] }],
    ['_meta not an object', { type: 'text', text: 'x', _meta: 'm' }],
  ])('rejects %s', (_title, block) => {
    expect(checkContentBlock(block)).toEqual(expect.any(String));
  });
});
