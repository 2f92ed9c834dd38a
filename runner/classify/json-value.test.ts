import { describe, expect, it } from 'vitest';
import { isPlainObject, parseJsonText } from './json-value.js';

describe('parseJsonText: JSON text read as a receiver (RFC 8259 §8.1)', () => {
  it('calls a body empty when it holds nothing but JSON white space', () => {
    for (const text of ['', ' \r\n\t']) expect(parseJsonText(text)).toEqual({ ok: false, problem: 'the body is empty' });
  });

  it('drops no byte order mark: the text was decoded already, and UTF-8 decode dropped the one BOM it may drop', () => {
    // A U+FEFF still at the start is a second BOM in the bytes: data, and not JSON white space (RFC 8259 §2).
    for (const text of ['\uFEFF{"a":1}', '\uFEFF', '\uFEFF  ', '\uFEFF\uFEFF{}']) {
      expect(parseJsonText(text), JSON.stringify(text)).toMatchObject({ ok: false, problem: expect.stringMatching(/^the body is not JSON \(.+\)$/) });
    }
    expect(parseJsonText('{"a":"\uFEFF"}')).toEqual({ ok: true, value: { a: '\uFEFF' } });
  });

  it("names the parser's complaint when the text is not JSON", () => {
    const parsed = parseJsonText('{');
    expect(parsed.ok).toBe(false);
    let message = '';
    try {
      JSON.parse('{');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(parsed).toEqual({ ok: false, problem: `the body is not JSON (${message})` });
  });
});

describe('isPlainObject', () => {
  it.each<[unknown, boolean]>([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['{}', false],
    [1, false],
    [undefined, false],
  ])('%o → %s', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});
