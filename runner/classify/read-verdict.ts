// Reads what a target returned as its conclusion. Targets return `unknown` (a classifier
// written elsewhere, a client's last stdout line), so nothing is trusted until checked here.
import {
  OUTCOME_LAYER,
  OUTCOMES,
  REPLAY_ADVICE,
  VERDICT_LAYERS,
  type Outcome,
  type Recovery,
  type ReplayAdvice,
  type Verdict,
  type VerdictLayer,
} from '../vocabulary/types.js';
import { describeThrown, stringifySafe } from '../util/safe-copy.js';
import { isPlainObject } from './json-value.js';

export type ReadVerdictResult = { verdict: Verdict } | { problem: string };

/** Validates a target's conclusion and returns it as a Verdict, or says what is wrong with it. Never throws. */
export function readVerdict(value: unknown): ReadVerdictResult {
  try {
    return readVerdictFields(value);
  } catch (error) {
    // A throwing getter or a revoked Proxy: the answer cannot be read, so it is not a verdict.
    return { problem: `the verdict could not be read (${describeThrown(error, 200)})` };
  }
}

function readVerdictFields(value: unknown): ReadVerdictResult {
  if (!isPlainObject(value)) return { problem: `a verdict must be an object, got ${describe(value)}` };
  const { outcome, layer, status, code, detail, recovery } = value;
  if (typeof outcome !== 'string' || !(OUTCOMES as readonly string[]).includes(outcome)) {
    return { problem: `outcome must be one of ${OUTCOMES.join(', ')}; got ${describe(outcome)}` };
  }
  // The published shape always carries a layer; a client printing only an outcome is read with
  // the outcome's own layer. A layer that disagrees is kept: judging it is the judge's business.
  if (isPresent(layer) && (typeof layer !== 'string' || !(VERDICT_LAYERS as readonly string[]).includes(layer))) {
    return { problem: `layer must be one of ${VERDICT_LAYERS.join(', ')}; got ${describe(layer)}` };
  }
  if (isPresent(status) && !Number.isInteger(status)) return { problem: `status must be an integer; got ${describe(status)}` };
  if (isPresent(code) && !Number.isInteger(code)) return { problem: `code must be an integer; got ${describe(code)}` };
  if (isPresent(detail) && typeof detail !== 'string') return { problem: `detail must be a string; got ${describe(detail)}` };
  const verdict: Verdict = {
    outcome: outcome as Outcome,
    layer: isPresent(layer) ? (layer as VerdictLayer) : OUTCOME_LAYER[outcome as Outcome],
  };
  if (isPresent(status)) verdict.status = status as number;
  if (isPresent(code)) verdict.code = code as number;
  if (isPresent(detail)) verdict.detail = detail as string;
  if (isPresent(recovery)) {
    const read = readRecovery(recovery);
    if (typeof read === 'string') return { problem: read };
    verdict.recovery = read;
  }
  return { verdict };
}

function readRecovery(value: unknown): Recovery | string {
  if (!isPlainObject(value)) return `recovery must be an object; got ${describe(value)}`;
  const { hasFinalResult, replay } = value;
  if (typeof hasFinalResult !== 'boolean') return `recovery.hasFinalResult must be a boolean; got ${describe(hasFinalResult)}`;
  if (typeof replay !== 'string' || !(REPLAY_ADVICE as readonly string[]).includes(replay)) {
    return `recovery.replay must be one of ${REPLAY_ADVICE.join(', ')}; got ${describe(replay)}`;
  }
  return { hasFinalResult, replay: replay as ReplayAdvice };
}

// JSON output from other languages writes absent optional fields as null.
function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  // Untrusted: may be a BigInt, cyclic or hold a throwing toJSON.
  const text = stringifySafe(value, { maxChars: 200, maxDepth: 4 });
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
