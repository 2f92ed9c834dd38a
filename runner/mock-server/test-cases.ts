// Test support: small cases built in code, for server and harness tests.
import type { Case, ExchangeSpec, ResponseSpec } from '../cases/case-types.js';

/** A success body in the shape of the published baseline. */
export const SUCCESS_JSON = {
  jsonrpc: '2.0',
  result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }], isError: false },
};

/** Builds a valid case whose script answers with the given responses in order. */
export function makeCase(responses: ResponseSpec[], overrides: Partial<Case> = {}): Case {
  const exchanges: ExchangeSpec[] = responses.map((response) => ({ response, expect: { outcome: 'TOOL_SUCCESS' } }));
  return {
    id: 'synthetic',
    title: 'Synthetic case',
    layer: 'transport',
    origin: 'extra',
    description: 'A case built by a test.',
    spec: [{ ref: 'test' }],
    versions: ['2025-11-25', '2026-07-28'],
    exchanges,
    ...overrides,
  };
}
