import { describe, expect, it } from 'vitest';
import { capText, CIRCULAR, copySafeValue, describeThrown, stringifySafe } from './safe-copy.js';

describe('copySafeValue', () => {
  it('copies plain JSON data as it is', () => {
    const value = { outcome: 'TOOL_ERROR', list: [1, 'two', null, true, { deep: ['x'] }], empty: {} };
    expect(copySafeValue(value)).toEqual(value);
  });

  it('follows JSON.stringify for undefined, functions, symbols and non-finite numbers', () => {
    expect(copySafeValue({ a: undefined, f: () => 1, s: Symbol('x'), n: Number.NaN, list: [undefined, Infinity] })).toEqual({ n: null, list: [null, null] });
    expect(copySafeValue(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });

  it('marks a cycle instead of following it, and keeps shared (acyclic) references', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    cyclic['list'] = [cyclic];
    expect(copySafeValue(cyclic)).toEqual({ name: 'loop', self: CIRCULAR, list: [CIRCULAR] });
    const shared = { x: 1 };
    expect(copySafeValue({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it('turns a BigInt into a marked string', () => {
    expect(copySafeValue({ big: 12345678901234567890n })).toEqual({ big: '[BigInt 12345678901234567890]' });
    expect(copySafeValue(1n)).toBe('[BigInt 1]');
  });

  it('marks a throwing toJSON, a throwing getter and a revoked proxy', () => {
    const throwingToJSON = { toJSON: () => { throw new Error('nope'); } };
    const getter = Object.defineProperty({ ok: 1 }, 'bad', { enumerable: true, get: () => { throw new TypeError('getter broke'); } });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(copySafeValue({ t: throwingToJSON, g: getter, p: proxy })).toEqual({
      t: '[toJSON threw: Error: nope]',
      g: { ok: 1, bad: '[getter threw: TypeError: getter broke]' },
      p: expect.stringMatching(/^\[(?:toJSON threw|unreadable object): TypeError/),
    });
  });

  it('bounds depth without recursion: 100,000 levels deep', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    const copy = copySafeValue(deep, { maxDepth: 8 });
    let level = copy as Record<string, unknown>;
    for (let i = 0; i < 8; i++) level = level['next'] as Record<string, unknown>;
    expect(level).toBe('[nested deeper than 8 levels]');
  });

  it('bounds the total size with visible markers: a 10 MB string, a million-entry array', () => {
    const copy = copySafeValue({ detail: 'x'.repeat(10 * 1024 * 1024), after: 'y' }, { maxChars: 1000 }) as Record<string, string>;
    expect(copy['detail']).toMatch(/^x{900,1000}… \[truncated: 104\d{5} more characters\]$/);
    expect(copy['…']).toBe('[truncated: 1 more entries]');
    const list = copySafeValue(Array.from({ length: 1_000_000 }, (_, i) => i), { maxChars: 1000 }) as unknown[];
    expect(list.at(-1)).toMatch(/^\[truncated: \d+ more entries\]$/);
    expect(JSON.stringify(list).length).toBeLessThan(3000);
  });

  it('never throws, whatever it is given', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('ownKeys'); } });
    expect(() => copySafeValue(hostile)).not.toThrow();
    expect(() => stringifySafe({ a: hostile, b: 1n })).not.toThrow();
  });
});

describe('capText and describeThrown', () => {
  it('cuts text with a marker and never splits a surrogate pair', () => {
    expect(capText('abcdef', 10)).toBe('abcdef');
    expect(capText('abcdef', 3)).toBe('abc… [truncated: 3 more characters]');
    expect(capText('a😀b', 2)).toBe('a… [truncated: 3 more characters]');
  });

  it('describes anything thrown, even a value whose toString throws', () => {
    expect(describeThrown(new RangeError('bad'))).toBe('RangeError: bad');
    expect(describeThrown('plain')).toBe('plain');
    expect(describeThrown({ toString: () => { throw new Error('x'); } })).toBe('{}');
    expect(describeThrown(new Error('m'.repeat(10_000)), 100).length).toBeLessThan(150);
  });
});
