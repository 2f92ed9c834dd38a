// Which definitions a wire message is checked against, per version. Responses dispatch on
// `resultType` before anything else: the 2026-07-28 CallToolResultResponse union accepts
// `{"resultType":"complete"}` without content through its InputRequiredResult branch
// (WIRE-FACTS S3, §8.4), so validating against the union alone would pass broken results.
import type { ProtocolVersion } from '../vocabulary/types.js';
import { capErrors } from './format-errors.js';
import type { DefinitionValidator } from './definition-validator.js';

export type MessageKind = 'request' | 'notification' | 'response' | 'unknown';

/** A message checked under one version: the definitions used, the verdict and readable errors. */
export interface MessageCheck {
  version: ProtocolVersion;
  kind: MessageKind;
  /** The definitions checked, joined with ` + `, e.g. `JSONRPCResultResponse + CallToolResult`. */
  definition: string;
  definitions: string[];
  valid: boolean;
  errors: string[];
  /** Facts the schema cannot express (union looseness, fields JSON-RPC forbids but the schema allows). */
  notes: string[];
}

const MAX_ERRORS = 8;

/** Checks a tools/call response: JSON-RPC error, CallToolResult or InputRequiredResult. */
export function checkResponseMessage(validator: DefinitionValidator, version: ProtocolVersion, message: unknown): MessageCheck {
  const check = startCheck(version, 'response');
  if (!isRecord(message)) {
    if (Array.isArray(message)) check.notes.push('a JSON array (batch) is not a single JSON-RPC message');
    return run(validator, check, [['JSONRPCMessage', '', message]]);
  }
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  const envelope = getEnvelopeNames(validator, version);
  if (hasError && !hasResult) return run(validator, check, [[getErrorDefinition(validator, version, message.error), '', message]]);
  if (!hasResult) {
    check.kind = getMessageKind(message);
    check.notes.push('neither result nor error: not a JSON-RPC response');
    return run(validator, check, [['JSONRPCResponse', '', message]]);
  }
  if (hasError) check.notes.push('carries both result and error: JSON-RPC 2.0 forbids it, the schema does not (WIRE-FACTS S4)');
  const result = message.result;
  const resultType = isRecord(result) ? result.resultType : undefined;
  if (!validator.hasDefinition(version, 'InputRequiredResult')) {
    // Before 2026-07-28 there is no resultType: every tools/call result is a CallToolResult (Result allows extra fields).
    if (resultType !== undefined) check.notes.push(`resultType is not a ${version} field (Result allows extra fields); checked as CallToolResult`);
    return run(validator, check, [[envelope.result, '', message], ['CallToolResult', '/result', result]]);
  }
  if (resultType === 'input_required') {
    if (isRecord(result) && !('inputRequests' in result) && !('requestState' in result)) {
      check.notes.push('neither inputRequests nor requestState: the spec requires one, the schema does not (WIRE-FACTS S3)');
    }
    return run(validator, check, [[envelope.result, '', message], ['InputRequiredResult', '/result', result]]);
  }
  if (resultType === undefined || resultType === 'complete' || typeof resultType !== 'string') {
    return run(validator, check, [[envelope.result, '', message], ['CallToolResult', '/result', result]]);
  }
  check.notes.push(
    `resultType ${JSON.stringify(resultType)} is neither "complete" nor "input_required"; the schema accepts any string, ` +
      'so this is only checked against the CallToolResultResponse union, which is looser than the spec (WIRE-FACTS §8.4)',
  );
  return run(validator, check, [['CallToolResultResponse', '', message]]);
}

/** Checks a message a client sent: tools/call (also the MRTR follow-up), initialize, notifications, responses. */
export function checkRequestMessage(validator: DefinitionValidator, version: ProtocolVersion, message: unknown): MessageCheck {
  const kind = getMessageKind(message);
  const envelope = getEnvelopeNames(validator, version);
  if (kind === 'response') {
    const check = startCheck(version, kind);
    check.notes.push(
      version !== '2026-07-28'
        ? 'a client response to a server request; its result is checked only as Result'
        : 'a 2026-07-28 client MUST NOT send responses (SH26 § Sending Messages)',
    );
    const isError = isRecord(message) && 'error' in message && !('result' in message);
    return run(validator, check, [[isError ? envelope.error : envelope.anyResponse, '', message]]);
  }
  if (!isRecord(message) || typeof message.method !== 'string') {
    const check = startCheck(version, kind);
    if (Array.isArray(message)) check.notes.push('a JSON array (batch) is not a single JSON-RPC message');
    return run(validator, check, [['JSONRPCMessage', '', message]]);
  }
  const check = startCheck(version, kind);
  const method = message.method;
  const params = isRecord(message.params) ? message.params : undefined;
  if (method === 'tools/call' && params && ('inputResponses' in params || 'requestState' in params)) {
    check.notes.push(
      version !== '2026-07-28'
        ? `inputResponses/requestState are 2026-07-28 fields; ${version} params accept them as extra fields`
        : 'MRTR follow-up (inputResponses/requestState)',
    );
  }
  const definition = getDerivedMaps(validator, version).methods.get(method);
  // Before 2025-11-25 the per-method definitions hold only method and params (WIRE-FACTS-LEGACY
  // §8.13, P13): the message is checked against the envelope as well.
  if (definition && !isCompleteMessage(validator, version, definition)) {
    return run(validator, check, [[check.kind === 'notification' ? 'JSONRPCNotification' : 'JSONRPCRequest', '', message], [definition, '', message]]);
  }
  if (definition) return run(validator, check, [[definition, '', message]]);
  check.notes.push(`method ${JSON.stringify(method)} is not defined in ${version}`);
  return run(validator, check, [[check.kind === 'notification' ? 'JSONRPCNotification' : 'JSONRPCRequest', '', message]]);
}

