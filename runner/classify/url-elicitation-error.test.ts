// -32042 URLElicitationRequiredError: a defined error with required data only in 2025-11-25
// (SJ25; WIRE-FACTS-LEGACY 2.12, D17); before, a plain server-range code; 2026-07-28 retired it.
import { describe, expect, test } from 'vitest';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../vocabulary/types.js';
import { classifyReference } from './reference.js';
import { makeClassifierInput } from './test-inputs.js';

const elicitation = { mode: 'url', elicitationId: 'el-1', url: 'https://example.com/consent', message: 'Approve' };
const error = (data?: unknown) => ({ jsonrpc: '2.0', id: 1, error: { code: -32042, message: 'URL elicitation required', ...(data === undefined ? {} : { data }) } });
const classify = (message: unknown, protocolVersion: ProtocolVersion) => classifyReference(makeClassifierInput({ message, protocolVersion }));

describe('-32042 URL elicitation required, per version', () => {
  test.each(PROTOCOL_VERSIONS.filter((version) => version !== '2025-11-25'))('%s: any -32042 is a JSON-RPC error', (version) => {
    expect(classify(error(), version)).toMatchObject({ outcome: 'JSONRPC_ERROR', code: -32042 });
  });

  test.each<[string, unknown, string | undefined]>([
    ['valid data', { elicitations: [elicitation] }, undefined],
    ['an empty list', { elicitations: [] }, undefined],
    ['no data', undefined, 'data is missing or not an object'],
    ['data without elicitations', { url: 'https://example.com' }, 'data.elicitations is missing or not an array'],
    ['a form-mode member', { elicitations: [{ ...elicitation, mode: 'form' }] }, 'data.elicitations[0] is not URL elicitation params (mode "url", elicitationId, message, url)'],
    ['a member without elicitationId', { elicitations: [{ mode: 'url', url: 'https://x', message: 'm' }] }, 'data.elicitations[0] is not URL elicitation params (mode "url", elicitationId, message, url)'],
  ])('2025-11-25, %s', (_title, data, problem) => {
    const verdict = classify(error(data), '2025-11-25');
    if (problem === undefined) expect(verdict).toMatchObject({ outcome: 'JSONRPC_ERROR', code: -32042 });
    else expect(verdict).toMatchObject({ outcome: 'INVALID_ENVELOPE', detail: `error -32042 (URL elicitation required): ${problem}` });
  });
});
