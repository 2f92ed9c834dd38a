// The pipeline contract: the values that cross module boundaries.
// Private shapes stay in the module that owns them.
import type { Dispatcher } from 'undici';
import type { Case } from '../cases/case-types.js';
import type { Recording } from './recording-types.js';
import type { CheckLevel, Conclusion, Consequence, ErrorKind, ExpectedVerdict, Outcome, ProtocolVersion, RerunReason, TimedProcess } from './vocabulary.js';

export { PROTOCOL_VERSIONS, type ProtocolVersion } from './vocabulary.js';

export { OUTCOMES, type Outcome } from './vocabulary.js';

export const VERDICT_LAYERS = ['transport', 'protocol', 'application', 'interaction'] as const;
export type VerdictLayer = (typeof VERDICT_LAYERS)[number];

/** The layer each outcome belongs to; a verdict's `layer` must agree with it. */
export const OUTCOME_LAYER: Record<Outcome, VerdictLayer> = {
  TOOL_SUCCESS: 'application',
  TOOL_ERROR: 'application',
  HTTP_ERROR: 'transport',
  JSONRPC_ERROR: 'protocol',
  INPUT_REQUIRED: 'interaction',
  MALFORMED_JSON: 'protocol',
  INVALID_ENVELOPE: 'protocol',
  INVALID_TOOL_RESULT: 'protocol',
  STREAM_INCOMPLETE: 'transport',
  NO_RESPONSE: 'transport',
};

/** How a caller may recover: may it replay the same call? */
export const REPLAY_ADVICE = [
  'no',
  'if_idempotent',
  'after_fixing_arguments',
  'follow_up',
  'reissue_if_idempotent',
] as const;
export type ReplayAdvice = (typeof REPLAY_ADVICE)[number];

export interface Recovery {
  /** A final result for this request exists (success or tool error). */
  hasFinalResult: boolean;
  replay: ReplayAdvice;
}

/** What a target concluded about one exchange. */
export interface Verdict {
  outcome: Outcome;
  layer: VerdictLayer;
  /** HTTP status, for HTTP_ERROR. */
  status?: number;
  /** JSON-RPC error code, for JSONRPC_ERROR. */
  code?: number;
  /** Free text: why the target concluded this. */
  detail?: string;
  recovery?: Recovery;
}

/** The JSON-RPC request the response answers (as sent on the wire). */
export interface ToolCallRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: 'tools/call';
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown>; [k: string]: unknown };
}

export type TransportErrorKind = 'timeout' | 'reset' | 'refused' | 'closed';

/**
 * What a classifier target receives for one exchange. A superset of the published
 * `{ status, body, expectedId }` shape, so classifiers written for it plug in unchanged.
 */
export interface ClassifierInput {
  /** HTTP status; 0 when no status line arrived. */
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  contentType: string | undefined;
  /**
   * The body as WHATWG `Response.text()` gives it: gzip decoded, then UTF-8 decoded with one leading
   * BOM dropped and invalid sequences as U+FFFD (for SSE, the whole stream as received).
   */
  body: string;
  /** The body's bytes as `Response.arrayBuffer()` gives them (gzip decoded, a BOM still there); a Uint8Array in a worker too. */
  bodyBytes: Uint8Array;
  expectedId: string | number;
  protocolVersion: ProtocolVersion;
  request: ToolCallRequest;
  /** The `outputSchema` the server advertised for the called tool (2025-06-18 on), when it declared one. */
  outputSchema?: Record<string, unknown>;
  /** Set when the transport failed (no status, or the body was cut short). */
  transportError?: { kind: TransportErrorKind; message: string };
}

export type Classifier = (input: ClassifierInput) => unknown;

/**
 * The input shape the published article's classifiers take: `{ status, body, expectedId }`, any other
 * ClassifierInput field optional. The reference classifier accepts it on its own (no headers: the
 * body is read as JSON; no protocolVersion: 2026-07-28, the version all eleven published cases apply to).
 */
export type PublishedClassifierInput = Pick<ClassifierInput, 'status' | 'body' | 'expectedId'> & Partial<ClassifierInput>;

export type { RecordedExchange, RecordedRequest, RecordedResponse, Recording } from './recording-types.js';

/** Schema check of one message against one pinned version. */
export interface SchemaResult {
  version: ProtocolVersion;
  /** The definition the message was checked against, e.g. `CallToolResult`. */
  definition: string;
  valid: boolean;
  errors: string[];
  /** Who sent the message: the mock server (from the case script) or the target. */
  sender: 'server' | 'target';
  exchange: number;
}

export { CHECK_LEVELS, type CheckLevel } from './vocabulary.js';

/** One judged expectation. The id is stable whether it passes or fails. */
export interface Check {
  id: string;
  level: CheckLevel;
  passed: boolean;
  expected: unknown;
  actual: unknown;
  message: string;
  /** Index of the exchange the check is about, when it is about one. */
  exchange?: number;
  /** On a failed outcome check: what the mismatch costs the caller (vocabulary.ts CONSEQUENCES). */
  consequence?: Consequence;
}

