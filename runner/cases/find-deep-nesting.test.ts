import { describe, expect, test } from 'vitest';
import { findDeepNesting } from './find-deep-nesting.js';

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

describe('findDeepNesting', () => {
  test('accepts a document exactly at the limit and refuses one level more, naming the first too-deep value', () => {
    expect(findDeepNesting(nest(3), 3)).toBeUndefined();
    expect(findDeepNesting(nest(4), 3)).toBe('/0/0/0');
    expect(findDeepNesting({ a: { b: 1 }, 'x/y~': { c: { d: {} } } }, 3)).toBe('/x~1y~0/c/d');
  });

  test('scalars do not count as a level', () => {
    expect(findDeepNesting({ a: [1, 'two', null, true] }, 2)).toBeUndefined();
  });

  test('reports the first offender in document order', () => {
    expect(findDeepNesting([[[1]], [[[2]]]], 3)).toBe('/1/0/0');
    expect(findDeepNesting({ first: [[[]]], second: [[[]]] }, 3)).toBe('/first/0/0');
  });

  test('is iterative: 100,000 levels neither overflow the stack nor take long', () => {
    const started = performance.now();
    expect(findDeepNesting(nest(100_000), 64)).toBe(`/${Array(64).fill('0').join('/')}`);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
