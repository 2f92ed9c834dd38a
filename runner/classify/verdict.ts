// Builds verdicts: every verdict the reference classifier returns goes through
// createVerdict, so the layer and the recovery advice always agree with the outcome.
import { OUTCOME_LAYER, type Outcome, type Recovery, type Verdict } from '../vocabulary/types.js';

/** JSON-RPC "Invalid params": the one code whose replay depends on the caller (DESIGN §2). */
const INVALID_PARAMS = -32602;

/** The recovery advice of an outcome's layer (DESIGN §2). */
export function getRecovery(outcome: Outcome, code?: number): Recovery {
  switch (outcome) {
    case 'TOOL_SUCCESS':
    case 'TOOL_ERROR':
      // A final result exists; replaying would run the tool again for nothing.
      return { hasFinalResult: true, replay: 'no' };
    case 'HTTP_ERROR':
      // Whether the tool ran is unknown: only an idempotent tool may be called again.
      return { hasFinalResult: false, replay: 'if_idempotent' };
    case 'JSONRPC_ERROR':
      return { hasFinalResult: false, replay: code === INVALID_PARAMS ? 'after_fixing_arguments' : 'no' };
    case 'INPUT_REQUIRED':
      // MR26 § Client Requirements: a follow-up with a new id and inputResponses, not a retry.
      return { hasFinalResult: false, replay: 'follow_up' };
    case 'STREAM_INCOMPLETE':
    case 'NO_RESPONSE':
      // CL26 § Major changes 9: a lost request is sent again as a fresh request, which can
      // run the tool twice, so only when the tool is idempotent.
      return { hasFinalResult: false, replay: 'reissue_if_idempotent' };
    case 'MALFORMED_JSON':
    case 'INVALID_ENVELOPE':
    case 'INVALID_TOOL_RESULT':
      // The server answered, badly: the same call would get the same broken answer.
      return { hasFinalResult: false, replay: 'no' };
  }
}

/** Creates a verdict with the outcome's layer and recovery advice. */
export function createVerdict(
  outcome: Outcome,
  detail: string,
  extra: { status?: number; code?: number } = {},
): Verdict {
  const verdict: Verdict = { outcome, layer: OUTCOME_LAYER[outcome] };
  if (extra.status !== undefined) verdict.status = extra.status;
  if (extra.code !== undefined) verdict.code = extra.code;
  verdict.detail = detail;
  verdict.recovery = getRecovery(outcome, extra.code);
  return verdict;
}
