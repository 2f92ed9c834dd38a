// Whose duty is it (issue 26 item 7)? Where the specification puts a duty on the server and none on
// the client to detect its breach, a client that returns the result the server did send is not
// wrong, only less strict than the table: the rule is stated here, once. A case's `serverFault`
// states only its facts: the server's duty, the client's SHOULD if the specification gives one, the
// result the server sent, and the versions in which it is a fault.
import type { AlternativeVerdict, ExchangeSpec } from '../cases/case-types.js';
import type { ProtocolVersion } from '../vocabulary/types.js';

/**
 * The result the server sent, accepted beside the strict expectation: at POLICY when the client has
 * no duty to detect the fault (the strict reading is the table's), at SHOULD when the specification
 * gives it a SHOULD; either way it costs `imprecise`, the caller got the real result, never a false
 * success. Undefined when the exchange declares no fault under `version`.
 */
export function getServerFaultAlternative(exchange: ExchangeSpec, version: ProtocolVersion): AlternativeVerdict | undefined {
  const fault = exchange.serverFault;
  if (fault === undefined || (fault.versions !== undefined && !fault.versions.includes(version))) return undefined;
  const { clientShould } = fault;
  const why = clientShould
    ? `the fault is the server's: ${fault.rule}. The client only SHOULD detect it (${clientShould.rule}), so a client that returns the result the server sent fails that SHOULD and nothing stronger`
    : `the fault is the server's: ${fault.rule}. The specification gives the client no duty to detect it, so a client that returns the result the server sent is not wrong, only less strict than this table`;
  return {
    ...fault.result,
    level: clientShould ? 'SHOULD' : 'POLICY',
    spec: [{ ref: fault.ref }, ...(clientShould ? [{ ref: clientShould.ref }] : [])],
    why,
    consequence: 'imprecise',
  };
}

/** The readings an exchange accepts besides its expectation under `version`: its own alternatives, then a server fault's result. */
export function getAcceptedAlternatives(exchange: ExchangeSpec, version: ProtocolVersion): AlternativeVerdict[] | undefined {
  const fault = getServerFaultAlternative(exchange, version);
  if (fault === undefined) return exchange.alternatives;
  return [...(exchange.alternatives ?? []), fault];
}
