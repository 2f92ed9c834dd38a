// The boundary rules that the wrong-on-purpose fixtures replace one at a time
// (test/fixtures/classifiers). Every other rule lives in the module that applies it.
import type { ClassifierInput, ProtocolVersion } from '../vocabulary/types.js';
import { checkContentBlock } from './check-content-block.js';
import { checkInputRequest } from './check-input-request.js';
import { checkStructuredContent } from './check-structured-content.js';

export interface ClassifierRules {
  /** Whether a response `id` answers the request's `id`. */
  matchesId(actual: unknown, expected: string | number): boolean;
  /** The `resultType` assumed when a 2026-07-28 result has none; undefined = none assumed (invalid). */
  resultTypeWhenAbsent: string | undefined;
  /** A problem with one CallToolResult content block under the exchange's version, or undefined when it is valid. */
  checkContentBlock(block: unknown, version: ProtocolVersion): string | undefined;
  /** A problem with one input request of an input_required result (after "inputRequests.<key> "), or undefined. */
  checkInputRequest(request: unknown): string | undefined;
  /** A problem with a complete result under the tool's declared outputSchema (none before 2025-06-18), or undefined. */
  checkStructuredContent(result: Record<string, unknown>, outputSchema: unknown, version: ProtocolVersion): string | undefined;
}

/** The fields of an exchange the reference reads: not the raw bytes, not the request beyond its id. */
export type ReferenceInput = Omit<ClassifierInput, 'bodyBytes' | 'request'>;

/** What the checks need besides the message: the exchange and the rules in force. */
export interface ClassifyContext {
  input: ReferenceInput;
  rules: ClassifierRules;
}

/** Whether two ids are the same JSON-RPC id, type included. */
export function matchesIdStrictly(actual: unknown, expected: string | number): boolean {
  // B25/B26 § Responses: "the same ID as the request". JSON-RPC 2.0 § 5 treats 1 and "1" as
  // different ids, so the JSON type must match (WIRE-FACTS §8.5, case 26). `1.0` is read as a
  // JSON number equal to 1, as JSON.parse and the schema (RequestId: integer, S4) both read it
  // (WIRE-FACTS case 27): the reference accepts it. Strict equality never converts, so it already
  // tells a string from a number.
  return actual === expected;
}

export const REFERENCE_RULES: ClassifierRules = {
  matchesId: matchesIdStrictly,
  // B26 § ResultType: "clients MUST treat the absent field as "complete"" (legacy servers);
  // the published case legacy-no-result-type expects TOOL_SUCCESS.
  resultTypeWhenAbsent: 'complete',
  checkContentBlock,
  checkInputRequest,
  checkStructuredContent,
};
