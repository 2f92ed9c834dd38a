// judgeClient on recordings built by hand (judge-client.test.ts plays real clients against the
// mock server; these are the fast, clock-free ones StrykerJS runs per mutant).
import { describe, expect, it } from 'vitest';
import type { AlternativeVerdict } from '../cases/case-types.js';
import { makeCase } from '../mock-server/test-cases.js';
import type { TargetOutcome } from '../vocabulary/types.js';
import { makeClientRecording, makeToolCallPost } from './client/test-recordings.js';
import { getClientExpectedVerdicts, judgeClient } from './judge-client.js';

const V26 = '2026-07-28';
const item = makeCase([{ status: 200 }], { tool: { name: 'synthetic_tool', annotations: { readOnlyHint: true } } });
const headers = { 'mcp-protocol-version': V26, 'mcp-method': 'tools/call', 'mcp-name': 'synthetic_tool' };
const recording = () => makeClientRecording(makeToolCallPost({ headers }));
const success: TargetOutcome = { verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }] };

describe('judgeClient (offline)', () => {
  it('judges the report, the wire rules and the headers, in that order, and expects one verdict per call', () => {
    const judged = judgeClient({ case: item, protocolVersion: V26, outcome: success, recording: recording() });
    expect(judged.expected).toEqual([{ outcome: 'TOOL_SUCCESS' }]);
    expect(judged.checks.map((check) => [check.id, check.passed])).toEqual([
      ['client.outcome', true],
      ['client.layer', true],
      ['wire.tool-called', true],
      ['header.accept@1', true],
      ['header.protocol-version@1', true],
      ['header.mcp-method@1', true],
      ['header.mcp-name@1', true],
    ]);
    expect(judged.schema).toEqual([]);
    expect(getClientExpectedVerdicts).toBeTypeOf('function');
  });

  it.each<[string, NonNullable<TargetOutcome['run']>, { passed: boolean; actual: string }]>([
    ['finished in time', { exitCode: 0, signal: null, timedOut: false, durationMs: 42 }, { passed: true, actual: 'finished in 42 ms' }],
    ['killed at the timeout', { exitCode: null, signal: 'SIGKILL', timedOut: true, durationMs: 5000 }, { passed: false, actual: 'killed after 5000 ms' }],
  ])('checks client.finished (SHOULD) for a process that %s', (_title, run, expected) => {
    const judged = judgeClient({ case: item, protocolVersion: V26, outcome: { ...success, run }, recording: recording() });
    expect(judged.checks[0]).toMatchObject({ id: 'client.finished', level: 'SHOULD', expected: 'finished in time', ...expected });
  });

  it("holds the reported verdict to the alternatives of the call's script step", () => {
    const alternative: AlternativeVerdict = { outcome: 'STREAM_INCOMPLETE', level: 'POLICY', spec: [{ ref: 'L25 § Timeouts' }], why: 'a client may end it by its own timeout' };
    const waited = makeCase([{ status: 200 }], { tool: { name: 'synthetic_tool', annotations: { readOnlyHint: true } } });
    waited.exchanges[0] = { ...waited.exchanges[0]!, expect: { outcome: 'INVALID_ENVELOPE' }, alternatives: [alternative] };
    const judged = judgeClient({ case: waited, protocolVersion: V26, outcome: { verdicts: [{ outcome: 'STREAM_INCOMPLETE', layer: 'transport' }] }, recording: recording() });
    expect(judged.checks[0]).toMatchObject({ id: 'client.outcome', passed: false, level: 'POLICY', consequence: 'unsafe-retry' });
    expect(judged.checks[0]!.message).toContain('an alternative the spec allows, at POLICY (L25 § Timeouts)');
  });

  it('validates the messages sent only when given a checker', () => {
    const judged = judgeClient({
      case: item,
      protocolVersion: V26,
      outcome: success,
      recording: recording(),
      checkRequest: () => ({ definition: 'CallToolRequest', valid: false, errors: ['/params/name: missing'] }),
    });
    expect(judged.schema).toEqual([{ version: V26, definition: 'CallToolRequest', valid: false, errors: ['/params/name: missing'], sender: 'target', exchange: 0 }]);
    expect(judged.checks.at(-1)).toMatchObject({ id: 'schema.request@1', level: 'MUST', passed: false });
  });

  it('fails a client that sent nothing and reported nothing as no-conclusion, beside the wire', () => {
    const judged = judgeClient({ case: item, protocolVersion: V26, outcome: { verdicts: [null] }, recording: undefined });
    expect(judged.checks.map((check) => [check.id, check.level, check.passed, check.consequence])).toEqual([
      ['client.outcome', 'MUST', false, 'no-conclusion'],
      ['wire.tool-called', 'MUST', false, undefined],
    ]);
    expect(judged.conclusion).toBe('none');
  });
});
