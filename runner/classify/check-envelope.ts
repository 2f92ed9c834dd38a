// The JSON-RPC 2.0 envelope of the message that should answer this request
// (B25/B26 § Messages, § Responses; WIRE-FACTS §3, S4).
import type { ProtocolVersion, Verdict } from '../vocabulary/types.js';
import { allowsBatching, hasUrlElicitationError } from '../vocabulary/version-features.js';
import { classifyToolResult } from './check-tool-result.js';
import { isPlainObject } from './json-value.js';
import type { ClassifyContext } from './rules.js';
import { createVerdict } from './verdict.js';

/** Classifies a parsed JSON message that should be the response to this request. */
export function classifyResponseMessage(message: unknown, context: ClassifyContext): Verdict {
  // One message per POST, no batching (T0618/T25 § Sending Messages to the Server, item 3; SH26
  // § Sending Messages, item 4): an array is not a JSONRPCMessage (S4), even if it holds our answer.
  // 2025-03-26 alone has batches, and receiving them is a MUST (LEGACY 2.1).
  if (Array.isArray(message)) {
    if (allowsBatching(context.input.protocolVersion)) {
      return classifyResponseBatch(message, context) ?? invalid(`the batch holds no response with id ${JSON.stringify(context.input.expectedId)}`);
    }
    return invalid('a JSON array (batch) instead of a single response');
  }
  if (!isPlainObject(message)) return invalid('the body is not a JSON object');
  if (message['jsonrpc'] !== '2.0') return invalid('jsonrpc is not "2.0"');
  if ('method' in message) return invalid('a request or notification instead of a response');
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  // JSON-RPC 2.0 § 5: exactly one of result and error. The MCP schema does not catch both (S4),
  // and the published case result-and-error expects INVALID_ENVELOPE.
  if (hasResult && hasError) return invalid('both result and error');
  if (!hasResult && !hasError) return invalid('neither result nor error');
  // `"id": null` is schema-invalid in MCP (S4). An error without id is schema-valid, but only
  // allowed when the request id could not be read (B25/B26 § Error Responses); ours was
  // readable, so either way this message does not answer our request.
  const id = message['id'];
  if (id === undefined || id === null) return invalid(`the response has ${id === null ? 'a null' : 'no'} id`);
  if (!context.rules.matchesId(id, context.input.expectedId)) {
    return invalid(`response id ${JSON.stringify(id)} does not match request id ${JSON.stringify(context.input.expectedId)}`);
  }
  if (hasError) return classifyErrorObject(message['error'], context.input.protocolVersion);
  return classifyToolResult(message['result'], context);
}

/**
 * A 2025-03-26 batch that should hold this request's response: non-empty, responses only
 * (S0326 JSONRPCBatchResponse; a mixed or empty array answers nothing, LEGACY 2.3–2.4, D1), and
 * the member with our id decides. A member answering another id is ignored (it answered some
 * other request of the batch, LEGACY case 5). Undefined when a well-formed batch holds no
 * response with our id: the caller decides what that means (a JSON body: invalid; SSE: keep looking).
 */
export function classifyResponseBatch(batch: unknown[], context: ClassifyContext): Verdict | undefined {
  if (batch.length === 0) return invalid('an empty batch answers nothing');
  if (!batch.every((member) => isPlainObject(member) && !('method' in member))) {
    return invalid('a batch that is not made of responses only (2025-03-26 batches are homogeneous)');
  }
  const ours = batch.find((member) => context.rules.matchesId((member as Record<string, unknown>)['id'], context.input.expectedId));
  return ours === undefined ? undefined : classifyResponseMessage(ours, context);
}

// ST25/ST26 Error: `code` an integer (MUST), `message` a string; `data` optional, any type (S4).
function classifyErrorObject(error: unknown, version: ProtocolVersion): Verdict {
  if (!isPlainObject(error)) return invalid('error is not an object');
  const { code, message } = error;
  if (!Number.isInteger(code)) return invalid('error.code is not an integer');
  if (typeof message !== 'string') return invalid('error.message is not a string');
  // SJ25 URLElicitationRequiredError (LEGACY 2.12, D17): in 2025-11-25 -32042 requires
  // data.elicitations, the URLs to send the user to; before, it is just a server-range code
  // (JR § 5.1), and 2026-07-28 retired it. Without them the error cannot be acted on (strict).
  if (code === -32042 && hasUrlElicitationError(version)) {
    const problem = checkUrlElicitations(error['data']);
    if (problem !== undefined) return invalid(`error -32042 (URL elicitation required): ${problem}`);
  }
  return createVerdict('JSONRPC_ERROR', `JSON-RPC error ${String(code)}: ${message}`, { code: code as number });
}

// SJ25 URLElicitationRequiredError.data: { elicitations: ElicitRequestURLParams[] }, each with
// mode "url" and string elicitationId, message and url.
function checkUrlElicitations(data: unknown): string | undefined {
  if (!isPlainObject(data)) return 'data is missing or not an object';
  const elicitations = data['elicitations'];
  if (!Array.isArray(elicitations)) return 'data.elicitations is missing or not an array';
  for (const [index, item] of elicitations.entries()) {
    const valid = isPlainObject(item) && item['mode'] === 'url' && ['elicitationId', 'message', 'url'].every((key) => typeof item[key] === 'string');
    if (!valid) return `data.elicitations[${index}] is not URL elicitation params (mode "url", elicitationId, message, url)`;
  }
  return undefined;
}

function invalid(detail: string): Verdict {
  return createVerdict('INVALID_ENVELOPE', detail);
}
