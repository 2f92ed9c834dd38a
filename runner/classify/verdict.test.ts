import { describe, expect, it } from 'vitest';
import { createVerdict } from './verdict.js';

describe('createVerdict: the layer and the recovery always follow the outcome', () => {
  it('carries status and code only when given, and the recovery of the code', () => {
    expect(createVerdict('HTTP_ERROR', 'HTTP status 503', { status: 503 })).toEqual({
      outcome: 'HTTP_ERROR',
      layer: 'transport',
      status: 503,
      detail: 'HTTP status 503',
      recovery: { hasFinalResult: false, replay: 'if_idempotent' },
    });
    expect(createVerdict('JSONRPC_ERROR', 'JSON-RPC error -32602: m', { code: -32602 })).toEqual({
      outcome: 'JSONRPC_ERROR',
      layer: 'protocol',
      code: -32602,
      detail: 'JSON-RPC error -32602: m',
      recovery: { hasFinalResult: false, replay: 'after_fixing_arguments' },
    });
  });

  it('has no status or code key at all when none is given', () => {
    const verdict = createVerdict('TOOL_SUCCESS', 'a complete result');
    expect(Object.keys(verdict)).toEqual(['outcome', 'layer', 'detail', 'recovery']);
    expect(verdict).toMatchObject({ layer: 'application', recovery: { hasFinalResult: true, replay: 'no' } });
  });
});
