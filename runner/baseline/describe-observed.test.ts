import { describe, expect, it } from 'vitest';
import { makeCell } from '../../test/make-run-result.js';
import type { AlternativeVerdict, Case } from '../cases/case-types.js';
import { judgeExitStatus } from '../judge/client/judge-exit-status.js';
import { judgeClient } from '../judge/judge-client.js';
import { judgeVerdicts } from '../judge/judge-verdicts.js';
import { makeCase } from '../mock-server/test-cases.js';
import type { Cell, ExpectedVerdict, TargetOutcome, Verdict } from '../vocabulary/types.js';
import { describeObservedFailure } from './describe-observed.js';

const verdict = (outcome: Verdict['outcome'], extra: Partial<Verdict> = {}): Verdict => ({ outcome, layer: 'transport', ...extra });

/** A classifier cell judged for real: the sentence reads the checks the judge wrote. */
function classifierCell(want: ExpectedVerdict, got: Verdict | null, alternatives?: AlternativeVerdict[]): Cell {
  const outcome: TargetOutcome = { verdicts: [got] };
  const checks = judgeVerdicts([want], outcome, [alternatives]);
  return makeCell({ status: 'fail', checks, expected: [want], actual: [got] });
}

const waitsOut: AlternativeVerdict = { outcome: 'STREAM_INCOMPLETE', level: 'SHOULD', spec: [{ ref: 'L25 § Timeouts' }], why: 'the call stays unanswered' };
const wrongId: Case = makeCase([{ id: { literal: 99 }, body: { json: { jsonrpc: '2.0', result: { content: [] } } } }]);

describe('describeObservedFailure: the observed behaviour in a sentence, from the judged checks', () => {
  it.each<[string, ExpectedVerdict, Verdict, string]>([
    ['an HTTP 503 read as a result', { outcome: 'HTTP_ERROR', status: 503 }, verdict('TOOL_SUCCESS', { layer: 'application' }), 'reads an HTTP 503 as a tool result (false success)'],
    ['a tool error hidden as success', { outcome: 'TOOL_ERROR' }, verdict('TOOL_SUCCESS', { layer: 'application' }), 'reads a tool error (isError: true) as a tool result (false success)'],
    ['a success discarded', { outcome: 'TOOL_SUCCESS' }, verdict('INVALID_TOOL_RESULT', { layer: 'protocol' }), 'reads a tool result as an invalid tool result (false failure)'],
    ['input required read as an invalid result', { outcome: 'INPUT_REQUIRED' }, verdict('INVALID_TOOL_RESULT', { layer: 'protocol' }), 'reads a request for input (input_required) as an invalid tool result (lost recovery)'],
    ['another status', { outcome: 'HTTP_ERROR', status: 503 }, verdict('HTTP_ERROR', { status: 500 }), 'reads an HTTP 503 as an HTTP 500 (imprecise)'],
    ['a lost code', { outcome: 'JSONRPC_ERROR', code: -32602 }, verdict('JSONRPC_ERROR', { layer: 'protocol' }), 'reads a JSON-RPC error -32602 as a JSON-RPC error without its code (lost recovery)'],
    ['a success that never arrives', { outcome: 'TOOL_SUCCESS' }, verdict('STREAM_INCOMPLETE', { detail: 'the stream ended' }), 'reports the call unanswered instead of reading a tool result (false failure)'],
    ['a wrong layer', { outcome: 'TOOL_ERROR' }, verdict('TOOL_ERROR', { layer: 'protocol' }), 'reports TOOL_ERROR in the protocol layer instead of application (imprecise)'],
  ])('%s', (_title, want, got, sentence) => {
    expect(describeObservedFailure(classifierCell(want, got))).toBe(sentence);
  });

  it('says "waits for its own timeout" when the target says it timed out, and names the wrong id from the case', () => {
    const cell = classifierCell({ outcome: 'INVALID_ENVELOPE' }, verdict('STREAM_INCOMPLETE', { detail: 'after HTTP 200: Request timed out' }), [waitsOut]);
    expect(describeObservedFailure(cell, wrongId)).toBe(
      "waits for its own timeout instead of rejecting a response carrying another request's id (unsafe retry; an alternative the spec allows, at SHOULD)",
    );
    expect(describeObservedFailure(classifierCell({ outcome: 'INVALID_ENVELOPE' }, verdict('TOOL_SUCCESS', { layer: 'application' })), wrongId)).toBe(
      "reads a response carrying another request's id as a tool result (false success)",
    );
  });

  it('describes a client that concluded nothing, or only exited', () => {
    const item = makeCase([{}]);
    const none = judgeClient({ case: item, protocolVersion: '2026-07-28', outcome: { verdicts: [null] }, recording: undefined });
    const silent = makeCell({ status: 'fail', checks: none.checks, expected: none.expected, actual: [null] });
    expect(describeObservedFailure(silent)).toBe('concludes nothing on a tool result: the target reported no verdict (no conclusion); also fails wire.tool-called');
    const garbled = judgeVerdicts([{ outcome: 'HTTP_ERROR', status: 503 }], { verdicts: [null], invalidVerdicts: [{ index: 0, value: 'ok', problem: 'not an object' }] });
    expect(describeObservedFailure(makeCell({ status: 'fail', checks: garbled, expected: [{ outcome: 'HTTP_ERROR', status: 503 }], actual: [null] }))).toBe(
      'concludes nothing on an HTTP 503: not an object (no conclusion)',
    );
  });

  it('describes a client judged on its exit status', () => {
    const item = makeCase([{}]);
    const run = (exitCode: number): TargetOutcome => ({ verdicts: [null], run: { exitCode, signal: null, timedOut: false, durationMs: 5 } });
    const zero = judgeExitStatus(item, [{ outcome: 'HTTP_ERROR', status: 503 }], run(0), 1);
    expect(describeObservedFailure(makeCell({ status: 'fail', checks: zero.checks, expected: [{ outcome: 'HTTP_ERROR', status: 503 }], actual: [null] }))).toBe(
      'exits 0 without a verdict, as if an HTTP 503 were a result (false success)',
    );
    const failed = judgeExitStatus(item, [{ outcome: 'TOOL_SUCCESS' }], run(3), 1);
    expect(describeObservedFailure(makeCell({ status: 'fail', checks: failed.checks, expected: [{ outcome: 'TOOL_SUCCESS' }], actual: [null] }))).toBe(
      'exits 3 without a verdict ("the call failed") on a tool result (false failure)',
    );
  });

  it('describes a cell whose failures carry no consequence by its first failed check', () => {
    const cell = makeCell({ status: 'non_strict' });
    expect(describeObservedFailure(cell)).toBe('fails retried before Retry-After elapsed');
  });

  it('names the worst consequence first when several calls fail', () => {
    const want: ExpectedVerdict[] = [{ outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'INVALID_ENVELOPE' }];
    const got = [verdict('HTTP_ERROR', { status: 500 }), verdict('TOOL_SUCCESS', { layer: 'application' })];
    const checks = judgeVerdicts(want, { verdicts: got });
    const cell = makeCell({ status: 'fail', checks, expected: want, actual: got });
    expect(describeObservedFailure(cell)).toBe('reads a message that is not a valid response to this request as a tool result (false success); also fails status@1');
  });
});
