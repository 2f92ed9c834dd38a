// Judges what a classifier concluded, exchange by exchange, against the case's expectations.
import { getExpectedVerdict, type Case } from '../cases/case-types.js';
import { OUTCOME_LAYER, type Check, type ExpectedVerdict, type ProtocolVersion, type TargetOutcome } from '../types.js';
import { makeCheck } from './make-check.js';

/** The verdicts the case expects under one version, one per exchange. */
export function getExpectedVerdicts(item: Case, version: ProtocolVersion): ExpectedVerdict[] {
  return item.exchanges.map((exchange) => getExpectedVerdict(exchange, version));
}

/**
 * Checks per exchange `n` (1-based): `outcome@n` (MUST), `status@n` / `code@n` when the case
 * names them (MUST), and `layer@n` (SHOULD) when the target reported a layer.
 */
export function judgeVerdicts(expected: ExpectedVerdict[], outcome: TargetOutcome): Check[] {
  const checks: Check[] = [];
  expected.forEach((want, index) => {
    const n = index + 1;
    const invalid = outcome.invalidVerdicts?.find((entry) => entry.index === index);
    const got = outcome.verdicts[index] ?? null;
    if (invalid) {
      checks.push(makeCheck({ id: `outcome@${n}`, level: 'MUST', expected: want.outcome, actual: invalid.value, passed: false, exchange: index, message: `outcome@${n}: the target's answer is not a verdict: ${invalid.problem}` }));
      return;
    }
    if (got === null) {
      checks.push(makeCheck({ id: `outcome@${n}`, level: 'MUST', expected: want.outcome, actual: null, passed: false, exchange: index, message: `outcome@${n}: expected ${want.outcome}, not reported` }));
      return;
    }
    checks.push(makeCheck({ id: `outcome@${n}`, level: 'MUST', expected: want.outcome, actual: got.outcome, exchange: index }));
    if (want.status !== undefined) {
      checks.push(makeCheck({ id: `status@${n}`, level: 'MUST', expected: want.status, actual: got.status, exchange: index }));
    }
    if (want.code !== undefined) {
      checks.push(makeCheck({ id: `code@${n}`, level: 'MUST', expected: want.code, actual: got.code, exchange: index }));
    }
    if (got.layer !== undefined && got.outcome === want.outcome) {
      checks.push(makeCheck({ id: `layer@${n}`, level: 'SHOULD', expected: OUTCOME_LAYER[want.outcome], actual: got.layer, exchange: index }));
    }
  });
  return checks;
}
