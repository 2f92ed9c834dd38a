// The case-file format as TypeScript types. `schemas/case.schema.json` is the source
// of truth; the loader's ajv guard is what turns `unknown` into `Case`.
import { deepFreeze } from '../util/deep-freeze.js';
import type { CheckLevel, Consequence, ExpectedVerdict, Outcome, ProtocolVersion } from '../vocabulary/vocabulary.js';

export const CASE_LAYERS = ['transport', 'protocol', 'application', 'stream', 'interaction', 'session'] as const;
export type CaseLayer = (typeof CASE_LAYERS)[number];

export const CASE_ORIGINS = ['article', 'spec', 'extra'] as const;
export type CaseOrigin = (typeof CASE_ORIGINS)[number];

export interface SpecRef {
  ref: string;
  url?: string;
  version?: ProtocolVersion;
}

export interface ToolSpec {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  arguments?: Record<string, unknown>;
}

export interface ServerSpec {
  sessionId?: boolean;
  initializeVersion?: string;
  get?: '405' | 'resume';
  expireSessionAfterCalls?: number;
}

export type IdMode = 'echo' | 'omit' | 'null' | 'as-string' | 'as-number' | 'as-float' | { literal: unknown };

export interface SseEvent {
  comment?: string;
  event?: string;
  id?: string;
  retry?: number;
  data?: unknown;
  dataRaw?: string;
  multiline?: boolean;
  response?: boolean;
  /** The data gets the exchange's response id too, though the event is not the response (a duplicate answer). */
  responseId?: boolean;
  delayMs?: number;
  awaitReply?: boolean;
  /** Left out of the POST stream; replayed only on a GET that resumes after an earlier event id. */
  resumeOnly?: boolean;
}

export interface SseBody {
  events: SseEvent[];
  end?: 'close' | 'reset' | 'hang';
  lineEnding?: 'lf' | 'crlf' | 'cr';
}

export type BodySpec = { json: unknown } | { raw: string } | { base64: string } | { sse: SseBody };

export interface ResponseSpec {
  status?: number;
  headers?: Record<string, string>;
  contentType?: string | null;
  id?: IdMode;
  body?: BodySpec;
  /** Prefix the body with a UTF-8 byte order mark (true or 1), or with this many. */
  bom?: boolean | number;
  contentEncoding?: 'gzip';
  delayMs?: number;
  start?: 'normal' | 'hang' | 'reset';
}

export type VersionValidity = Partial<Record<ProtocolVersion, boolean>>;

/**
 * Another reading the spec allows for one exchange: a target that concludes it fails only at
 * `level`, never a MUST. Without a spec reference there is no alternative (case.schema.json).
 */
export interface AlternativeVerdict extends ExpectedVerdict {
  level: 'SHOULD' | 'POLICY' | 'INFO';
  spec: SpecRef[];
  /** What the spec leaves open, in a sentence. */
  why: string;
  /**
   * What concluding it costs, when not what the outcomes' recovery says (never in a case file: only
   * the alternative derived from a serverFault sets it, to `imprecise`).
   */
  consequence?: Consequence;
}

/**
 * A fault of the server's alone (case.schema.json `serverFault`): the result the server sent is
 * accepted beside the strict expectation (runner/judge/server-fault.ts states how).
 */
export interface ServerFault {
  /** The server's duty the response breaks, in plain words. */
  rule: string;
  ref: string;
  /** The client's SHOULD to detect it, if the specification gives one. */
  clientShould?: { rule: string; ref: string };
  /** The result the server sent: what a client that does not look for the fault concludes. */
  result: ExpectedVerdict;
  /** Where it is a fault (default: every version of the case). */
  versions?: ProtocolVersion[];
}

export interface ExchangeSpec {
  note?: string;
  request?: { id?: string | number; followUp?: boolean };
  response: ResponseSpec;
  expect: ExpectedVerdict;
  alternatives?: AlternativeVerdict[];
  expectByVersion?: Partial<Record<ProtocolVersion, ExpectedVerdict>>;
  schemaValid?: VersionValidity;
  /** The prose rule that overrides the schema where this exchange expects an answer of a schema-invalid message. */
  schemaOverride?: SchemaOverride;
  serverFault?: ServerFault;
}

export interface SchemaOverride {
  /** The rule in a sentence. */
  rule: string;
  /** Its reference (WIRE-FACTS alias). */
  ref: string;
}

export const WIRE_RULES = ['tool-call-posts', 'retry-after', 'retry-backoff', 'mrtr-follow-up', 'reissue-new-id', 'no-request-after-final'] as const;
export type WireRuleName = (typeof WIRE_RULES)[number];

export interface WireRule {
  rule: WireRuleName;
  level: CheckLevel;
  min?: number;
  max?: number;
  versions?: ProtocolVersion[];
  why?: string;
}

export interface ClientExpectation {
  calls?: number;
  outcome?: ExpectedVerdict;
  outcomeByVersion?: Partial<Record<ProtocolVersion, ExpectedVerdict>>;
  outcomeLevel?: CheckLevel;
  wire?: WireRule[];
}

export interface Case {
  $schema?: string;
  id: string;
  title: string;
  layer: CaseLayer;
  origin: CaseOrigin;
  description: string;
  expectation?: string;
  policy?: string;
  spec: SpecRef[];
  versions: ProtocolVersion[];
  tool?: ToolSpec;
  server?: ServerSpec;
  counts?: 'tools/call' | 'every-post';
  afterScript?: 'repeat-last' | 'baseline';
  exchanges: ExchangeSpec[];
  client?: ClientExpectation;
}

/** A case as loaded: the parsed file plus where it came from. */
export interface LoadedCase {
  case: Case;
  file: string;
  /** Path relative to the cases root, with forward slashes. */
  relativeFile: string;
  sha256: string;
}

export const DEFAULT_TOOL: Required<Pick<ToolSpec, 'name' | 'inputSchema' | 'arguments'>> = deepFreeze({
  name: 'synthetic_tool',
  inputSchema: { type: 'object', properties: { input: { type: 'string' } } },
  arguments: { input: 'synthetic' },
});

/** The verdict a case expects for one exchange under one version. */
export function getExpectedVerdict(exchange: ExchangeSpec, version: ProtocolVersion): ExpectedVerdict {
  return exchange.expectByVersion?.[version] ?? exchange.expect;
}

export type { Outcome };
