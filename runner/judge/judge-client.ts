// Judges a real client (a command or an SDK adapter) on what it did on the wire and what it
// reported. Pure: the case, the version, the target's outcome and the recording go in, checks
// and the request schema results come out.
import type { Case } from '../cases/case-types.js';
import type { Check, Conclusion, ExpectedVerdict, ProtocolVersion, Recording, SchemaResult, TargetOutcome } from '../vocabulary/types.js';
import { judgeExitStatus } from './client/judge-exit-status.js';
import { getClientExpectations, getClientExpectedVerdicts, judgeReported } from './client/judge-reported.js';
import { judgeRequestHeaders, judgeRequestSchemas, type CheckRequestMessage } from './client/judge-requests.js';
import { judgeWireRules } from './client/judge-wire-rules.js';
import { readWireCalls } from './client/read-wire-calls.js';
import { makeCheck } from './make-check.js';

export type { CheckRequestMessage };

export interface JudgeClientOptions {
  case: Case;
  protocolVersion: ProtocolVersion;
  outcome: TargetOutcome;
  recording: Recording | undefined;
  /** Validates each message the client sent; without it there are no `schema.request@…` checks. */
  checkRequest?: CheckRequestMessage | undefined;
}

export interface ClientJudgement {
  /** One expected verdict per explicit call. */
  expected: ExpectedVerdict[];
  checks: Check[];
  /** Schema results of the messages the client sent (sender `target`, exchange = recording seq). */
  schema: SchemaResult[];
  /** Where the conclusion came from: a verdict, the exit status, the wire alone, or nothing. */
  conclusion: Conclusion;
}

/**
 * Check ids: `client.finished`, `client.outcome[@i]` / `client.status` / `client.code` /
 * `client.layer`, `client.exit` (no verdict: the exit status), `wire.<rule>` (plus `wire.tool-call-posts` and `wire.no-auto-replay` by
 * default), `header.<name>@n` for the n-th tools/call POST, `schema.request@e` for transcript entry e.
 */
export function judgeClient(options: JudgeClientOptions): ClientJudgement {
  const { case: item, protocolVersion: version, outcome, recording } = options;
  const calls = readWireCalls(recording, version);
  const expectations = getClientExpectations(item, version, calls);
  const expected = expectations.map((entry) => entry.verdict);
  const checks: Check[] = [];
  if (outcome.run) {
    // L25 § Timeouts: implementations SHOULD establish timeouts for the requests they send.
    const finished = !outcome.run.timedOut;
    checks.push(makeCheck({ id: 'client.finished', level: 'SHOULD', expected: 'finished in time', actual: finished ? `finished in ${outcome.run.durationMs} ms` : `killed after ${outcome.run.durationMs} ms`, passed: finished }));
  }
  const exit = judgeExitStatus(item, expected, outcome, calls.length, expectations.at(-1)?.alternatives);
  checks.push(...judgeReported(item, expected, outcome, { alternatives: expectations.map((entry) => entry.alternatives), nothing: exit.nothing }));
  checks.push(...exit.checks);
  checks.push(...judgeWireRules(item, version, calls));
  checks.push(...judgeRequestHeaders(version, calls, recording));
  let schema: SchemaResult[] = [];
  if (options.checkRequest) {
    const judged = judgeRequestSchemas(version, recording, options.checkRequest);
    checks.push(...judged.checks);
    schema = judged.schema;
  }
  return { expected, checks, schema, conclusion: exit.conclusion };
}

export { getClientExpectedVerdicts };
