// The `result` member of a tools/call response: a CallToolResult, or under 2026-07-28 an
// InputRequiredResult, told apart by `resultType` first (WIRE-FACTS §8.4: the 2026 union is
// looser than its prose, so dispatch on resultType before checking the shape).
import type { Verdict } from '../vocabulary/types.js';
import { hasStructuredContent } from '../vocabulary/version-features.js';
import { isPlainObject } from './json-value.js';
import type { ClassifyContext } from './rules.js';
import { createVerdict } from './verdict.js';

/** Classifies the result of a response whose envelope is valid and whose id matches. */
export function classifyToolResult(result: unknown, context: ClassifyContext): Verdict {
  // MCP's Result is an object (ST25/ST26 Result). JSON-RPC itself allows any value, so a
  // non-object result is a bad result inside a good envelope, not a bad envelope.
  if (!isPlainObject(result)) return invalid('the result is not an object');
  if (context.input.protocolVersion !== '2026-07-28') {
    // Before 2026-07-28 there is no resultType: Result is open-ended, so the key is an ignored extra
    // (WIRE-FACTS case 42), and an input_required result is judged as what it is there: a
    // CallToolResult without content (WIRE-FACTS case 53; LEGACY 5.12).
    return classifyCompleteResult(result, context);
  }
  const resultType = 'resultType' in result ? result['resultType'] : context.rules.resultTypeWhenAbsent;
  if (resultType === 'complete') return classifyCompleteResult(result, context);
  if (resultType === 'input_required') return classifyInputRequired(result, context);
  if (resultType === undefined) return invalid('the result has no resultType');
  // B26 § ResultType: unrecognised values MUST be treated as invalid (the schema accepts any string, S2).
  return invalid(`unknown resultType ${JSON.stringify(resultType)}`);
}

// ST25/ST26 CallToolResult: content required (ContentBlock[], may be empty), isError optional boolean
// (absent = false), structuredContent an object in 2025-06-18/2025-11-25 and any JSON value in
// 2026-07-28 (S2); in 2025-03-26 it is an unknown key, tolerated like any other (LEGACY 3.5, D5).
function classifyCompleteResult(result: Record<string, unknown>, context: ClassifyContext): Verdict {
  const { content, isError } = result;
  if (!Array.isArray(content)) {
    return invalid(content === undefined ? 'the result has no content' : 'content is not an array');
  }
  for (const [index, block] of content.entries()) {
    const problem = context.rules.checkContentBlock(block, context.input.protocolVersion);
    if (problem !== undefined) return invalid(`content[${index}]: ${problem}`);
  }
  if (isError !== undefined && typeof isError !== 'boolean') return invalid('isError is not a boolean');
  const version = context.input.protocolVersion;
  if (version !== '2026-07-28' && hasStructuredContent(version) && 'structuredContent' in result && !isPlainObject(result['structuredContent'])) {
    return invalid(`structuredContent is not an object (required in ${version})`);
  }
  // _meta must be an object; the keys inside it are not read. The one 2026-07-28 declares for results,
  // serverInfo, is self-reported and for display, logging and debugging, and implementations SHOULD NOT
  // use it to change their behaviour (B26 § `_meta`; ST26 ResultMetaObject): a malformed one (no version,
  // which the schema's Implementation requires) leaves the result valid. The case names the exception
  // (result-meta-server-info-without-version, schemaOverride).
  if ('_meta' in result && !isPlainObject(result['_meta'])) return invalid('_meta is not an object');
  const schemaProblem = context.rules.checkStructuredContent(result, context.input.outputSchema, version);
  if (schemaProblem !== undefined) return invalid(schemaProblem);
  // ST25/ST26 CallToolResult.isError: "If not set, this is assumed to be false".
  if (isError === true) return createVerdict('TOOL_ERROR', 'a complete result with isError true');
  return createVerdict('TOOL_SUCCESS', 'a complete result');
}

// MR26 § InputRequiredResult: at least one of inputRequests (a map of input requests) and
// requestState (a string) MUST be present; the schema enforces neither (S3, WIRE-FACTS case 47).
function classifyInputRequired(result: Record<string, unknown>, context: ClassifyContext): Verdict {
  const { inputRequests, requestState } = result;
  if (inputRequests === undefined && requestState === undefined) {
    return invalid('input_required without inputRequests or requestState');
  }
  if (requestState !== undefined && typeof requestState !== 'string') return invalid('requestState is not a string');
  if (inputRequests !== undefined) {
    if (!isPlainObject(inputRequests)) return invalid('inputRequests is not an object');
    for (const [key, request] of Object.entries(inputRequests)) {
      const problem = context.rules.checkInputRequest(request);
      if (problem !== undefined) return invalid(`inputRequests.${key} ${problem}`);
    }
  }
  return createVerdict('INPUT_REQUIRED', 'the server needs more input before it can finish');
}

function invalid(detail: string): Verdict {
  return createVerdict('INVALID_TOOL_RESULT', detail);
}
