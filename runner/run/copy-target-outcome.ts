// What a target returned is untrusted: a verdict `detail` of 10 MB, an invalid answer that is
// cyclic, holds a BigInt or a throwing toJSON, an error message of any size. Every cell copies
// its target's outcome through here before judging, so the results hold only bounded JSON data
// and no report can fail to serialise it.
import { capText, copySafeValue } from '../util/safe-copy.js';
import type { TargetOutcome, Verdict } from '../vocabulary/types.js';

/** Characters of a verdict's `detail` kept; the rest is cut with a visible marker. */
export const MAX_DETAIL_CHARS = 16 * 1024;
/** Characters kept of an invalid answer (as JSON data) and of an error or skip message. */
export const MAX_UNTRUSTED_CHARS = 16 * 1024;
/** Characters kept of a library's observation record (all its strings and keys together). */
export const MAX_OBSERVED_CHARS = 64 * 1024;

/** A bounded, JSON-safe copy of a target's outcome. Never throws. */
export function copyTargetOutcome(outcome: TargetOutcome): TargetOutcome {
  const copy: TargetOutcome = { ...outcome, verdicts: outcome.verdicts.map((verdict) => (verdict ? copyVerdict(verdict) : null)) };
  if (outcome.invalidVerdicts) {
    copy.invalidVerdicts = outcome.invalidVerdicts.map((entry) => ({
      index: entry.index,
      value: copySafeValue(entry.value, { maxChars: MAX_UNTRUSTED_CHARS }),
      problem: capText(String(entry.problem), MAX_UNTRUSTED_CHARS),
    }));
  }
  if (outcome.error !== undefined) copy.error = capText(outcome.error, MAX_UNTRUSTED_CHARS);
  if (outcome.skip !== undefined) copy.skip = capText(outcome.skip, MAX_UNTRUSTED_CHARS);
  // The observation is capped where it is made (observe-call.mjs); this bounds the whole record.
  if (outcome.observed !== undefined) copy.observed = copySafeValue(outcome.observed, { maxChars: MAX_OBSERVED_CHARS }) as unknown as TargetOutcome['observed'];
  return copy;
}

// Verdicts come from readVerdict (fields checked); only the free text needs a bound.
function copyVerdict(verdict: Verdict): Verdict {
  if (verdict.detail === undefined || verdict.detail.length <= MAX_DETAIL_CHARS) return verdict;
  return { ...verdict, detail: capText(verdict.detail, MAX_DETAIL_CHARS) };
}
