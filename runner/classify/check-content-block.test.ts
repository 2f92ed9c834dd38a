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
    ['resource whose contents carry an object _meta', { type: 'resource', resource: { uri: 'file:///a', text: 'x', _meta: { a: 1 } } }],
    ['text with an icons key of its own (only resource_link declares icons)', { type: 'text', text: 'x', icons: ['a.png'] }],
  ])('accepts %s', (_title, block) => {
    expect(checkContentBlock(block)).toBeUndefined();
  });

  // The problem names the rule broken: it becomes the verdict's detail ("content[i]: …").
  test.each<[string, unknown, string]>([
    ['a non-object', 'text', 'content block is not an object'],
    ['null', null, 'content block is not an object'],
    ['an array', [{ type: 'text', text: 'x' }], 'content block is not an object'],
    ['no type', { text: 'x' }, 'unknown content block type undefined'],
    ['a type in a list', { type: ['text'], text: 'x' }, 'unknown content block type ["text"]'],
    ['an unknown type', { type: 'video', url: 'x' }, 'unknown content block type "video"'],
    ['a sampling-only tool_use block', { type: 'tool_use', id: 'x', name: 'n', input: {} }, 'unknown content block type "tool_use"'],
    ['text without text', { type: 'text' }, 'text block lacks "text"'],
    ['text with a number', { type: 'text', text: 1 }, 'text block "text" is not a string'],
    ['image without mimeType', { type: 'image', data: 'AAAA' }, 'image block lacks "mimeType"'],
    ['image with numeric data', { type: 'image', data: 1, mimeType: 'image/png' }, 'image block "data" is not a string'],
    ['audio without data', { type: 'audio', mimeType: 'audio/wav' }, 'audio block lacks "data"'],
    ['resource_link without name', { type: 'resource_link', uri: 'file:///a' }, 'resource_link block lacks "name"'],
    ['resource_link without uri', { type: 'resource_link', name: 'a' }, 'resource_link block lacks "uri"'],
    ['resource_link with a fractional size', { type: 'resource_link', uri: 'u', name: 'a', size: 1.5 }, 'resource_link block "size" is not an integer'],
    ['resource_link with a numeric title', { type: 'resource_link', uri: 'u', name: 'a', title: 1 }, 'resource_link block "title" is not a string'],
    ['resource_link with icons that are not a list', { type: 'resource_link', uri: 'u', name: 'a', icons: {} }, 'resource_link block "icons" is not an array'],
    ['resource_link with an icon without src', { type: 'resource_link', uri: 'u', name: 'a', icons: [{ src: 'a.png' }, { sizes: ['1x1'] }] }, 'resource_link block icons[1] has no string "src"'],
    ['resource_link with an icon that is a string', { type: 'resource_link', uri: 'u', name: 'a', icons: ['a.png'] }, 'resource_link block icons[0] has no string "src"'],
    ['resource without text or blob', { type: 'resource', resource: { uri: 'file:///a' } }, 'resource block contents have neither a string "text" nor a string "blob"'],
    ['resource with a numeric text and no blob', { type: 'resource', resource: { uri: 'file:///a', text: 1 } }, 'resource block contents have neither a string "text" nor a string "blob"'],
    ['resource without uri', { type: 'resource', resource: { text: 'x' } }, 'resource block contents lack a string "uri"'],
    ['resource that is a string', { type: 'resource', resource: 'file:///a' }, 'resource block "resource" is not an object'],
    ['resource contents with _meta not an object', { type: 'resource', resource: { uri: 'u', blob: 'AA', _meta: 1 } }, 'resource block contents "_meta" is not an object'],
    ['a valid resource with bad annotations', { type: 'resource', resource: { uri: 'u', text: 'x' }, annotations: { priority: 2 } }, 'annotations.priority is not a number in [0, 1]'],
    ['priority 1.5', { type: 'text', text: 'x', annotations: { priority: 1.5 } }, 'annotations.priority is not a number in [0, 1]'],
    ['priority -0.1', { type: 'text', text: 'x', annotations: { priority: -0.1 } }, 'annotations.priority is not a number in [0, 1]'],
    ['priority as a string', { type: 'text', text: 'x', annotations: { priority: '1' } }, 'annotations.priority is not a number in [0, 1]'],
    ['an unknown audience', { type: 'text', text: 'x', annotations: { audience: ['user', 'model'] } }, 'annotations.audience is not a list of "user"/"assistant"'],
    ['an audience that is not a list', { type: 'text', text: 'x', annotations: { audience: 'user' } }, 'annotations.audience is not a list of "user"/"assistant"'],
    ['lastModified a number', { type: 'text', text: 'x', annotations: { lastModified: 1 } }, 'annotations.lastModified is not a string'],
    ['annotations not an object', { type: 'text', text: 'x', annotations: [] }, 'annotations is not an object'],
    ['_meta not an object', { type: 'text', text: 'x', _meta: 'm' }, 'text block "_meta" is not an object'],
  ])('rejects %s, saying so', (_title, block, problem) => {
    expect(checkContentBlock(block)).toBe(problem);
  });
});

describe('checkContentBlock by protocol version (WIRE-FACTS-LEGACY §3, D4–D8)', () => {
  test('resource_link arrived in 2025-06-18: before, it is an unknown type, and the problem says when it arrived', () => {
    const link = { type: 'resource_link', uri: 'u', name: 'a' };
    expect(checkContentBlock(link, '2025-03-26')).toBe('unknown content block type "resource_link" (resource_link arrived in 2025-06-18; this is 2025-03-26)');
    expect(checkContentBlock(link, '2025-06-18')).toBeUndefined();
  });

  test('the other optional fields are checked before 2025-11-25 too', () => {
    expect(checkContentBlock({ type: 'resource_link', uri: 'u', name: 'a', size: 1.5 }, '2025-06-18')).toBe('resource_link block "size" is not an integer');
  });

  test('icons are declared from 2025-11-25: before, any value is an unknown key', () => {
    for (const icons of [{}, ['a.png']]) {
      expect(checkContentBlock({ type: 'resource_link', uri: 'u', name: 'a', icons }, '2025-06-18')).toBeUndefined();
      expect(checkContentBlock({ type: 'resource_link', uri: 'u', name: 'a', icons }, '2025-11-25')).toMatch(/^resource_link block ("icons" is not an array|icons\[0\] has no string "src")$/);
    }
  });

  test('_meta and lastModified are declared from 2025-06-18: before, any value passes', () => {
    const blocks = [
      { type: 'text', text: 'x', _meta: 'm' },
      { type: 'resource', resource: { uri: 'u', text: 'x', _meta: 1 } },
      { type: 'text', text: 'x', annotations: { lastModified: 1 } },
    ];
    for (const block of blocks) {
      expect(checkContentBlock(block, '2025-03-26')).toBeUndefined();
      expect(checkContentBlock(block, '2025-06-18')).toEqual(expect.stringMatching(/is not (an object|a string)$/));
    }
  });

  test('an annotations object with valid members passes, whatever the version', () => {
    for (const version of ['2025-03-26', '2026-07-28'] as const) {
      expect(checkContentBlock({ type: 'text', text: 'x', annotations: { audience: ['assistant'], priority: 0.5, lastModified: '2026-01-01' } }, version)).toBeUndefined();
    }
  });
});
