import { describe, expect, it } from 'vitest';
import type { AlternativeVerdict } from '../cases/case-types.js';
import type { Check, Verdict } from '../vocabulary/types.js';
import { judgeConclusion } from './judge-conclusion.js';

const ids = { outcome: 'client.outcome', status: 'client.status', code: 'client.code', layer: 'client.layer' };
const waitsOut: AlternativeVerdict = {
  outcome: 'STREAM_INCOMPLETE',
  level: 'SHOULD',
  spec: [{ ref: 'L25 § Timeouts' }, { ref: 'CX26 § Timeouts' }],
  why: 'the call stays unanswered; a client may end it by its own timeout',
};
const got = (outcome: Verdict['outcome'], extra: Partial<Verdict> = {}): Verdict => ({ outcome, layer: 'transport', ...extra });
const failures = (checks: Check[]) => checks.filter((check) => !check.passed).map((check) => [check.id, check.level, check.consequence]);

describe('judgeConclusion: alternatives the spec allows', () => {
  it('fails an accepted alternative at its own level, keeping the consequence and naming the reference', () => {
    const checks = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('STREAM_INCOMPLETE'), alternatives: [waitsOut], checkLayer: true });
    expect(failures(checks)).toEqual([['client.outcome', 'SHOULD', 'unsafe-retry']]);
    expect(checks[0]!.message).toBe(
      'client.outcome: expected INVALID_ENVELOPE, got STREAM_INCOMPLETE: an alternative the spec allows, at SHOULD (L25 § Timeouts; CX26 § Timeouts): the call stays unanswered; a client may end it by its own timeout',
    );
  });

  it('grades any other conclusion as usual: without a matching alternative there is one expected outcome', () => {
    const success = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('TOOL_SUCCESS', { layer: 'application' }), alternatives: [waitsOut], checkLayer: true });
    expect(failures(success)).toEqual([['client.outcome', 'MUST', 'false-success']]);
    const without = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('STREAM_INCOMPLETE'), checkLayer: true });
    expect(failures(without)).toEqual([['client.outcome', 'MUST', 'unsafe-retry']]);
    expect(without[0]!.message).toBe('client.outcome: expected INVALID_ENVELOPE, got STREAM_INCOMPLETE');
  });

  it('matches an alternative on the status and code it names, and never raises a capped level', () => {
    const http: AlternativeVerdict = { ...waitsOut, outcome: 'HTTP_ERROR', status: 504, level: 'POLICY' };
    const other = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('HTTP_ERROR', { status: 500 }), alternatives: [http], checkLayer: true });
    expect(failures(other)).toEqual([['client.outcome', 'MUST', 'unsafe-retry']]);
    const named = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('HTTP_ERROR', { status: 504 }), alternatives: [http], checkLayer: true });
    expect(failures(named)).toEqual([['client.outcome', 'POLICY', 'unsafe-retry']]);
    const capped = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('STREAM_INCOMPLETE'), alternatives: [waitsOut], cap: 'INFO', checkLayer: true });
    expect(failures(capped)).toEqual([['client.outcome', 'INFO', 'unsafe-retry']]);
  });

  it('matches an alternative that names no status or code whatever status and code came with the outcome', () => {
    const checks = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('STREAM_INCOMPLETE', { status: 200, code: -32000 }), alternatives: [waitsOut], checkLayer: true });
    expect(failures(checks)).toEqual([['client.outcome', 'SHOULD', 'unsafe-retry']]);
  });

  it('matches an alternative on the code it names', () => {
    const internal: AlternativeVerdict = { ...waitsOut, outcome: 'JSONRPC_ERROR', code: -32603, level: 'INFO' };
    const other = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('JSONRPC_ERROR', { code: -32601 }), alternatives: [internal], checkLayer: true });
    expect(failures(other)).toEqual([['client.outcome', 'SHOULD', 'imprecise']]);
    const named = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('JSONRPC_ERROR', { code: -32603 }), alternatives: [internal], checkLayer: true });
    expect(failures(named)).toEqual([['client.outcome', 'INFO', 'imprecise']]);
    expect(named[0]!.message).toContain('an alternative the spec allows');
    expect(other[0]!.message).toBe('client.outcome: expected INVALID_ENVELOPE, got JSONRPC_ERROR');
  });

  it('notes an alternative only on a failed outcome check: one that differs in status fails the status check alone, at its level', () => {
    const gateway: AlternativeVerdict = { ...waitsOut, outcome: 'HTTP_ERROR', status: 504, level: 'POLICY' };
    const checks = judgeConclusion({ ids, expected: { outcome: 'HTTP_ERROR', status: 503 }, got: got('HTTP_ERROR', { status: 504 }), alternatives: [gateway], checkLayer: true });
    expect(checks.map((check) => [check.id, check.passed, check.level, check.consequence])).toEqual([
      ['client.outcome', true, 'MUST', undefined],
      ['client.status', false, 'POLICY', 'imprecise'],
      ['client.layer', true, 'SHOULD', undefined],
    ]);
    expect(checks[0]!.message).toBe('client.outcome: HTTP_ERROR');
  });

  it('costs what an alternative names as its consequence (a server fault: imprecise), at the weaker of its level and that consequence', () => {
    const realResult: AlternativeVerdict = { outcome: 'TOOL_SUCCESS', level: 'POLICY', spec: [{ ref: 'SH26 § Receiving Messages' }], why: "the fault is the server's", consequence: 'imprecise' };
    const checks = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('TOOL_SUCCESS', { layer: 'application' }), alternatives: [realResult], checkLayer: true });
    expect(failures(checks)).toEqual([['client.outcome', 'POLICY', 'imprecise']]);
    expect(checks[0]!.message).toBe("client.outcome: expected INVALID_ENVELOPE, got TOOL_SUCCESS: an alternative the spec allows, at POLICY (SH26 § Receiving Messages): the fault is the server's");
    const atShould = judgeConclusion({ ids, expected: { outcome: 'INVALID_TOOL_RESULT' }, got: got('TOOL_SUCCESS', { layer: 'application' }), alternatives: [{ ...realResult, level: 'SHOULD' }], checkLayer: true });
    expect(failures(atShould)).toEqual([['client.outcome', 'SHOULD', 'imprecise']]);
    // Another wrong conclusion is graded as ever.
    const other = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('HTTP_ERROR', { status: 502 }), alternatives: [realResult], checkLayer: true });
    expect(failures(other)).toEqual([['client.outcome', 'MUST', 'unsafe-retry']]);
  });

  it('passes the expected conclusion whatever the alternatives', () => {
    const checks = judgeConclusion({ ids, expected: { outcome: 'INVALID_ENVELOPE' }, got: got('INVALID_ENVELOPE', { layer: 'protocol' }), alternatives: [waitsOut], checkLayer: true });
    expect(checks.map((check) => [check.id, check.passed, check.level])).toEqual([
      ['client.outcome', true, 'MUST'],
      ['client.layer', true, 'SHOULD'],
    ]);
    expect(checks.some((check) => 'consequence' in check)).toBe(false);
  });
});

describe('judgeConclusion: one consequence per conclusion', () => {
  it('puts it on the first failed check only, the layer included', () => {
    const both = judgeConclusion({ ids, expected: { outcome: 'HTTP_ERROR', status: 503 }, got: got('HTTP_ERROR', { status: 500, layer: 'protocol' }), checkLayer: true });
    expect(failures(both)).toEqual([
      ['client.status', 'SHOULD', 'imprecise'],
      ['client.layer', 'SHOULD', undefined],
    ]);
    const layerOnly = judgeConclusion({ ids, expected: { outcome: 'HTTP_ERROR', status: 503 }, got: got('HTTP_ERROR', { status: 503, layer: 'protocol' }), checkLayer: true });
    expect(failures(layerOnly)).toEqual([['client.layer', 'SHOULD', 'imprecise']]);
  });
});
