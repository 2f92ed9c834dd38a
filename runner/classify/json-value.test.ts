import { describe, expect, it } from 'vitest';
import { isPlainObject, parseJsonText } from './json-value.js';

describe('parseJsonText: JSON text read as a receiver (RFC 8259 §8.1)', () => {
  it('calls a body empty when it holds nothing but white space or one byte order mark', () => {
    for (const text of ['', ' \r\n\t', '\uFEFF', '\uFEFF  ']) expect(parseJsonText(text)).toEqual({ ok: false, problem: 'the body is empty' });
  });

  it('ignores one leading byte order mark, and only a leading one', () => {
    expect(parseJsonText('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonText('{"a":"\uFEFF"}')).toEqual({ ok: true, value: { a: '\uFEFF' } });
    expect(parseJsonText('\uFEFF\uFEFF{}')).toMatchObject({ ok: false, problem: expect.stringMatching(/^the body is not JSON \(.+\)$/) });
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
