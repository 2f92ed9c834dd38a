// Property-based attacks on the reference classifier, shared by the bounded CI test
// (classifier-fuzz.test.ts) and the long run (scripts/fuzz.ts).
import fc from 'fast-check';
import { classifyReference } from '../../runner/classify/reference.js';
import { checkResponseMessage } from '../../runner/schema-check/message-checks.js';
import type { SchemaValidator } from '../../runner/schema-check/index.js';
import { OUTCOMES, PROTOCOL_VERSIONS, type ClassifierInput, type ProtocolVersion, type Verdict } from '../../runner/vocabulary/types.js';
import { applyMutation, arbitraryMutation, type Mutation } from './json-mutation.js';

export interface NamedProperty {
  name: string;
  /** Synchronous, so fc.check returns its details directly. */
  property: fc.IProperty<unknown[]>;
}

// The properties have different argument tuples; the runner only needs to run them.
function erase<T extends unknown[]>(property: fc.IProperty<T>): fc.IProperty<unknown[]> {
  return property as unknown as fc.IProperty<unknown[]>;
}

const versionArb = fc.constantFrom<ProtocolVersion>(...PROTOCOL_VERSIONS);
const idArb: fc.Arbitrary<string | number> = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constantFrom(0, -1, 2 ** 53, 1.5, -0));
/** A response id of every JSON type (request ids are strings or numbers only). */
// RequestId is `string | integer` in both schemas.
const validIdArb: fc.Arbitrary<string | number> = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }));
const anyIdArb: fc.Arbitrary<unknown> = fc.oneof(idArb, fc.constant(null), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }));

const annotationsArb = fc.record({ audience: fc.subarray(['user', 'assistant']), priority: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: [] });
const contentBlockArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 20 }), annotations: annotationsArb }, { requiredKeys: ['type', 'text'] }),
  fc.record({ type: fc.constantFrom('image', 'audio'), data: fc.base64String({ maxLength: 12 }), mimeType: fc.constantFrom('image/png', 'audio/wav') }),
  fc.record({ type: fc.constant('resource_link'), uri: fc.constantFrom('file:///a.txt', 'https://example.com/x'), name: fc.string({ maxLength: 8 }) }),
  fc.record({ type: fc.constant('resource'), resource: fc.oneof(fc.record({ uri: fc.constant('file:///a'), text: fc.string({ maxLength: 8 }) }), fc.record({ uri: fc.constant('file:///b'), blob: fc.base64String({ maxLength: 8 }) })) }),
);
const objectArb = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });

/** A valid tools/call response payload: a CallToolResult, a JSON-RPC error, or (2026) an input_required result. */
function validPayloadArb(version: ProtocolVersion): fc.Arbitrary<Record<string, unknown>> {
  const toolResult = fc.record(
    {
      ...(version === '2026-07-28' ? { resultType: fc.constant('complete') } : {}),
      content: fc.array(contentBlockArb, { maxLength: 3 }),
      isError: fc.boolean(),
      structuredContent: objectArb,
      _meta: fc.constant({ 'example.com/trace': 'x' }),
    },
    { requiredKeys: version === '2026-07-28' ? ['resultType', 'content'] : ['content'] },
  );
  const error = fc.record({ code: fc.integer({ min: -32768, max: 32767 }), message: fc.string({ maxLength: 12 }), data: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ['code', 'message'] });
  const options: fc.Arbitrary<Record<string, unknown>>[] = [toolResult.map((result) => ({ result })), error.map((e) => ({ error: e }))];
  if (version === '2026-07-28') options.push(fc.string({ minLength: 1, maxLength: 8 }).map((state) => ({ result: { resultType: 'input_required', requestState: state } })));
  return fc.oneof(...options);
}

export interface MutatedCase {
  version: ProtocolVersion;
  id: string | number;
  original: Record<string, unknown>;
  mutation: Mutation;
}

/** A valid response for a random version and id, and one mutation of it. */
export const mutatedCaseArb: fc.Arbitrary<MutatedCase> = fc
  .tuple(versionArb, validIdArb)
  .chain(([version, id]) =>
    fc.record({
      version: fc.constant(version),
      id: fc.constant(id),
      original: validPayloadArb(version).map((payload) => ({ jsonrpc: '2.0', id, ...payload })),
      mutation: arbitraryMutation,
    }),
  );

// Raw bodies a hostile server can send: nothing here needs to be JSON.
const deepNestingArb = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a":'), fc.boolean()).map(([depth, open, closed]) => {
  const close = open === '[' ? ']' : '}';
  return `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"x":${open.repeat(depth)}1${closed ? close.repeat(depth) : ''}}}}`;
});
const hugeNumberArb = fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '1e-400', '9007199254740993', '0.1e99999').map(
  (n) => `{"jsonrpc":"2.0","id":${n},"result":{"content":[],"isError":false,"x":${n}}}`,
);
const invalidUtf8Arb = fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('utf8'));
const withNulArb = fc.tuple(fc.string({ maxLength: 40 }), fc.nat({ max: 40 })).map(([text, at]) => `${text.slice(0, at)}\u0000${text.slice(at)}`);

