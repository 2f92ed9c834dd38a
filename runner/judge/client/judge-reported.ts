// What the client reported, per explicit call, against what the case expects it to report.
import { getExpectedVerdict, type Case } from '../../cases/case-types.js';
import { OUTCOME_LAYER, type Check, type ExpectedVerdict, type ProtocolVersion, type TargetOutcome } from '../../types.js';
import { getResponseIdText } from '../../mock-server/serialize-message.js';
import { makeCheck } from '../make-check.js';
import type { WireCall } from './read-wire-calls.js';

/**
 * The verdict expected per explicit call. `client.outcome(ByVersion)` names the last call's;
 * otherwise the last call is expected to report what the script step its last tools/call
 * POST consumed says (so a client that stops retrying after a 429 is held to the 429, one
 * that retries to the success), and call i < last reports what exchange i says.
 */
export function getClientExpectedVerdicts(item: Case, version: ProtocolVersion, calls: WireCall[] = []): ExpectedVerdict[] {
  const count = item.client?.calls ?? 1;
  const named = item.client?.outcomeByVersion?.[version] ?? item.client?.outcome;
  const exchanges = item.exchanges;
  const lastStep = calls.map((call) => call.exchange.request.scriptStep).filter((step): step is number => step !== undefined).at(-1);
  const lastIndex = Math.min(Math.max(lastStep ?? exchanges.length - 1, count - 1), exchanges.length - 1);
  return Array.from({ length: count }, (_, index) => {
    if (index < count - 1) {
      const step = Math.min(index, exchanges.length - 1);
      return readEchoedId(exchanges[step]!, step, calls) ?? getExpectedVerdict(exchanges[step]!, version);
    }
    return named ?? readEchoedId(exchanges[lastIndex]!, lastIndex, calls) ?? getExpectedVerdict(exchanges[lastIndex]!, version);
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

/**
 * `client.outcome` (or `client.outcome@i` for several calls) at `client.outcomeLevel` (MUST by
 * default), `client.status` / `client.code` when the case names them, `client.layer` (SHOULD).
 * A call the client reported nothing for gets an INFO check "not reported": the wire alone judges it.
 */
export function judgeReported(item: Case, expected: ExpectedVerdict[], outcome: TargetOutcome): Check[] {
  const level = item.client?.outcomeLevel ?? 'MUST';
  const checks: Check[] = [];
  expected.forEach((want, index) => {
    const suffix = expected.length === 1 ? '' : `@${index + 1}`;
    const id = (name: string): string => `client.${name}${suffix}`;
    const invalid = outcome.invalidVerdicts?.find((entry) => entry.index === index);
    const got = outcome.verdicts[index] ?? null;
    if (invalid) {
      checks.push(makeCheck({ id: id('outcome'), level, expected: want.outcome, actual: invalid.value, passed: false, message: `${id('outcome')}: the client's report is not a verdict: ${invalid.problem}` }));
      return;
    }
    if (got === null) {
      checks.push(makeCheck({ id: id('outcome'), level: 'INFO', expected: want.outcome, actual: 'not reported', passed: false, message: `${id('outcome')}: not reported (judged on the wire alone); expected ${want.outcome}` }));
      return;
    }
    checks.push(makeCheck({ id: id('outcome'), level, expected: want.outcome, actual: got.outcome }));
    if (want.status !== undefined) checks.push(makeCheck({ id: id('status'), level, expected: want.status, actual: got.status }));
    if (want.code !== undefined) checks.push(makeCheck({ id: id('code'), level, expected: want.code, actual: got.code }));
    if (got.outcome === want.outcome) checks.push(makeCheck({ id: id('layer'), level: 'SHOULD', expected: OUTCOME_LAYER[want.outcome], actual: got.layer }));
  });
  return checks;
}
