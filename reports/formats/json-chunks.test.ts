import { describe, expect, it } from 'vitest';
import { escapeRawControls, stringifyChunks } from './json-full.js';

// A report's head fields are written an element at a time (stringifyChunks); the text must be
// byte for byte what one JSON.stringify of the value, nested and escaped, gives.
const nestBy = (text: string, indent: number, depth: number) => (indent ? text.replace(/\n/g, `\n${' '.repeat(indent * depth)}`) : text);
const whole = (value: unknown, indent: number, depth: number) => escapeRawControls(nestBy(JSON.stringify(value, null, indent), indent, depth));

const VALUES: unknown[] = [
  [],
  {},
  'a\u2028b',
  42,
  [1, 'two', null, { three: [3, { deep: [] }] }],
  [{ id: 'x', spec: [{ ref: 'TL25 § Calling Tools' }], text: 'del\u007f c1\u009b' }, [], [[]]],
  [undefined, () => 1, Symbol('s')],
  { list: [{ a: 1 }, { b: [2, 3] }] },
];

describe('stringifyChunks', () => {
  for (const indent of [0, 2]) {
    for (const depth of [0, 1, 2]) {
      it(`writes what JSON.stringify writes (indent ${indent}, depth ${depth})`, () => {
        for (const value of VALUES) expect([...stringifyChunks(value, indent, depth)].join('')).toBe(whole(value, indent, depth));
      });
    }
  }

  it('never holds a large array as one string: each chunk is about 64 KiB', () => {
    const cases = Array.from({ length: 5_000 }, (_, i) => ({ id: `case-${i}`, description: 'd'.repeat(200) }));
    const chunks = [...stringifyChunks(cases, 2, 1)];
    expect(chunks.join('')).toBe(whole(cases, 2, 1));
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan((1 << 16) + 1_000);
  });
});
