import { describe, expect, it } from 'vitest';
import { makeCheck } from './make-check.js';

describe('makeCheck', () => {
  it.each<[unknown, unknown, boolean, string]>([
    ['TOOL_SUCCESS', 'TOOL_SUCCESS', true, 'c: TOOL_SUCCESS'],
    ['TOOL_SUCCESS', 'TOOL_ERROR', false, 'c: expected TOOL_SUCCESS, got TOOL_ERROR'],
    [503, 500, false, 'c: expected 503, got 500'],
    [503, undefined, false, 'c: expected 503, got nothing'],
    [{ min: 1 }, { min: 1 }, true, 'c: {"min":1}'],
    [['a'], ['b'], false, 'c: expected ["a"], got ["b"]'],
    ['1', 1, false, 'c: expected 1, got 1'],
    [undefined, undefined, true, 'c: nothing'],
  ])('expected %o, actual %o: passed %s, message %s', (expected, actual, passed, message) => {
    expect(makeCheck({ id: 'c', level: 'MUST', expected, actual })).toEqual({ id: 'c', level: 'MUST', passed, expected, actual, message });
  });

  it('takes an explicit verdict and message, and an exchange only when given', () => {
    expect(makeCheck({ id: 'c', level: 'SHOULD', expected: 1, actual: 2, passed: true, message: 'm', exchange: 0 })).toEqual({ id: 'c', level: 'SHOULD', passed: true, expected: 1, actual: 2, message: 'm', exchange: 0 });
    expect('exchange' in makeCheck({ id: 'c', level: 'MUST', expected: 1, actual: 1 })).toBe(false);
  });

  it('keeps a consequence only on a failed check, and writes no consequence key without one', () => {
    expect(makeCheck({ id: 'c', level: 'MUST', expected: 1, actual: 2, consequence: 'false-success' })).toMatchObject({ passed: false, consequence: 'false-success' });
    expect('consequence' in makeCheck({ id: 'c', level: 'MUST', expected: 1, actual: 1, consequence: 'false-success' })).toBe(false);
    expect('consequence' in makeCheck({ id: 'c', level: 'MUST', expected: 1, actual: 2 })).toBe(false);
  });
});