function rawBodyArb(): fc.Arbitrary<string> {
  const jsonish = fc.tuple(versionArb, anyIdArb).chain(([version, id]) => validPayloadArb(version).map((payload) => JSON.stringify({ jsonrpc: '2.0', id, ...payload })));
  return fc.oneof(
    jsonish,
    fc.tuple(jsonish, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
    deepNestingArb,
    hugeNumberArb,
    invalidUtf8Arb,
    withNulArb,
    fc.string({ maxLength: 200 }),
    fc.jsonValue().map((value) => JSON.stringify(value)),
  );
}

/** An SSE stream around some bodies, with random line ends, comments, ids, retry and a BOM before its bytes. */
const sseFramingArb = fc.record({
  lineEnd: fc.constantFrom('\n', '\r\n', '\r'),
  bom: fc.boolean(),
  comments: fc.boolean(),
  eventIds: fc.boolean(),
  retry: fc.boolean(),
  splitLines: fc.boolean(),
  explicitMessageEvent: fc.boolean(),
  priming: fc.boolean(),
});
export type SseFraming = typeof sseFramingArb extends fc.Arbitrary<infer T> ? T : never;

/** Frames each message (already JSON text) as one correct SSE event. */
export function frameSse(messages: string[], framing: SseFraming): string {
  const eol = framing.lineEnd;
  const lines: string[] = [];
  if (framing.priming) lines.push('id: prime', 'data:', '');
  messages.forEach((text, index) => {
    if (framing.comments) lines.push(': keep-alive');
    if (framing.retry) lines.push('retry: 1000');
    if (framing.eventIds) lines.push(`id: e${index}`);
    if (framing.explicitMessageEvent) lines.push('event: message');
    // Pretty-printed JSON splits at whitespace only, so joining the data lines with \n re-forms it.
    const dataLines = framing.splitLines ? JSON.stringify(JSON.parse(text), null, 1).split('\n') : [text];
    for (const line of dataLines) lines.push(`data: ${line}`);
    lines.push('');
  });
  return `${framing.bom ? '\uFEFF' : ''}${lines.join(eol)}${eol}`;
}

const headersArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }).map((name) => name.toLowerCase()), fc.string({ maxLength: 20 }), { maxKeys: 4 });
const contentTypeArb = fc.oneof(
  fc.constantFrom(undefined, 'application/json', 'text/event-stream', 'TEXT/EVENT-STREAM; charset=utf-8', 'text/html', '', ';', 'application/x+json'),
  fc.string({ maxLength: 30 }),
);
const statusArb = fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constantFrom(0, -1, 200, 202, 204, 299, 300, 999, 1.5, Number.NaN));
const transportErrorArb = fc.option(fc.record({ kind: fc.constantFrom('timeout', 'reset', 'refused', 'closed' as const), message: fc.string({ maxLength: 10 }) }), { nil: undefined });

/** Any classifier input at all, bodies raw or SSE-framed. */
export const hostileInputArb: fc.Arbitrary<ClassifierInput> = fc
  .record({
    status: statusArb,
    headers: headersArb,
    contentType: contentTypeArb,
    body: fc.oneof(rawBodyArb(), fc.tuple(fc.array(rawBodyArb(), { maxLength: 3 }), sseFramingArb).map(([bodies, framing]) => frameRaw(bodies, framing))),
    expectedId: idArb,
    protocolVersion: versionArb,
    transportError: transportErrorArb,
  })
  .map(({ transportError, ...fields }) => ({
    ...fields,
    bodyBytes: new TextEncoder().encode(fields.body),
    ...(transportError ? { transportError } : {}),
    request: { jsonrpc: '2.0' as const, id: fields.expectedId, method: 'tools/call' as const, params: { name: 'fuzz', arguments: {} } },
  }));

// Raw bodies are not always JSON, so they are framed as single data lines (newlines inside break framing on purpose).
function frameRaw(bodies: string[], framing: SseFraming): string {
  return frameSse(
    bodies.map((body) => body),
    { ...framing, splitLines: false },
  );
}

/**
 * Builds a classifier input around a body sent as UTF-8 bytes, decoded as the harness decodes them
 * (WHATWG "UTF-8 decode": a leading BOM, such as frameSse's, is dropped; only the first).
 */
