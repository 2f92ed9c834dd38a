import { describe, expect, test } from 'vitest';
import { readVerdict } from './read-verdict.js';

describe('readVerdict', () => {
  test.each<[string, unknown, unknown]>([
    ['the published shape', { outcome: 'HTTP_ERROR', layer: 'transport', status: 503 }, { outcome: 'HTTP_ERROR', layer: 'transport', status: 503 }],
    ['an outcome alone, given its layer', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol', code: -32602 }],
    ['nulls as absent fields', { outcome: 'TOOL_SUCCESS', layer: null, status: null, code: null }, { outcome: 'TOOL_SUCCESS', layer: 'application' }],
    [
      'detail and recovery',
      { outcome: 'NO_RESPONSE', detail: 'x', recovery: { hasFinalResult: false, replay: 'reissue_if_idempotent' } },
      { outcome: 'NO_RESPONSE', layer: 'transport', detail: 'x', recovery: { hasFinalResult: false, replay: 'reissue_if_idempotent' } },
    ],
    ['a disagreeing layer, kept for the judge', { outcome: 'TOOL_ERROR', layer: 'protocol' }, { outcome: 'TOOL_ERROR', layer: 'protocol' }],
    ['without unknown keys', { outcome: 'TOOL_ERROR', extra: 1 }, { outcome: 'TOOL_ERROR', layer: 'application' }],
  ])('reads %s', (_title, value, verdict) => {
    expect(readVerdict(value)).toEqual({ verdict });
  });

  test.each<[string, unknown, RegExp]>([
    ['undefined', undefined, /object, got nothing/],
    ['a string', 'TOOL_SUCCESS', /object/],
    ['an array', [], /object/],
    ['an unknown outcome', { outcome: 'SUCCESS' }, /outcome must be one of/],
    ['a lower-case outcome', { outcome: 'tool_success' }, /outcome/],
    ['an unknown layer', { outcome: 'TOOL_SUCCESS', layer: 'tool' }, /layer must be one of/],
    ['a string status', { outcome: 'HTTP_ERROR', status: '503' }, /status must be an integer/],
    ['a fractional code', { outcome: 'JSONRPC_ERROR', code: 1.5 }, /code must be an integer/],
    ['a non-string detail', { outcome: 'TOOL_SUCCESS', detail: 1 }, /detail/],
    ['a bad replay', { outcome: 'TOOL_SUCCESS', recovery: { hasFinalResult: true, replay: 'always' } }, /recovery.replay/],
    // Untrusted values that JSON.stringify or a property read would throw on: a problem, never a throw.
    ['a BigInt status', { outcome: 'HTTP_ERROR', status: 503n }, /status must be an integer; got "\[BigInt 503\]"/],
    ['a BigInt outcome', { outcome: 1n }, /outcome must be one of .*BigInt 1/],
    ['a cyclic outcome', (() => { const o: Record<string, unknown> = {}; o['outcome'] = o; return o; })(), /outcome must be one of .*circular/],
    ['a throwing toJSON', { outcome: { toJSON: () => { throw new Error('boom'); } } }, /outcome must be one of .*toJSON threw/],
    ['a throwing getter', Object.defineProperty({}, 'outcome', { enumerable: true, get: () => { throw new Error('getter'); } }), /could not be read \(Error: getter\)/],
    ['a bad hasFinalResult', { outcome: 'TOOL_SUCCESS', recovery: { hasFinalResult: 'yes', replay: 'no' } }, /hasFinalResult/],
  ])('refuses %s', (_title, value, problem) => {
    const read = readVerdict(value);
    expect(read).toEqual({ problem: expect.stringMatching(problem) });
  });
});
