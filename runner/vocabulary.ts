// The words every module shares (protocol versions, outcomes, check levels, the expected
// verdict): a leaf that imports nothing, so case-types.ts and types.ts can both use it
// without importing each other. types.ts re-exports all of it.

export const PROTOCOL_VERSIONS = ['2025-11-25', '2026-07-28'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/**
 * The outcome taxonomy (DESIGN §2). The first eight are the published vocabulary;
 * STREAM_INCOMPLETE and NO_RESPONSE are this project's additions (README § Outcomes).
 */
export const OUTCOMES = [
  'TOOL_SUCCESS',
  'TOOL_ERROR',
  'HTTP_ERROR',
  'JSONRPC_ERROR',
  'INPUT_REQUIRED',
  'MALFORMED_JSON',
  'INVALID_ENVELOPE',
  'INVALID_TOOL_RESULT',
  'STREAM_INCOMPLETE',
  'NO_RESPONSE',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const CHECK_LEVELS = ['MUST', 'SHOULD', 'POLICY', 'INFO'] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];

/** What a correct target concludes about one exchange. */
export interface ExpectedVerdict {
  outcome: Outcome;
  status?: number;
  code?: number;
}