export const CELL_STATUSES = ['pass', 'fail', 'non_strict', 'skip', 'error', 'xfail', 'xpass'] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

/** One case × protocol version × target. */
export interface Cell {
  case: string;
  target: string;
  protocolVersion: ProtocolVersion;
  status: CellStatus;
  /** Why the cell is skip or error, or which baseline entry made it xfail. */
  reason?: string;
  checks: Check[];
  /** What the case expects, one entry per exchange. */
  expected: ExpectedVerdict[];
  /** What the target concluded, one entry per exchange; null where it reported nothing. */
  actual: (Verdict | null)[];
  schema: SchemaResult[];
  recording?: Recording;
  targetRun?: TargetRunInfo;
  /** Where a judged cell's conclusion came from (docs/targets.md § Your own client: command targets); absent on skip/error cells. */
  conclusion?: Conclusion;
  /** On an `error` cell, the named cause (vocabulary.ts ERROR_KINDS), when it has one. */
  errorKind?: ErrorKind;
  /** What a built-in client library did, before any mapping (docs/adapter-observation.md). */
  observed?: CellObservation;
  /** How starved each process that timed the cell was, and whether it was run again (docs/running.md). */
  timing?: CellTiming;
  durationMs: number;
  repro: string;
}

export { ERROR_KINDS, type ErrorKind, TIMED_PROCESSES, type TimedProcess, RERUN_REASONS, type RerunReason } from './vocabulary.js';

/**
 * What a client library did with one cell (docs/adapter-observation.md): one record per explicit
 * call, as runner/targets/sdk/observe-call.mjs writes it (capped plain JSON, read-only here), and
 * the tools/call requests it sent, its own retries and re-sends included.
 */
export interface CellObservation {
  calls: CallObservation[];
  toolCallsSent: number;
}

/** One call: it returned, threw (`hostAborted`: only after the host's last-resort abort), or never settled. */
export type CallObservation = { returned: unknown } | { threw: ThrownRecord; hostAborted?: true } | { hung: { afterMs: number } };

/** An error as observe-call.mjs records it. */
export interface ThrownRecord {
  class: string;
  name: string;
  message: string;
  instanceOf?: string[];
  code?: string | number;
  status?: number;
  data?: unknown;
  issues?: unknown;
  properties?: Record<string, unknown>;
  cause?: ThrownRecord;
  value?: unknown;
}

/** How much one process that timed a cell was starved over the cell (runner/starvation/). */
export interface ProcessStarvation {
  process: TimedProcess;
  /** How long it was watched for this cell, ms. */
  windowMs: number;
  /** Time it was runnable but waited for a CPU (Linux schedstat); a client's: its most starved process. */
  cpuWaitMs?: number;
  /** Time its event loop stood still, in stalls of 100 ms or more each (Node processes). */
  stalledMs?: number;
  /** Its longest single stall of the event loop, when one reached 100 ms. */
  longestStallMs?: number;
  /** The runner's: the part of stalledMs while its mock server had an answer of the cell to send (runner/starvation/answer-windows.ts). */
  stalledWhileDueMs?: number;
  /** Past the threshold (runner/starvation/judge-starvation.ts). */
  starved?: true;
}

export interface CellTiming {
  /** A deadline produced the outcome: a NO_RESPONSE or STREAM_INCOMPLETE verdict, a client killed at its time limit, a timeout error. */
  deadlineBound?: true;
  processes: ProcessStarvation[];
  /** Set on a cell run again after the main pass: why, how many runs it got in all, and whether the result kept is a measured one. */
  rerun?: { reason: RerunReason; runs: number; confirmed: boolean };
}

export type { ExpectedVerdict } from './vocabulary.js';

export { CONCLUSIONS, type Conclusion } from './vocabulary.js';

export interface TargetRunInfo {
  exitCode?: number | null;
  signal?: string | null;
  timedOut: boolean;
  /** The process died of a signal the runner did not send. */
  crashed?: boolean;
  /** Output beyond the capture cap was cut (a note marks where). */
  outputTruncated?: boolean;
  stdout?: string;
  stderr?: string;
  durationMs: number;
}

export interface TargetInfo {
  name: string;
  kind: string;
  version?: string;
  /** The file or package the target was loaded from, for receipts. */
  source?: string;
  /** The wire implementation a client target runs on (e.g. "official TypeScript SDK"); reports group targets by it. */
  stack?: string;
}

export interface CaseSummary {
  id: string;
  title: string;
  layer: string;
  origin: string;
  description: string;
  expectation?: string;
  policy?: string;
  spec: { ref: string; url?: string; version?: ProtocolVersion }[];
  /** Path relative to the cases root, with forward slashes. */
  file: string;
  /** SHA-256 of the case file's bytes. */
  sha256: string;
  versions: ProtocolVersion[];
}

