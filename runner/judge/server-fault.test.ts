import { describe, expect, it } from 'vitest';
import type { ExchangeSpec, ServerFault } from '../cases/case-types.js';
import { getAcceptedAlternatives, getServerFaultAlternative } from './server-fault.js';

const requestOnStream: ServerFault = {
  rule: 'a 2026-07-28 server must not send requests of its own on a response stream',
  ref: 'SH26 § Receiving Messages',
  result: { outcome: 'TOOL_SUCCESS' },
  versions: ['2026-07-28'],
};
const exchange = (serverFault?: ServerFault, alternatives?: ExchangeSpec['alternatives']): ExchangeSpec => ({
  response: {},
  expect: { outcome: 'TOOL_SUCCESS' },
  expectByVersion: { '2026-07-28': { outcome: 'INVALID_ENVELOPE' } },
  ...(serverFault ? { serverFault } : {}),
  ...(alternatives ? { alternatives } : {}),
});

describe('getServerFaultAlternative: the result a server sent, when only the server broke its duty', () => {
  it('is accepted at POLICY, costing imprecise, when the specification gives the client no duty to detect the fault', () => {
    expect(getServerFaultAlternative(exchange(requestOnStream), '2026-07-28')).toEqual({
      outcome: 'TOOL_SUCCESS',
      level: 'POLICY',
      spec: [{ ref: 'SH26 § Receiving Messages' }],
      why: "the fault is the server's: a 2026-07-28 server must not send requests of its own on a response stream. The specification gives the client no duty to detect it, so a client that returns the result the server sent is not wrong, only less strict than this table",
      consequence: 'imprecise',
    });
  });

  it('is accepted at SHOULD, naming both references, when the client SHOULD detect it', () => {
    const schema: ServerFault = {
      rule: 'structured content must conform to the output schema the tool declares',
      ref: 'TL26 § Output Schema',
      clientShould: { rule: 'clients should validate structured results against that schema', ref: 'TL26 § Output Schema' },
      result: { outcome: 'TOOL_SUCCESS' },
    };
    const alternative = getServerFaultAlternative(exchange(schema), '2025-06-18');
    expect(alternative).toMatchObject({ level: 'SHOULD', consequence: 'imprecise', spec: [{ ref: 'TL26 § Output Schema' }, { ref: 'TL26 § Output Schema' }] });
    expect(alternative!.why).toBe(
      "the fault is the server's: structured content must conform to the output schema the tool declares. The client only SHOULD detect it (clients should validate structured results against that schema), so a client that returns the result the server sent fails that SHOULD and nothing stronger",
    );
  });

  it('keeps the status and code the result names', () => {
    const fault: ServerFault = { rule: 'no byte order mark before a JSON text', ref: 'RFC 8259 § 8.1', result: { outcome: 'JSONRPC_ERROR', code: -32603 } };
    expect(getServerFaultAlternative(exchange(fault), '2025-11-25')).toMatchObject({ outcome: 'JSONRPC_ERROR', code: -32603 });
  });

  it('applies only in the versions in which the response is a fault, and to every version when none are named', () => {
    expect(getServerFaultAlternative(exchange(requestOnStream), '2025-11-25')).toBeUndefined();
    expect(getServerFaultAlternative(exchange(), '2026-07-28')).toBeUndefined();
    const { versions: _all, ...everywhere } = requestOnStream;
    expect(getServerFaultAlternative(exchange(everywhere), '2025-03-26')).toMatchObject({ outcome: 'TOOL_SUCCESS' });
  });
});

describe('getAcceptedAlternatives', () => {
  const timeout = { outcome: 'STREAM_INCOMPLETE' as const, level: 'SHOULD' as const, spec: [{ ref: 'L25 § Timeouts' }], why: 'a client may wait for its own timeout' };

  it("lists the exchange's own alternatives, then a server fault's result where it applies", () => {
    expect(getAcceptedAlternatives(exchange(requestOnStream, [timeout]), '2026-07-28')!.map((entry) => entry.outcome)).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS']);
    expect(getAcceptedAlternatives(exchange(requestOnStream), '2026-07-28')!.map((entry) => entry.outcome)).toEqual(['TOOL_SUCCESS']);
    expect(getAcceptedAlternatives(exchange(requestOnStream, [timeout]), '2025-11-25')).toEqual([timeout]);
    expect(getAcceptedAlternatives(exchange(), '2026-07-28')).toBeUndefined();
  });
});
