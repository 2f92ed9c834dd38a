import { describe, expect, it } from 'vitest';
import { makeCase, SUCCESS_JSON } from '../../mock-server/test-cases.js';
import type { ExpectedVerdict, TargetOutcome, TargetRunInfo } from '../../vocabulary/types.js';
import { judgeExitStatus } from './judge-exit-status.js';

const exited = (exitCode: number | null, signal: string | null = null, extra: Partial<TargetRunInfo> = {}): TargetOutcome => ({
  verdicts: [null],
  run: { exitCode, signal, timedOut: false, durationMs: 5, ...extra },
});
const item = makeCase([{ body: { json: SUCCESS_JSON } }]);
const want = (outcome: ExpectedVerdict['outcome']): ExpectedVerdict[] => [{ outcome }];

describe('judgeExitStatus: a client without a verdict is judged on its exit status', () => {
  it('fails (MUST) a non-zero exit on a call that gave a result, TOOL_ERROR included', () => {
    for (const outcome of ['TOOL_SUCCESS', 'TOOL_ERROR'] as const) {
      const judged = judgeExitStatus(item, want(outcome), exited(13), 1);
      expect(judged.conclusion).toBe('exit_status');
      expect(judged.checks).toMatchObject([{ id: 'client.exit', level: 'MUST', passed: false, actual: 'exit 13' }]);
      expect(judged.checks[0]!.message).toContain('failed a call that succeeded');
    }
  });

  it('counts death by a signal as "the call failed"', () => {
    expect(judgeExitStatus(item, want('TOOL_SUCCESS'), exited(null, 'SIGSEGV'), 1).checks).toMatchObject([{ passed: false, actual: 'killed by SIGSEGV' }]);
    expect(judgeExitStatus(item, want('HTTP_ERROR'), exited(null, 'SIGSEGV'), 1)).toMatchObject({ conclusion: 'exit_status', checks: [{ passed: true }] });
  });

  it('accepts a non-zero exit on every outcome without a final result, marked as concluded from the exit status', () => {
    for (const outcome of ['HTTP_ERROR', 'JSONRPC_ERROR', 'INPUT_REQUIRED', 'MALFORMED_JSON', 'INVALID_ENVELOPE', 'INVALID_TOOL_RESULT', 'STREAM_INCOMPLETE', 'NO_RESPONSE'] as const) {
      expect(judgeExitStatus(item, want(outcome), exited(1), 1), outcome).toMatchObject({ conclusion: 'exit_status', checks: [{ id: 'client.exit', passed: true }] });
    }
  });

  it('judges exit 0 on the wire alone when the call gave a result, and as a false success when it failed', () => {
    expect(judgeExitStatus(item, want('TOOL_ERROR'), exited(0), 1)).toMatchObject({ conclusion: 'wire_only', checks: [{ passed: true }] });
    const judged = judgeExitStatus(item, want('HTTP_ERROR'), exited(0), 1);
    expect(judged).toMatchObject({ conclusion: 'wire_only', checks: [{ id: 'client.exit', level: 'MUST', passed: false }] });
    expect(judged.checks[0]!.message).toContain('false success');
  });

  it('concludes nothing for a client that made no call, was killed by the runner or crashed, and says why', () => {
    expect(judgeExitStatus(item, want('HTTP_ERROR'), exited(1), 0)).toEqual({ conclusion: 'none', checks: [], nothing: 'no tools/call request was made' });
    expect(judgeExitStatus(item, want('NO_RESPONSE'), exited(null, 'SIGKILL', { timedOut: true }), 1)).toEqual({ conclusion: 'none', checks: [], nothing: 'killed at its time limit after 5 ms without a verdict' });
    expect(judgeExitStatus(item, want('HTTP_ERROR'), exited(null, 'SIGSEGV', { crashed: true }), 1)).toEqual({ conclusion: 'none', checks: [], nothing: 'crashed, killed by SIGSEGV, without a verdict' });
    // A shell's child that crashed: the exit status carries the signal (128 + 11).
    expect(judgeExitStatus(item, want('HTTP_ERROR'), exited(139, null, { crashed: true }), 1)).toEqual({ conclusion: 'none', checks: [], nothing: 'crashed, exit 139 (SIGSEGV), without a verdict' });
  });

  it('grades a failed exit check: exit 0 on a failure is a false success, a failed exit on a result a false failure', () => {
    expect(judgeExitStatus(item, want('INVALID_ENVELOPE'), exited(0), 1).checks).toMatchObject([{ passed: false, consequence: 'false-success' }]);
    expect(judgeExitStatus(item, want('TOOL_ERROR'), exited(2), 1).checks).toMatchObject([{ passed: false, consequence: 'false-failure' }]);
    expect(judgeExitStatus(item, want('HTTP_ERROR'), exited(2), 1).checks[0]).not.toHaveProperty('consequence');
  });

  it('leaves a reported verdict, valid or not, to the outcome checks', () => {
    expect(judgeExitStatus(item, want('TOOL_SUCCESS'), { ...exited(13), verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }] }, 1)).toEqual({ conclusion: 'verdict', checks: [] });
    expect(judgeExitStatus(item, want('TOOL_SUCCESS'), { ...exited(13), invalidVerdicts: [{ index: 0, value: 'x', problem: 'not JSON' }] }, 1).conclusion).toBe('verdict');
  });

  it("reads exit 0 as an accepted alternative's result: a server fault's real result fails only its level, costing imprecise", () => {
    const realResult = { outcome: 'TOOL_SUCCESS' as const, level: 'POLICY' as const, spec: [{ ref: 'SH26 § Receiving Messages' }], why: "the fault is the server's", consequence: 'imprecise' as const };
    const judged = judgeExitStatus(item, want('INVALID_ENVELOPE'), exited(0), 1, [realResult]);
    expect(judged.checks).toMatchObject([{ id: 'client.exit', level: 'POLICY', passed: false, consequence: 'imprecise' }]);
    expect(judged.checks[0]!.message).toBe(
      "client.exit: the client exited 0 (a result) on a call whose strict reading is INVALID_ENVELOPE; its result is TOOL_SUCCESS, an alternative the spec allows, at POLICY (SH26 § Receiving Messages): the fault is the server's",
    );
    // A non-zero exit agrees with the expectation; an alternative without a result changes nothing for exit 0.
    expect(judgeExitStatus(item, want('INVALID_ENVELOPE'), exited(1), 1, [realResult]).checks).toMatchObject([{ passed: true }]);
    const waits = { outcome: 'STREAM_INCOMPLETE' as const, level: 'SHOULD' as const, spec: [{ ref: 'L25 § Timeouts' }], why: 'a client may wait' };
    expect(judgeExitStatus(item, want('INVALID_ENVELOPE'), exited(0), 1, [waits]).checks).toMatchObject([{ level: 'MUST', consequence: 'false-success' }]);
  });

  it('reads a non-zero exit as an accepted alternative without a result, at its level and with its consequence', () => {
    const strict = { outcome: 'INVALID_TOOL_RESULT' as const, level: 'SHOULD' as const, spec: [{ ref: 'B26 § `_meta`' }], why: 'a validating client rejects it' };
    expect(judgeExitStatus(item, want('TOOL_SUCCESS'), exited(1), 1, [strict]).checks).toMatchObject([{ id: 'client.exit', level: 'SHOULD', passed: false, consequence: 'false-failure' }]);
  });

  it('holds the exit check at the case outcome level, on the last call', () => {
    const relaxed = makeCase([{ body: { json: SUCCESS_JSON } }], { client: { calls: 2, outcomeLevel: 'SHOULD' } });
    const judged = judgeExitStatus(relaxed, [{ outcome: 'HTTP_ERROR' }, { outcome: 'TOOL_SUCCESS' }], { ...exited(2), verdicts: [null, null] }, 2);
    expect(judged.checks).toMatchObject([{ id: 'client.exit@2', level: 'SHOULD', passed: false }]);
  });

  it.each<[number | null, string | null, string]>([
    [1, null, 'exit 1'],
    [128, null, 'exit 128'],
    [129, null, 'exit 129 (SIGHUP)'],
    [137, null, 'exit 137 (SIGKILL)'],
    [255, null, 'exit 255'],
    [null, null, 'exit null'],
    [0, 'SIGTERM', 'killed by SIGTERM'],
  ])('describes exit code %s, signal %s as %j (a shell reports death by signal N as 128+N)', (code, signal, actual) => {
    const judged = judgeExitStatus(item, want('HTTP_ERROR'), exited(code, signal), 1);
    expect(judged).toMatchObject({ conclusion: 'exit_status', checks: [{ passed: true, actual }] });
  });

  it('states what was expected and concluded, word for word', () => {
    expect(judgeExitStatus(item, want('TOOL_SUCCESS'), exited(0), 1).checks[0]).toMatchObject({
      expected: 'exit 0: the call gave a result (TOOL_SUCCESS)',
      actual: 'exit 0',
      message: 'client.exit: exit 0, no verdict: judged on the wire alone (expected TOOL_SUCCESS)',
    });
    expect(judgeExitStatus(item, want('HTTP_ERROR'), exited(0), 1).checks[0]).toMatchObject({
      expected: 'a non-zero exit: the call failed (HTTP_ERROR)',
      message: 'client.exit: the client exited 0 (a result) on a call that failed with HTTP_ERROR: a false success',
    });
    expect(judgeExitStatus(item, want('TOOL_SUCCESS'), exited(3), 1).checks[0]!.message).toBe('client.exit: the client failed a call that succeeded (TOOL_SUCCESS): exit 3, no verdict');
    expect(judgeExitStatus(item, want('HTTP_ERROR'), exited(3), 1).checks[0]!.message).toBe('client.exit: exit 3, no verdict: the call failed, as expected (HTTP_ERROR); judged on the exit status alone');
  });

  it('concludes nothing for a target that is not a process (no exit code)', () => {
    const none = { conclusion: 'none', checks: [], nothing: 'the target reported no verdict' };
    expect(judgeExitStatus(item, want('HTTP_ERROR'), { verdicts: [null] }, 1)).toEqual(none);
    expect(judgeExitStatus(item, want('HTTP_ERROR'), { verdicts: [null], run: { timedOut: false, durationMs: 5 } }, 1)).toEqual(none);
  });

  it('looks only at the last call: a verdict or an invalid verdict for an earlier one does not count', () => {
    const two: ExpectedVerdict[] = [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'HTTP_ERROR' }];
    const earlier = { ...exited(1), verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }, null] } as TargetOutcome;
    expect(judgeExitStatus(item, two, earlier, 2)).toMatchObject({ conclusion: 'exit_status', checks: [{ id: 'client.exit@2', passed: true }] });
    const invalidEarlier = { ...exited(1), verdicts: [null, null], invalidVerdicts: [{ index: 0, value: 'x', problem: 'not JSON' }] } as TargetOutcome;
    expect(judgeExitStatus(item, two, invalidEarlier, 2).conclusion).toBe('exit_status');
  });
});