export interface RunResult {
  format: 'mcp-error-matrix/results@1';
  tool: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  complete: boolean;
  mode: 'http' | 'direct';
  node: string;
  platform: string;
  schemas: SchemaInfo[] | null;
  cases: CaseSummary[];
  targets: TargetInfo[];
  cells: Cell[];
  summary: RunSummary;
  /** Targets that got no measured cell (every cell skipped, or none planned): the run is not green. */
  unmeasured?: UnmeasuredTarget[];
  /** Cells run again after the main pass to confirm a timing-bound outcome (docs/running.md); absent when none was. */
  reruns?: RerunSummary;
  /** How many cells ran at once: where the run started, how far it backed off, and whether --concurrency pinned it. */
  concurrency?: ConcurrencyInfo;
}

export interface RerunSummary {
  /** Cells run again. */
  cells: number;
  /** Of those, cells whose result is now a measured one. */
  confirmed: number;
  /** Cells run again per reason (the first reason a cell had). */
  byReason: Partial<Record<RerunReason, number>>;
}

export interface ConcurrencyInfo {
  start: number;
  /** The lowest it backed off to. */
  lowest: number;
  /** Times it backed off because cells were starved. */
  backoffs: number;
  /** Set by --concurrency N: it did not adapt. */
  pinned: boolean;
}

export interface UnmeasuredTarget {
  target: string;
  reason: string;
}

export interface SchemaInfo {
  version: ProtocolVersion;
  source: string;
  sha256: string;
  matchesPin: boolean;
}

export type RunSummary = Record<CellStatus, number> & {
  total: number;
  /** Passing cells whose conclusion came from the client's exit status alone (no verdict). */
  pass_exit_status?: number;
  /** Passing cells judged on the wire alone (the client exited 0 without a verdict). */
  pass_wire_only?: number;
};

/** Everything a target needs to run one cell. */
export interface TargetContext {
  /** The case, already validated. */
  case: Case;
  protocolVersion: ProtocolVersion;
  mode: 'http' | 'direct';
  /** The mock server's MCP endpoint, when the target uses one (see Target.usesServer). */
  serverUrl?: string;
  /** Keep-alive connections to serverUrl's origin shared with other cells, when the case leaves them reusable (built-in harness only). */
  connections?: Dispatcher;
  /** Per-cell time budget in milliseconds. */
  timeoutMs: number;
  /**
   * Aborted when the run is interrupted or the cell's budget runs out. Valid for this cell only: once
   * the cell is over, a signal that was neither aborted nor left with an abort listener serves a later
   * cell of the run (runner/run/cell-signal.ts), so a target must not read it after its cell.
   */
  signal: AbortSignal;
}

/** What a target did for one cell, before judging. Errors are data here, never thrown. */
export interface TargetOutcome {
  /** The target's conclusion per exchange (classifiers) or per explicit call (clients); null = not reported. */
  verdicts: (Verdict | null)[];
  /** The raw conclusion, when it could not be read as a verdict. */
  invalidVerdicts?: { index: number; value: unknown; problem: string }[];
  /** Process facts, for targets that run a process. */
  run?: TargetRunInfo;
  /** The harness or the target broke: the cell is `error`, not judged. */
  error?: string;
  /** The target cannot run this cell (e.g. protocol version unsupported): the cell is `skip`. */
  skip?: string;
  /** With `error`: its named cause (an adapter gap, a runner deadline, starvation, a target that could not start, a stop from outside). */
  errorKind?: ErrorKind;
  /** What a built-in client library did, before any mapping (`toolCallsSent` absent: the runner counts the recording's). */
  observed?: Omit<CellObservation, 'toolCallsSent'> & { toolCallsSent?: number };
  /** How starved the target's own processes were over the cell (a worker's, a client's), where measured. */
  starvation?: ProcessStarvation[];
}

/** One kind of target: an in-process classifier, a client process, a built-in adapter. */
export interface Target {
  readonly info: TargetInfo;
  /** Whether this target talks to the mock server in the given mode. */
  usesServer(mode: 'http' | 'direct'): boolean;
  /** A reason to skip the version, or undefined when the target speaks it. */
  skipReason?(version: ProtocolVersion): string | undefined;
  run(context: TargetContext): Promise<TargetOutcome>;
  /** The target's own time limit for a cell (e.g. `command:… #timeout=MS`); it raises the cell budget up to a ceiling. */
  getCellLimitMs?(context: Pick<TargetContext, 'timeoutMs' | 'case'>): number | undefined;
  /** Release long-lived resources (worker processes, caches). */
  close?(): Promise<void>;
  /** It starts a process per cell (CPU-bound start-up): the default concurrency stays low (options.ts). */
  readonly startsProcessPerCell?: boolean;
  /** Its cells cost the CPU several times what the other clients' do (mastra): the default concurrency stays low too. */
  readonly cpuBoundCells?: boolean;
}
export { CONSEQUENCES, type Consequence } from './vocabulary.js';
