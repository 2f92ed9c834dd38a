// Test support: a case that breaks its connection's framing, for the shared loopback's tests.
import type { LoadedCase } from '../runner/cases/case-types.js';
import { makeCase, SUCCESS_JSON } from '../runner/mock-server/test-cases.js';

/**
 * A response that says Content-Length 2 and sends more: the rest stays on the connection, where
 * it would be read as the start of the next response on that connection.
 */
export const FRAMING_BREAKER: LoadedCase = {
  case: makeCase([{ headers: { 'Content-Length': '2' }, body: { raw: '{}{"jsonrpc":"2.0","id":1,"result":{}}' } }, { body: { json: SUCCESS_JSON } }], { id: 'synthetic-framing-breaker' }),
  file: 'synthetic.json',
  relativeFile: 'synthetic.json',
  sha256: '0'.repeat(64),
};
