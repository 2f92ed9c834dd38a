// The JSON-RPC message a case's scripted response carries, as the mock server writes it
// (with the id its id mode produces), and its schema results: what `results.json` reports
// for messages the server sent (sender "server").
import type { Case, ResponseSpec } from '../cases/case-types.js';
import { getResponseIdText, serializeMessage } from '../mock-server/serialize-message.js';
import type { ProtocolVersion, SchemaResult } from '../vocabulary/types.js';
import type { SchemaValidator } from './validator.js';

/** The message, or why there is none to check (no body, not JSON, no final SSE response). */
export type ScriptedMessage = { message: unknown } | { none: string };

/** Extracts the final JSON-RPC message of a scripted response, id included. */
export function getScriptedMessage(response: ResponseSpec, requestId: string | number = 1): ScriptedMessage {
  const body = response.body;
  if (!body) return { none: 'no body' };
  const id = getResponseIdText(response.id, requestId, true);
  if ('json' in body) return parseText(serializeMessage(body.json, id));
  if ('raw' in body) return parseText(body.raw);
  if ('base64' in body) return parseText(Buffer.from(body.base64, 'base64').toString('utf8'));
  const final = body.sse.events.findLast((event) => event.response);
  if (!final) return { none: 'the SSE stream carries no response event' };
  if (final.dataRaw !== undefined) return parseText(final.dataRaw);
  return parseText(serializeMessage(final.data, id));
}

/** Schema results of every scripted response of a case under one version (exchanges without JSON are skipped). */
export function checkScriptedResponses(validator: SchemaValidator, testCase: Case, version: ProtocolVersion): SchemaResult[] {
  return testCase.exchanges.flatMap((exchange, index) => {
    const scripted = getScriptedMessage(exchange.response, exchange.request?.id ?? 1);
    if ('none' in scripted) return [];
    const check = validator.checkResponseMessage(version, scripted.message);
    return [{ version, definition: check.definition, valid: check.valid, errors: check.errors, sender: 'server' as const, exchange: index }];
  });
}

function parseText(text: string): ScriptedMessage {
  try {
    return { message: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
  } catch {
    return { none: 'not JSON' };
  }
}
