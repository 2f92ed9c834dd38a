import { describe, expect, it } from 'vitest';
import { freezeParsedJson } from './freeze-parsed-json.js';

describe('freezeParsedJson', () => {
  it('freezes every array and object of a parsed document, however nested', () => {
    const document = freezeParsedJson(JSON.parse('{"a":[{"b":{"c":[1,[2,{"d":null}]]}}],"e":"x","__proto__":{"f":[]}}') as Record<string, unknown>);
    const reached: unknown[] = [];
    const walk = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      reached.push(value);
      Object.values(value).forEach(walk);
    };
    walk(document);
    expect(reached).toHaveLength(9);
    for (const value of reached) expect(Object.isFrozen(value)).toBe(true);
    expect(() => {
      ((document.a as unknown[])[0] as Record<string, unknown>).b = 1;
    }).toThrow(TypeError);
  });

  it('walks data nested far deeper than the call stack allows', () => {
    const depth = 100_000;
    const document = freezeParsedJson(JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown[]);
    let inner: unknown = document;
    for (let level = 1; level < depth; level++) inner = (inner as unknown[])[0];
    expect(Object.isFrozen(inner)).toBe(true);
  });
});
