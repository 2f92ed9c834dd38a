import { describe, expect, it } from 'vitest';
import { makeCase } from '../mock-server/test-cases.js';
import type { Check, ExpectedVerdict, TargetOutcome, Verdict } from '../vocabulary/types.js';
import { getAlternatives, getExpectedVerdicts, judgeVerdicts } from './judge-verdicts.js';

const outcomeOf = (...verdicts: (Verdict | null)[]): TargetOutcome => ({ verdicts });
const failed = (checks: Check[]) => checks.filter((check) => !check.passed).map((check) => check.id);
const byId = (checks: Check[], id: string): Check | undefined => checks.find((check) => check.id === id);

describe('judgeVerdicts: a classifier must name the status and the code the case expects', () => {
  it.each<[string, ExpectedVerdict, Verdict, string[]]>([
    ['right outcome, right status', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', layer: 'transport', status: 503 }, []],
    ['right outcome, wrong status', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', layer: 'transport', status: 500 }, ['status@1:SHOULD:imprecise']],
    ['right outcome, no status', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', layer: 'transport' }, ['status@1:SHOULD:imprecise']],
    ['right outcome, right code', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol', code: -32602 }, []],
    ['invalid params read as another code: the corrected call is lost', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol', code: -32601 }, ['code@1:SHOULD:lost-recovery']],
    ['right outcome, no code', { outcome: 'JSONRPC_ERROR', code: -32602 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol' }, ['code@1:SHOULD:lost-recovery']],
    ['another code read as invalid params: a corrected call is sent', { outcome: 'JSONRPC_ERROR', code: -32603 }, { outcome: 'JSONRPC_ERROR', layer: 'protocol', code: -32602 }, ['code@1:MUST:unsafe-retry']],
    ['wrong outcome, right status: the outcome check carries the consequence', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'TOOL_SUCCESS', layer: 'application', status: 503 }, ['outcome@1:MUST:false-success']],
    ['wrong outcome and status: one consequence, both at its level', { outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'NO_RESPONSE', layer: 'transport' }, ['outcome@1:SHOULD:imprecise', 'status@1:SHOULD:-']],
    ['a success discarded', { outcome: 'TOOL_SUCCESS' }, { outcome: 'MALFORMED_JSON', layer: 'protocol' }, ['outcome@1:MUST:false-failure']],
    ['a wrong layer fails only the layer', { outcome: 'TOOL_ERROR' }, { outcome: 'TOOL_ERROR', layer: 'protocol' }, ['layer@1:SHOULD:imprecise']],
  ])('%s', (_title, want, got, failures) => {
    const checks = judgeVerdicts([want], outcomeOf(got));
    expect(checks.filter((check) => !check.passed).map((check) => `${check.id}:${check.level}:${check.consequence ?? '-'}`)).toEqual(failures);
  });

  it('checks the status and the code only when the case names them', () => {
    const checks = judgeVerdicts([{ outcome: 'TOOL_SUCCESS' }], outcomeOf({ outcome: 'TOOL_SUCCESS', layer: 'application', status: 200, code: 1 }));
    expect(checks.map((check) => check.id)).toEqual(['outcome@1', 'layer@1']);
  });

  it('checks the layer only when the outcome is right and a layer was reported', () => {
    expect(judgeVerdicts([{ outcome: 'TOOL_ERROR' }], outcomeOf({ outcome: 'TOOL_SUCCESS', layer: 'protocol' })).map((c) => c.id)).toEqual(['outcome@1']);
    expect(judgeVerdicts([{ outcome: 'TOOL_ERROR' }], outcomeOf({ outcome: 'TOOL_ERROR' } as Verdict)).map((c) => c.id)).toEqual(['outcome@1']);
    expect(byId(judgeVerdicts([{ outcome: 'TOOL_ERROR' }], outcomeOf({ outcome: 'TOOL_ERROR', layer: 'application' })), 'layer@1')).toMatchObject({ level: 'SHOULD', passed: true, expected: 'application' });
  });

  it('numbers the checks per exchange (1-based ids, 0-based exchange index)', () => {
    const checks = judgeVerdicts(
      [{ outcome: 'HTTP_ERROR', status: 429 }, { outcome: 'TOOL_SUCCESS' }],
      outcomeOf({ outcome: 'HTTP_ERROR', layer: 'transport', status: 429 }, { outcome: 'TOOL_ERROR', layer: 'application' }),
    );
    expect(checks.map((check) => [check.id, check.exchange, check.passed])).toEqual([
      ['outcome@1', 0, true],
      ['status@1', 0, true],
      ['layer@1', 0, true],
      ['outcome@2', 1, false],
    ]);
  });

  it('fails a MUST for an exchange not reported, or reported as something that is not a verdict', () => {
    const missing = judgeVerdicts([{ outcome: 'TOOL_SUCCESS' }, { outcome: 'HTTP_ERROR', status: 503 }], outcomeOf({ outcome: 'TOOL_SUCCESS', layer: 'application' }));
    expect(missing.filter((check) => check.id.endsWith('@2'))).toEqual([
      { id: 'outcome@2', level: 'MUST', passed: false, expected: 'HTTP_ERROR', actual: null, exchange: 1, consequence: 'no-conclusion', message: 'outcome@2: expected HTTP_ERROR, not reported' },
    ]);
    const invalid = judgeVerdicts([{ outcome: 'TOOL_SUCCESS' }], { verdicts: [null], invalidVerdicts: [{ index: 0, value: 'ok', problem: 'not an object' }] });
    expect(invalid).toEqual([
      { id: 'outcome@1', level: 'MUST', passed: false, expected: 'TOOL_SUCCESS', actual: 'ok', exchange: 0, consequence: 'no-conclusion', message: "outcome@1: the target's answer is not a verdict: not an object" },
    ]);
  });

  it('reads an invalid report for its own exchange only', () => {
    const outcome: TargetOutcome = { verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }, null], invalidVerdicts: [{ index: 1, value: 7, problem: 'p' }] };
    const checks = judgeVerdicts([{ outcome: 'TOOL_SUCCESS' }, { outcome: 'TOOL_SUCCESS' }], outcome);
    expect(failed(checks)).toEqual(['outcome@2']);
    expect(byId(checks, 'outcome@2')?.actual).toBe(7);
  });
});

describe('getExpectedVerdicts', () => {
  it('takes each exchange expectation, the version-specific one when the case gives it', () => {
    const item = makeCase([], {
      exchanges: [
        { response: { status: 503 }, expect: { outcome: 'HTTP_ERROR', status: 503 } },
        { response: { status: 200 }, expect: { outcome: 'TOOL_SUCCESS' }, expectByVersion: { '2026-07-28': { outcome: 'INVALID_TOOL_RESULT' } } },
      ],
    });
    expect(getExpectedVerdicts(item, '2025-11-25')).toEqual([{ outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'TOOL_SUCCESS' }]);
    expect(getExpectedVerdicts(item, '2026-07-28')).toEqual([{ outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'INVALID_TOOL_RESULT' }]);
  });
});

describe('getAlternatives', () => {
  it('gives each exchange the alternatives it accepts, so judgeVerdicts holds an accepted one to its level', () => {
    const slow = { outcome: 'STREAM_INCOMPLETE' as const, level: 'SHOULD' as const, spec: [{ ref: 'test' }], why: 'a client may wait for its own timeout' };
    const item = makeCase([], {
      exchanges: [
        { response: { status: 200 }, expect: { outcome: 'TOOL_SUCCESS' } },
        { response: { id: 'as-string' }, expect: { outcome: 'INVALID_ENVELOPE' }, alternatives: [slow] },
      ],
    });
    expect(getAlternatives(item, '2026-07-28')).toEqual([undefined, [slow]]);
    const got = outcomeOf({ outcome: 'TOOL_SUCCESS', layer: 'application' }, { outcome: 'STREAM_INCOMPLETE', layer: 'transport' });
    const withAlternatives = judgeVerdicts(getExpectedVerdicts(item, '2026-07-28'), got, getAlternatives(item, '2026-07-28'));
    const without = judgeVerdicts(getExpectedVerdicts(item, '2026-07-28'), got);
    expect(byId(withAlternatives, 'outcome@2')).toMatchObject({ level: 'SHOULD', passed: false, actual: 'STREAM_INCOMPLETE' });
    expect(byId(without, 'outcome@2')).toMatchObject({ level: 'MUST', passed: false, actual: 'STREAM_INCOMPLETE' });
  });

  it("adds a server fault's result in the versions where it is a fault: the real result costs imprecise at POLICY there, and a false success elsewhere", () => {
    const item = makeCase([], {
      versions: ['2025-11-25', '2026-07-28'],
      exchanges: [
        {
          response: { status: 200 },
          expect: { outcome: 'INVALID_ENVELOPE' },
          expectByVersion: { '2025-11-25': { outcome: 'INVALID_TOOL_RESULT' } },
          serverFault: { rule: 'a server must not send that', ref: 'SH26 § Receiving Messages', result: { outcome: 'TOOL_SUCCESS' }, versions: ['2026-07-28'] },
        },
      ],
    });
    const got = outcomeOf({ outcome: 'TOOL_SUCCESS', layer: 'application' });
    const judged = (version: '2025-11-25' | '2026-07-28') => byId(judgeVerdicts(getExpectedVerdicts(item, version), got, getAlternatives(item, version)), 'outcome@1');
    expect(judged('2026-07-28')).toMatchObject({ level: 'POLICY', passed: false, consequence: 'imprecise' });
    expect(judged('2025-11-25')).toMatchObject({ level: 'MUST', passed: false, consequence: 'false-success' });
  });
});