export function makeInput(sent: string, options: { version: ProtocolVersion; id: string | number; contentType?: string; status?: number }): ClassifierInput {
  const contentType = options.contentType ?? 'application/json';
  const bodyBytes = new TextEncoder().encode(sent);
  return {
    status: options.status ?? 200,
    headers: { 'content-type': contentType },
    contentType,
    body: new TextDecoder().decode(bodyBytes),
    bodyBytes,
    expectedId: options.id,
    protocolVersion: options.version,
    request: { jsonrpc: '2.0', id: options.id, method: 'tools/call', params: { name: 'fuzz', arguments: {} } },
  };
}

/** Calls the classifier and checks the verdict is well-formed; returns it. */
export function classifySafely(input: ClassifierInput): Verdict {
  const verdict = classifyReference(input);
  if (!(OUTCOMES as readonly string[]).includes(verdict.outcome)) throw new Error(`unknown outcome ${String(verdict.outcome)}`);
  // The reference's catch-all turns an internal throw into a verdict; the fuzzer wants to see it.
  if (verdict.detail?.startsWith('classifier bug:')) throw new Error(verdict.detail);
  return verdict;
}

// Deliberate gap 1: the reference does not assert `format` (uri, byte), as OUTCOMES.md says;
// ajv-formats does. One edit that breaks a format also fails the oneOf around it (the other
// branches' errors are listed too), so any format error marks the edit as a format edit.
function isFormatOnly(errors: string[]): boolean {
  return errors.some((error) => /must match format/.test(error));
}

// Deliberate gap 2: B26 § ResultType tells clients to read an absent resultType as
// "complete" (legacy servers), while the 2026-07-28 schema requires the field.
function isAbsentResultType(version: ProtocolVersion, message: unknown): boolean {
  if (version !== '2026-07-28' || typeof message !== 'object' || message === null) return false;
  const result = (message as Record<string, unknown>).result;
  if (typeof result !== 'object' || result === null || 'resultType' in result) return false;
  // Only when putting "complete" back makes the message valid is the absence the whole problem.
  return absentResultTypeValidator?.({ ...message, result: { resultType: 'complete', ...result } }) ?? false;
}
let absentResultTypeValidator: ((message: unknown) => boolean) | undefined;

/** The classifier properties; `validator` enables the schema-invalid property. */
export function createClassifierProperties(validator: SchemaValidator | undefined): NamedProperty[] {
  const properties: NamedProperty[] = [
    {
      name: 'never throws and always returns one of OUTCOMES',
      property: erase(fc.property(hostileInputArb, (input) => void classifySafely(input))),
    },
    {
      name: 'deterministic: the same input gives the same verdict',
      property: erase(fc.property(hostileInputArb, (input) => {
        const first = JSON.stringify(classifySafely(input));
        const second = JSON.stringify(classifySafely(structuredClone(input)));
        if (first !== second) throw new Error(`${first} !== ${second}`);
      })),
    },
    {
      name: 'status precedence: a non-2xx status is HTTP_ERROR with that status',
      property: erase(fc.property(hostileInputArb, fc.integer({ min: 100, max: 999 }).filter((s) => s < 200 || s > 299), (input, status) => {
        const verdict = classifySafely({ ...input, status });
        if (verdict.outcome !== 'HTTP_ERROR' || verdict.status !== status) throw new Error(`status ${status} gave ${JSON.stringify(verdict)}`);
      })),
    },
    {
      name: 'SSE framing does not change the verdict of a single valid response',
      property: erase(fc.property(mutatedCaseArb, sseFramingArb, ({ version, id, original }, framing) => {
        const text = JSON.stringify(original);
        const asJson = classifySafely(makeInput(text, { version, id })).outcome;
        const asSse = classifySafely(makeInput(frameSse([text], framing), { version, id, contentType: 'text/event-stream' })).outcome;
        if (asJson !== asSse) throw new Error(`JSON ${asJson} vs SSE ${asSse}`);
      })),
    },
  ];
  if (validator) {
    absentResultTypeValidator = (message) => checkResponseMessage(validator, '2026-07-28', message).valid;
    properties.push({
      name: 'a mutation that makes the body schema-invalid is never TOOL_SUCCESS',
      property: erase(fc.property(mutatedCaseArb, ({ version, id, original, mutation }) => {
        // Some codes carry their own error shape (e.g. -32042 needs data); such originals are skipped.
        fc.pre(checkResponseMessage(validator, version, original).valid);
        const mutated = applyMutation(original, mutation);
        const check = checkResponseMessage(validator, version, mutated);
        const verdict = classifySafely(makeInput(JSON.stringify(mutated) ?? 'null', { version, id }));
        if (!check.valid && verdict.outcome === 'TOOL_SUCCESS' && !isFormatOnly(check.errors) && !isAbsentResultType(version, mutated)) {
          throw new Error(`schema-invalid (${check.errors.join('; ')}) but TOOL_SUCCESS: ${JSON.stringify(mutated)}`);
        }
      })),
    });
  }
  return properties;
}
