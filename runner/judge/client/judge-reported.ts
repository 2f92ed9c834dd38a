// What the client reported, per explicit call, against what the case expects it to report.
import { getExpectedVerdict, type AlternativeVerdict, type Case } from '../../cases/case-types.js';
import type { Check, ExpectedVerdict, ProtocolVersion, TargetOutcome } from '../../vocabulary/types.js';
import { getResponseIdText } from '../../mock-server/serialize-message.js';
import { getFailureLevel } from '../grade-consequence.js';
import { judgeConclusion } from '../judge-conclusion.js';
import { getAcceptedAlternatives } from '../server-fault.js';
import { makeCheck } from '../make-check.js';
import type { WireCall } from './read-wire-calls.js';

/** What one explicit call is expected to report, with the alternatives its script step accepts. */
export interface ClientExpectation {
  verdict: ExpectedVerdict;
  alternatives?: AlternativeVerdict[];
}

/**
 * The verdict expected per explicit call. `client.outcome(ByVersion)` names the last call's;
 * otherwise the last call is expected to report what the script step its last tools/call
 * POST consumed says (so a client that stops retrying after a 429 is held to the 429, one
 * that retries to the success), and call i < last reports what exchange i says.
 */
export function getClientExpectedVerdicts(item: Case, version: ProtocolVersion, calls: WireCall[] = []): ExpectedVerdict[] {
  return getClientExpectations(item, version, calls).map((entry) => entry.verdict);
}

/** As getClientExpectedVerdicts, with each call's accepted alternatives (those of the script step it is held to). */
export function getClientExpectations(item: Case, version: ProtocolVersion, calls: WireCall[] = []): ClientExpectation[] {
  const count = item.client?.calls ?? 1;
  const named = item.client?.outcomeByVersion?.[version] ?? item.client?.outcome;
  const exchanges = item.exchanges;
  const lastStep = calls.map((call) => call.exchange.request.scriptStep).filter((step): step is number => step !== undefined).at(-1);
  const lastIndex = Math.min(Math.max(lastStep ?? exchanges.length - 1, count - 1), exchanges.length - 1);
  const fromStep = (step: number): ClientExpectation => {
    const exchange = exchanges[step]!;
    const echoed = readEchoedId(exchange, step, calls);
    if (echoed) return { verdict: echoed };
    const verdict = getExpectedVerdict(exchange, version);
    const alternatives = getAcceptedAlternatives(exchange, version);
    return alternatives ? { verdict, alternatives } : { verdict };
  };
  return Array.from({ length: count }, (_, index) => {
    if (index < count - 1) return fromStep(Math.min(index, exchanges.length - 1));
    return named ? { verdict: named } : fromStep(lastIndex);
  });
}

/**
 * A case whose response converts the request id to a string (`as-string`) or a number
 * (`as-number`) expects the type mismatch; a client whose id already had that type got its id
 * echoed unchanged, so the step's expectation does not apply: what the server really sent, as
 * the reference classifier reads it, is expected instead.
 */
function readEchoedId(exchange: Case['exchanges'][number], step: number, calls: WireCall[]): ExpectedVerdict | undefined {
  const mode = exchange.response.id;
  if (mode !== 'as-string' && mode !== 'as-number') return undefined;
  const call = calls.find((entry) => entry.exchange.request.scriptStep === step);
  if (call === undefined || call.id === undefined) return undefined;
  const sent = getResponseIdText(mode, call.id, true);
  const echoed = getResponseIdText('echo', call.id, true);
  if (!sent.present || !echoed.present || sent.text !== echoed.text) return undefined;
  return { outcome: call.outcome };
}

/** How judgeReported treats a call the client reported nothing for. */
export interface ReportedOptions {
  /** Per call, the alternatives the case accepts (getClientExpectations). */
  alternatives?: readonly (readonly AlternativeVerdict[] | undefined)[];
  /** Why the client concluded nothing about its last call, when it did not (judge-exit-status.ts). */
  nothing?: string | undefined;
}

/**
 * `client.outcome` (or `client.outcome@i` for several calls), `client.status` / `client.code`
 * when the case names them, `client.layer` (SHOULD). A failure fails at the level of its
 * consequence (judge-conclusion.ts), never above `client.outcomeLevel`. A call the client
 * reported nothing for gets an INFO check "not reported" (the wire or the exit status judges
 * it), except the last call of a client that concluded nothing at all (`nothing`): that fails
 * as `no-conclusion`, as does a report that is not a verdict.
 */
export function judgeReported(item: Case, expected: ExpectedVerdict[], outcome: TargetOutcome, options: ReportedOptions = {}): Check[] {
  const cap = item.client?.outcomeLevel ?? 'MUST';
  const failLevel = getFailureLevel('no-conclusion', cap);
  const checks: Check[] = [];
  expected.forEach((want, index) => {
    const suffix = expected.length === 1 ? '' : `@${index + 1}`;
    const id = (name: string): string => `client.${name}${suffix}`;
    const invalid = outcome.invalidVerdicts?.find((entry) => entry.index === index);
    const got = outcome.verdicts[index] ?? null;
    if (invalid) {
      checks.push(makeCheck({ id: id('outcome'), level: failLevel, expected: want.outcome, actual: invalid.value, passed: false, consequence: 'no-conclusion', message: `${id('outcome')}: the client's report is not a verdict: ${invalid.problem}` }));
      return;
    }
    if (got === null) {
      if (options.nothing !== undefined && index === expected.length - 1) {
        checks.push(makeCheck({ id: id('outcome'), level: failLevel, expected: want.outcome, actual: 'nothing concluded', passed: false, consequence: 'no-conclusion', message: `${id('outcome')}: nothing concluded: ${options.nothing}; expected ${want.outcome}` }));
        return;
      }
      checks.push(makeCheck({ id: id('outcome'), level: 'INFO', expected: want.outcome, actual: 'not reported', passed: false, message: `${id('outcome')}: not reported (judged on the wire alone); expected ${want.outcome}` }));
      return;
    }
    const ids = { outcome: id('outcome'), status: id('status'), code: id('code'), layer: id('layer') };
    checks.push(...judgeConclusion({ ids, expected: want, got, cap, alternatives: options.alternatives?.[index], checkLayer: true }));
  });
  return checks;
}
