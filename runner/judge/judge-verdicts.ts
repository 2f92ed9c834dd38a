// Judges what a classifier concluded, exchange by exchange, against the case's expectations.
import { getExpectedVerdict, type AlternativeVerdict, type Case } from '../cases/case-types.js';
import { getAcceptedAlternatives } from './server-fault.js';
import type { Check, ExpectedVerdict, ProtocolVersion, TargetOutcome } from '../vocabulary/types.js';
import { judgeConclusion } from './judge-conclusion.js';
import { makeCheck } from './make-check.js';

/** The verdicts the case expects under one version, one per exchange. */
export function getExpectedVerdicts(item: Case, version: ProtocolVersion): ExpectedVerdict[] {
  return item.exchanges.map((exchange) => getExpectedVerdict(exchange, version));
}

/**
 * Checks per exchange `n` (1-based): `outcome@n`, `status@n` / `code@n` when the case names
 * them, and `layer@n` (SHOULD) when the target reported a layer. A failure fails at the level of
 * its consequence (judge-conclusion.ts); an exchange not reported, or reported as something that
 * is not a verdict, is `no-conclusion` (MUST). `alternatives[i]` are exchange i's accepted
 * alternatives (getAlternatives).
 */
export function judgeVerdicts(expected: ExpectedVerdict[], outcome: TargetOutcome, alternatives: readonly (readonly AlternativeVerdict[] | undefined)[] = []): Check[] {
  const checks: Check[] = [];
  expected.forEach((want, index) => {
    const n = index + 1;
    const invalid = outcome.invalidVerdicts?.find((entry) => entry.index === index);
    const got = outcome.verdicts[index] ?? null;
    if (invalid) {
      checks.push(makeCheck({ id: `outcome@${n}`, level: 'MUST', expected: want.outcome, actual: invalid.value, passed: false, exchange: index, consequence: 'no-conclusion', message: `outcome@${n}: the target's answer is not a verdict: ${invalid.problem}` }));
      return;
    }
    if (got === null) {
      checks.push(makeCheck({ id: `outcome@${n}`, level: 'MUST', expected: want.outcome, actual: null, passed: false, exchange: index, consequence: 'no-conclusion', message: `outcome@${n}: expected ${want.outcome}, not reported` }));
      return;
    }
    const ids = { outcome: `outcome@${n}`, status: `status@${n}`, code: `code@${n}`, layer: `layer@${n}` };
    checks.push(...judgeConclusion({ ids, expected: want, got, alternatives: alternatives[index], checkLayer: got.layer !== undefined, exchange: index }));
  });
  return checks;
}

/** The accepted alternatives of each exchange of a case under one version (its own, and a server fault's result). */
export function getAlternatives(item: Case, version: ProtocolVersion): (AlternativeVerdict[] | undefined)[] {
  return item.exchanges.map((exchange) => getAcceptedAlternatives(exchange, version));
}
