// The reference classifier: the project's own reading of one tools/call exchange. Pure,
// deterministic, never throws. Every boundary rule is written once, here or in the module
// named beside it, with its spec reference (aliases from WIRE-FACTS.md); OUTCOMES.md lists them.
import type { PublishedClassifierInput, Verdict } from '../vocabulary/types.js';
import { classifyResponseMessage } from './check-envelope.js';
import { classifySseBody } from './classify-sse.js';
import { parseJsonText } from './json-value.js';
import { REFERENCE_RULES, type ClassifierRules, type ClassifyContext, type ReferenceInput } from './rules.js';
import { createVerdict } from './verdict.js';

// RFC 9110 §15.3.3 (202) and §15.3.5 (204): statuses that announce there is nothing to read.
const NO_CONTENT_STATUSES = new Set([202, 204]);

/** Set to `1` (vitest.config.ts, vitest.mutate.config.ts): a crash inside a check is rethrown. */
export const RETHROW_CLASSIFIER_BUGS_ENV = 'MCP_ERROR_MATRIX_RETHROW_CLASSIFIER_BUGS';
/** How the detail of a verdict made from a crash begins. */
export const CLASSIFIER_BUG_PREFIX = 'classifier bug: ';

/** Builds a classifier from the reference with some rules replaced (fixtures use this). */
export function createClassifier(overrides: Partial<ClassifierRules> = {}): (input: PublishedClassifierInput) => Verdict {
  const rules: ClassifierRules = { ...REFERENCE_RULES, ...overrides };
  return (input) => {
    try {
      return classifyExchange({ input: completeInput(input), rules });
    } catch (error) {
      // Unreachable by design; the guard keeps the "never throws" promise if a check has a bug.
      // The project's own test configs set the flag so that a crash fails the test that caused
      // it instead of passing every row that expects INVALID_ENVELOPE.
      if (process.env[RETHROW_CLASSIFIER_BUGS_ENV] === '1') throw error;
      return createVerdict('INVALID_ENVELOPE', `${CLASSIFIER_BUG_PREFIX}${(error as Error).message}`);
    }
  };
}

/** The reference classifier (DESIGN §2, README § Outcomes); takes the full input or the published `{ status, body, expectedId }`. */
export const classifyReference: (input: PublishedClassifierInput) => Verdict = createClassifier();

// The published shape carries only status, body and expectedId: without headers the body is read
// as JSON (RFC 9110 §8.3), without a version as 2026-07-28 (the version every published case applies to).
function completeInput(input: PublishedClassifierInput): ReferenceInput {
  return { ...input, headers: input.headers ?? {}, contentType: input.contentType, protocolVersion: input.protocolVersion ?? '2026-07-28' };
}

function classifyExchange(context: ClassifyContext): Verdict {
  const { input } = context;
  // No status line: timeout, refused, or reset before the status (README § Outcomes, NO_RESPONSE).
  if (!Number.isInteger(input.status) || input.status <= 0) {
    const why = input.transportError ? `${input.transportError.kind}: ${input.transportError.message}` : 'no status line';
    return createVerdict('NO_RESPONSE', why);
  }
  // A non-2xx status wins over any body (published cases http-500-success-body, http-503-then-200;
  // DESIGN §2). Neither version ties statuses to bodies (WIRE-FACTS §8.1): this is the table's policy.
  if (input.status < 200 || input.status > 299) {
    return createVerdict('HTTP_ERROR', `HTTP status ${input.status}`, { status: input.status });
  }
  // A request must be answered with JSON or SSE (T25 § Sending Messages to the Server, item 5;
  // SH26 § Sending Messages, item 6); 202 is for notifications and responses only (item 4). A
  // body-less 202/204 is an acknowledgement, not a malformed body: nothing answers the request
  // (WIRE-FACTS case 4).
  if (NO_CONTENT_STATUSES.has(input.status) && input.body === '') {
    return createVerdict('INVALID_ENVELOPE', `HTTP ${input.status} without a body: no JSON-RPC response to the request`);
  }
  const mediaType = readMediaType(input.contentType ?? input.headers['content-type']);
  if (mediaType === 'text/event-stream') return classifySseBody(context);
  // RFC 9110 §8.3: without a Content-Type the recipient MAY examine the data; the published
  // `{ status, body, expectedId }` shape has none, so an absent type is read as JSON.
  if (mediaType === undefined || mediaType === 'application/json' || mediaType.endsWith('+json')) {
    return classifyJsonBody(context);
  }
  // Any other type (text/html, text/plain, …) breaks the same MUST: whatever the bytes are,
  // they were not sent as a JSON-RPC response (WIRE-FACTS case 5).
  return createVerdict('INVALID_ENVELOPE', `Content-Type ${mediaType} is neither application/json nor text/event-stream`);
}

function classifyJsonBody(context: ClassifyContext): Verdict {
  const parsed = parseJsonText(context.input.body);
  if (!parsed.ok) {
    // A body cut short by the transport is an incomplete response, not a peer's malformed JSON
    // (B26 § Error Codes: local failures must not look like peer errors).
    if (context.input.transportError) {
      return createVerdict('STREAM_INCOMPLETE', `the body was cut short (${context.input.transportError.kind})`);
    }
    // An empty 200 body is "not JSON" too (WIRE-FACTS case 5).
    return createVerdict('MALFORMED_JSON', parsed.problem);
  }
  return classifyResponseMessage(parsed.value, context);
}

// The media type without parameters, lower-cased (RFC 9110 §8.3.1: type and subtype are
// case-insensitive). Content-Encoding is never consulted: the harness decodes it first.
function readMediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const mediaType = header.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === '' ? undefined : mediaType;
}