/** Request, notification or response, from the members present. */
export function getMessageKind(message: unknown): MessageKind {
  if (!isRecord(message)) return 'unknown';
  if (typeof message.method === 'string') return 'id' in message ? 'request' : 'notification';
  if ('result' in message || 'error' in message) return 'response';
  return 'unknown';
}

type Step = [definition: string, prefix: string, value: unknown];

function run(validator: DefinitionValidator, check: MessageCheck, steps: Step[]): MessageCheck {
  const errors: string[] = [];
  for (const [definition, prefix, value] of steps) {
    const result = validator.validateDefinition(check.version, definition, value);
    check.definitions.push(definition);
    errors.push(...result.errors.filter((e) => !e.startsWith('… and')).map((e) => (prefix ? prefixError(prefix, e) : e)));
  }
  const unique = [...new Set(errors)];
  return { ...check, definition: check.definitions.join(' + '), valid: unique.length === 0, errors: capErrors(unique, MAX_ERRORS) };
}

function startCheck(version: ProtocolVersion, kind: MessageKind): MessageCheck {
  return { version, kind, definition: '', definitions: [], valid: true, errors: [], notes: [] };
}

function prefixError(prefix: string, line: string): string {
  return line.startsWith('/: ') ? `${prefix}${line.slice(1)}` : `${prefix}${line}`;
}

interface DerivedMaps {
  /** method → request/notification definition. */
  methods: Map<string, string>;
  /** JSON-RPC error code → error response definition. */
  errorCodes: Map<number, string>;
}

const derivedCache = new WeakMap<DefinitionValidator, Map<ProtocolVersion, DerivedMaps>>();

// Read from the schema itself, so a new pin needs no table here: requests and notifications
// by `properties.method.const` (skipping the Client*/Server* unions that repeat a member's
// const); error responses by the `code` const inside `properties.error.allOf`.
function getDerivedMaps(validator: DefinitionValidator, version: ProtocolVersion): DerivedMaps {
  let perVersion = derivedCache.get(validator);
  if (!perVersion) derivedCache.set(validator, (perVersion = new Map()));
  const known = perVersion.get(version);
  if (known) return known;
  const maps: DerivedMaps = { methods: new Map(), errorCodes: new Map() };
  for (const name of validator.listDefinitions(version)) {
    const properties = getRecord(getRecord(validator.getDefinitionSchema(version, name))?.properties);
    if (!properties) continue;
    const method = getRecord(properties.method)?.const;
    if (typeof method === 'string' && /(Request|Notification)$/.test(name) && !/^(Client|Server)/.test(name) && !maps.methods.has(method)) {
      maps.methods.set(method, name);
    }
    const parts = getRecord(properties.error)?.allOf;
    for (const part of Array.isArray(parts) ? parts : []) {
      const code = getRecord(getRecord(getRecord(part)?.properties)?.code)?.const;
      if (typeof code === 'number') maps.errorCodes.set(code, name);
    }
  }
  perVersion.set(version, maps);
  return maps;
}

// Error responses with a code the version defines a shape for (2026: -32020/-32021/-32022;
// 2025: -32042) are checked against that shape, whose `data` may be required (WIRE-FACTS S6).
function getErrorDefinition(validator: DefinitionValidator, version: ProtocolVersion, error: unknown): string {
  const code = getRecord(error)?.code;
  return (typeof code === 'number' && getDerivedMaps(validator, version).errorCodes.get(code)) || getEnvelopeNames(validator, version).error;
}

interface EnvelopeNames {
  /** A success response. */
  result: string;
  /** An error response. */
  error: string;
  /** Either kind. */
  anyResponse: string;
}

// WIRE-FACTS-LEGACY 2.14: 2025-03-26/2025-06-18 call the success response JSONRPCResponse and the
// error response JSONRPCError; 2025-11-25 renamed them and made JSONRPCResponse the union of both.
function getEnvelopeNames(validator: DefinitionValidator, version: ProtocolVersion): EnvelopeNames {
  if (validator.hasDefinition(version, 'JSONRPCResultResponse')) {
    return { result: 'JSONRPCResultResponse', error: 'JSONRPCErrorResponse', anyResponse: 'JSONRPCResponse' };
  }
  return { result: 'JSONRPCResponse', error: 'JSONRPCError', anyResponse: 'JSONRPCMessage' };
}

// A definition that requires `jsonrpc` describes a whole message; the legacy ones describe method + params.
function isCompleteMessage(validator: DefinitionValidator, version: ProtocolVersion, definition: string): boolean {
  const required = getRecord(validator.getDefinitionSchema(version, definition))?.required;
  return Array.isArray(required) && required.includes('jsonrpc');
}

function getRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
