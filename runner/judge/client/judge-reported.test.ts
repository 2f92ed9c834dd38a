import { describe, expect, it } from 'vitest';
import type { Case } from '../../cases/case-types.js';
import { makeCase } from '../../mock-server/test-cases.js';
import type { Check, ExpectedVerdict, TargetOutcome, Verdict } from '../../vocabulary/types.js';
import { getClientExpectedVerdicts, judgeReported } from './judge-reported.js';
import { readWireCalls } from './read-wire-calls.js';
import { makeClientRecording, makeToolCallPost } from './test-recordings.js';

const item = makeCase([]);
const reported = (...verdicts: (Verdict | null)[]): TargetOutcome => ({ verdicts });
const failed = (checks: Check[]) => checks.filter((check) => !check.passed).map((check) => `${check.id}:${check.level}`);

describe('judgeReported: a client must report the status and the code the case expects', () => {
  it.each<[string, ExpectedVerdict, Verdict, string[]]>([
    ['right outcome and status', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', layer: 'transport', status: 503 }, []],
    ['right outcome, wrong status', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', layer: 'transport', status: 500 }, ['client.status:SHOULD']],
    ['right outcome and code', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol', code: -32602 }, []],
    ['right outcome, wrong code', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol', code: -32603 }, ['client.code:SHOULD']],
    ['right outcome, no code', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol' }, ['client.code:SHOULD']],
    ['another code read as invalid params', { outcome: 'JSONRPC_ERROR', code: -32603 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol', code: -32602 }, ['client.code:MUST']],
    ['wrong outcome', { outcome: 'TOOL_ERROR' }, { outcome: 'TOOL_SUCCESS', layer: 'application' }, ['client.outcome:MUST']],
    ['right outcome, wrong layer', { outcome: 'TOOL_ERROR' }, { outcome: 'TOOL_ERROR', layer: 'transport' }, ['client.layer:SHOULD']],
  ])('%s', (_title, want, got, failures) => {
    expect(failed(judgeReported(item, [want], reported(got)))).toEqual(failures);
  });

  it('names status and code checks only when the case names them, and the layer only for the right outcome', () => {
    expect(judgeReported(item, [{ outcome: 'TOOL_SUCCESS' }], reported({ outcome: 'TOOL_SUCCESS', layer: 'application', status: 1, code: 2 })).map((c) => c.id)).toEqual([
      'client.outcome',
      'client.layer',
    ]);
    expect(judgeReported(item, [{ outcome: 'TOOL_SUCCESS' }], reported({ outcome: 'TOOL_ERROR', layer: 'application' })).map((c) => c.id)).toEqual(['client.outcome']);
  });

  it('holds outcome, status and code to client.outcomeLevel; the layer stays SHOULD', () => {
    const lenient: Case = { ...item, client: { outcomeLevel: 'POLICY' } };
    const checks = judgeReported(lenient, [{ outcome: 'HTTP_ERROR', status: 503, code: 1 }], reported({ outcome: 'HTTP_ERROR', layer: 'protocol', status: 500, code: 2 }));
    expect(failed(checks)).toEqual(['client.status:POLICY', 'client.code:POLICY', 'client.layer:SHOULD']);
    expect(checks[0]).toMatchObject({ id: 'client.outcome', level: 'POLICY', passed: true });
  });

  it('numbers the checks per explicit call when there are several, and judges each call on its own report', () => {
    const two: Case = { ...item, client: { calls: 2 } };
    const checks = judgeReported(two, [{ outcome: 'TOOL_ERROR' }, { outcome: 'TOOL_SUCCESS' }], reported({ outcome: 'TOOL_ERROR', layer: 'application' }, { outcome: 'TOOL_ERROR', layer: 'application' }));
    expect(checks.map((check) => [check.id, check.passed])).toEqual([
      ['client.outcome@1', true],
      ['client.layer@1', true],
      ['client.outcome@2', false],
    ]);
  });

  it('gives an INFO check for a call not reported, and a failure at the outcome level for a report that is not a verdict', () => {
    const silent = judgeReported(item, [{ outcome: 'TOOL_SUCCESS' }], reported(null));
    expect(silent).toEqual([
      { id: 'client.outcome', level: 'INFO', passed: false, expected: 'TOOL_SUCCESS', actual: 'not reported', message: 'client.outcome: not reported (judged on the wire alone); expected TOOL_SUCCESS' },
    ]);
    const garbled = judgeReported({ ...item, client: { outcomeLevel: 'SHOULD' } }, [{ outcome: 'TOOL_SUCCESS' }], { verdicts: [null], invalidVerdicts: [{ index: 0, value: '???', problem: 'not JSON' }] });
    expect(garbled).toEqual([
      { id: 'client.outcome', level: 'SHOULD', passed: false, expected: 'TOOL_SUCCESS', actual: '???', consequence: 'no-conclusion', message: "client.outcome: the client's report is not a verdict: not JSON" },
    ]);
    const secondGarbled = judgeReported({ ...item, client: { calls: 2 } }, [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'TOOL_SUCCESS' }], {
      verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }, null],
      invalidVerdicts: [{ index: 1, value: 1, problem: 'p' }],
    });
    expect(failed(secondGarbled)).toEqual(['client.outcome@2:MUST']);
  });

  it('fails the last call of a client that concluded nothing as no-conclusion, at most at client.outcomeLevel', () => {
    const nothing = 'killed at its time limit after 9 ms without a verdict';
    expect(judgeReported(item, [{ outcome: 'HTTP_ERROR' }], reported(null), { nothing })).toEqual([
      { id: 'client.outcome', level: 'MUST', passed: false, expected: 'HTTP_ERROR', actual: 'nothing concluded', consequence: 'no-conclusion', message: `client.outcome: nothing concluded: ${nothing}; expected HTTP_ERROR` },
    ]);
    expect(failed(judgeReported({ ...item, client: { outcomeLevel: 'SHOULD' } }, [{ outcome: 'HTTP_ERROR' }], reported(null), { nothing }))).toEqual(['client.outcome:SHOULD']);
    // An earlier call without a report is still left to the wire.
    const two: Case = { ...item, client: { calls: 2 } };
    expect(failed(judgeReported(two, [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'HTTP_ERROR' }], reported(null, null), { nothing }))).toEqual(['client.outcome@1:INFO', 'client.outcome@2:MUST']);
  });

  it('grades each failed report by its consequence and puts it on one check', () => {
    const checks = judgeReported(item, [{ outcome: 'HTTP_ERROR', status: 503 }], reported({ outcome: 'TOOL_SUCCESS', layer: 'application' }));
    expect(checks.filter((check) => !check.passed).map((check) => [check.id, check.level, check.consequence])).toEqual([
      ['client.outcome', 'MUST', 'false-success'],
      ['client.status', 'MUST', undefined],
    ]);
    const capped = judgeReported({ ...item, client: { outcomeLevel: 'SHOULD' } }, [{ outcome: 'TOOL_SUCCESS' }], reported({ outcome: 'STREAM_INCOMPLETE', layer: 'transport' }));
    expect(capped[0]).toMatchObject({ level: 'SHOULD', consequence: 'false-failure' });
  });
});

describe('getClientExpectedVerdicts', () => {
  const retried = makeCase([], {
    exchanges: [
      { response: { status: 429 }, expect: { outcome: 'HTTP_ERROR', status: 429 } },
      { response: { status: 200 }, expect: { outcome: 'TOOL_SUCCESS' } },
    ],
  });
  const callsTo = (...steps: number[]) => readWireCalls(makeClientRecording(...steps.map((step, i) => makeToolCallPost({ id: i + 1, scriptStep: step }))), '2026-07-28');

  it('holds the last call to the script step its last POST consumed, else to the last exchange', () => {
    expect(getClientExpectedVerdicts(retried, '2026-07-28', callsTo(0))).toEqual([{ outcome: 'HTTP_ERROR', status: 429 }]);
    expect(getClientExpectedVerdicts(retried, '2026-07-28', callsTo(0, 1))).toEqual([{ outcome: 'TOOL_SUCCESS' }]);
    expect(getClientExpectedVerdicts(retried, '2026-07-28', [])).toEqual([{ outcome: 'TOOL_SUCCESS' }]);
  });

  it('reads the step of the last POST that consumed one, and the last exchange without calls', () => {
    const unconsumed = readWireCalls(makeClientRecording(makeToolCallPost({ id: 1, scriptStep: 0 }), makeToolCallPost({ id: 2 })), '2026-07-28');
    expect(getClientExpectedVerdicts(retried, '2026-07-28', unconsumed)).toEqual([{ outcome: 'HTTP_ERROR', status: 429 }]);
    expect(getClientExpectedVerdicts(retried, '2026-07-28')).toEqual([{ outcome: 'TOOL_SUCCESS' }]);
    const three = makeCase([], {
      exchanges: [
        { response: { status: 429 }, expect: { outcome: 'HTTP_ERROR', status: 429 } },
        { response: { status: 503 }, expect: { outcome: 'HTTP_ERROR', status: 503 } },
        { response: { status: 200 }, expect: { outcome: 'TOOL_SUCCESS' } },
      ],
    });
    expect(getClientExpectedVerdicts(three, '2026-07-28', callsTo(0, 1))).toEqual([{ outcome: 'HTTP_ERROR', status: 503 }]);
    // More explicit calls than exchanges: the last call is held to the last exchange.
    expect(getClientExpectedVerdicts({ ...three, client: { calls: 5 } }, '2026-07-28', callsTo(0, 1)).at(-1)).toEqual({ outcome: 'TOOL_SUCCESS' });
  });

  it('uses client.outcomeByVersion, then client.outcome, for the last call', () => {
    const named: Case = { ...retried, client: { outcome: { outcome: 'TOOL_ERROR' }, outcomeByVersion: { '2025-11-25': { outcome: 'NO_RESPONSE' } } } };
    expect(getClientExpectedVerdicts(named, '2025-11-25', callsTo(0))).toEqual([{ outcome: 'NO_RESPONSE' }]);
    expect(getClientExpectedVerdicts(named, '2026-07-28', callsTo(0))).toEqual([{ outcome: 'TOOL_ERROR' }]);
  });

  it('expects exchange i of call i < last, and the last one from at least exchange count-1', () => {
    const three = makeCase([], {
      client: { calls: 3 },
      exchanges: [
        { response: { status: 200 }, expect: { outcome: 'TOOL_ERROR' } },
        { response: { status: 200 }, expect: { outcome: 'TOOL_SUCCESS' } },
      ],
    });
    expect(getClientExpectedVerdicts(three, '2026-07-28', callsTo(0))).toEqual([{ outcome: 'TOOL_ERROR' }, { outcome: 'TOOL_SUCCESS' }, { outcome: 'TOOL_SUCCESS' }]);
    const four = { ...three, client: { calls: 4 } };
    expect(getClientExpectedVerdicts(four, '2026-07-28', callsTo(0))).toEqual([{ outcome: 'TOOL_ERROR' }, { outcome: 'TOOL_SUCCESS' }, { outcome: 'TOOL_SUCCESS' }, { outcome: 'TOOL_SUCCESS' }]);
    const two = { ...three, client: { calls: 2 } };
    expect(getClientExpectedVerdicts(two, '2026-07-28', callsTo(0))).toEqual([{ outcome: 'TOOL_ERROR' }, { outcome: 'TOOL_SUCCESS' }]);
  });
});
