// The rules of describeObservedFailure stated one at a time, on hand-made checks: which check
// the sentence is about, which call and exchange it reads, how each answer and each reading is
// worded, and what the "also fails" tail lists. describe-observed.test.ts runs the real judge.
import { describe, expect, it } from 'vitest';
import { makeCell, makeCheck } from '../../test/make-run-result.js';
import { judgeExitStatus } from '../judge/client/judge-exit-status.js';
import { ALTERNATIVE_NOTE } from '../judge/judge-conclusion.js';
import { makeCase } from '../mock-server/test-cases.js';
import type { Case, IdMode } from '../cases/case-types.js';
import type { Cell, Check, Consequence, ExpectedVerdict, Verdict } from '../vocabulary/types.js';
import { describeObservedFailure } from './describe-observed.js';

const verdict = (outcome: Verdict['outcome'], extra: Partial<Verdict> = {}): Verdict => ({ outcome, layer: 'application', ...extra });
const failure = (overrides: Partial<Check>): Check => makeCheck({ id: 'outcome@1', passed: false, message: 'failed', ...overrides });

/** A failing cell with one graded outcome check on its only call. */
function gradedCell(want: ExpectedVerdict, got: Verdict | null, consequence: Consequence = 'false-success'): Cell {
  const check = failure({ expected: want.outcome, actual: got?.outcome ?? null, consequence });
  return makeCell({ status: 'fail', checks: [check], expected: [want], actual: [got] });
}

const tool = verdict('TOOL_SUCCESS');

describe('describeObservedFailure: how the server answer is worded', () => {
  it.each<[string, IdMode, string]>([
    ['an id of the wrong JSON type (string)', 'as-string', 'a response whose id has the wrong JSON type'],
    ['an id of the wrong JSON type (number)', 'as-number', 'a response whose id has the wrong JSON type'],
    ['no id', 'omit', 'a response without an id'],
    ['a null id', 'null', 'a response with a null id'],
    ['the echoed id: the expected outcome words it', 'echo', 'a message that is not a valid response to this request'],
  ])('a scripted response with %s', (_title, id, answer) => {
    const item: Case = makeCase([{ id }]);
    expect(describeObservedFailure(gradedCell({ outcome: 'INVALID_ENVELOPE' }, tool), item)).toBe(`reads ${answer} as a tool result (false success)`);
  });

  it.each<[ExpectedVerdict, string]>([
    [{ outcome: 'HTTP_ERROR' }, 'an HTTP error status'],
    [{ outcome: 'JSONRPC_ERROR' }, 'a JSON-RPC error'],
    [{ outcome: 'JSONRPC_ERROR', code: -32603 }, 'a JSON-RPC error -32603'],
    [{ outcome: 'MALFORMED_JSON' }, 'a body that is not JSON'],
    [{ outcome: 'INVALID_TOOL_RESULT' }, 'an invalid tool result'],
    [{ outcome: 'STREAM_INCOMPLETE' }, 'a stream that ended without the response'],
    [{ outcome: 'NO_RESPONSE' }, 'no answer at all'],
  ])('the expected %o reads "%s"', (want, answer) => {
    expect(describeObservedFailure(gradedCell(want, tool))).toBe(`reads ${answer} as a tool result (false success)`);
  });

  it("reads the answer of a one-exchange case's only exchange even when the check names none", () => {
    const cell = makeCell({ status: 'fail', checks: [failure({ exchange: undefined, expected: 'INVALID_ENVELOPE', consequence: 'false-success' })], expected: [{ outcome: 'INVALID_ENVELOPE' }], actual: [tool] });
    expect(describeObservedFailure(cell, makeCase([{ id: 'omit' }]))).toBe('reads a response without an id as a tool result (false success)');
  });

  it('reads the answer of the exchange the check is about in a case of several exchanges', () => {
    const item = makeCase([{}, { id: 'null' }]);
    const check = failure({ id: 'outcome@2', exchange: 1, expected: 'INVALID_ENVELOPE', consequence: 'false-success' });
    const cell = makeCell({ status: 'fail', checks: [check], expected: [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'INVALID_ENVELOPE' }], actual: [tool, tool] });
    expect(describeObservedFailure(cell, item)).toBe('reads a response with a null id as a tool result (false success)');
  });
});

describe('describeObservedFailure: how the reading is worded', () => {
  it.each<[Verdict, string]>([
    [verdict('TOOL_ERROR'), 'a tool error'],
    [verdict('HTTP_ERROR', { layer: 'transport' }), 'an HTTP error without its status'],
    [verdict('HTTP_ERROR', { layer: 'transport', status: 502 }), 'an HTTP 502'],
    [verdict('JSONRPC_ERROR', { layer: 'protocol', code: -32601 }), 'a JSON-RPC error -32601'],
    [verdict('INPUT_REQUIRED'), 'a request for input'],
    [verdict('MALFORMED_JSON', { layer: 'protocol' }), 'malformed JSON'],
    [verdict('INVALID_ENVELOPE', { layer: 'protocol' }), 'an invalid response'],
  ])('a tool result read as %o: "%s"', (got, reading) => {
    expect(describeObservedFailure(gradedCell({ outcome: 'TOOL_SUCCESS' }, got, 'false-failure'))).toBe(`reads a tool result as ${reading} (false failure)`);
  });

  it('an unanswered reading of an unanswered call is a reading, not "reports the call unanswered"', () => {
    expect(describeObservedFailure(gradedCell({ outcome: 'NO_RESPONSE' }, verdict('STREAM_INCOMPLETE', { layer: 'transport' }), 'imprecise'))).toBe(
      'reads no answer at all as an incomplete stream (imprecise)',
    );
    expect(describeObservedFailure(gradedCell({ outcome: 'STREAM_INCOMPLETE' }, verdict('NO_RESPONSE', { layer: 'transport' }), 'imprecise'))).toBe(
      'reads a stream that ended without the response as no response at all (imprecise)',
    );
  });

  it.each(['timeout', 'Time-out', 'timed out', 'TIMEDOUT'])('a target whose detail says "%s" waits for its own timeout', (detail) => {
    const got = verdict('NO_RESPONSE', { layer: 'transport', detail: `gave up: ${detail}` });
    expect(describeObservedFailure(gradedCell({ outcome: 'HTTP_ERROR', status: 503 }, got, 'unsafe-retry'))).toBe('waits for its own timeout instead of rejecting an HTTP 503 (unsafe retry)');
  });

  it('an unanswered reading without a timeout in its detail reports the call unanswered; a tool error is "read", an error "rejected"', () => {
    expect(describeObservedFailure(gradedCell({ outcome: 'TOOL_ERROR' }, verdict('NO_RESPONSE', { layer: 'transport' }), 'false-failure'))).toBe(
      'reports the call unanswered instead of reading a tool error (isError: true) (false failure)',
    );
    expect(describeObservedFailure(gradedCell({ outcome: 'JSONRPC_ERROR', code: -32602 }, verdict('STREAM_INCOMPLETE', { layer: 'transport', detail: 'the time ran out' }), 'lost-recovery'))).toBe(
      'reports the call unanswered instead of rejecting a JSON-RPC error -32602 (lost recovery)',
    );
  });
});

describe('describeObservedFailure: a call without a conclusion', () => {
  it('a no-conclusion check concludes nothing even beside a recorded verdict, and says why', () => {
    const check = failure({ consequence: 'no-conclusion', message: "outcome@1: the target's answer is not a verdict: layer must be one of transport" });
    const cell = makeCell({ status: 'fail', checks: [check], expected: [{ outcome: 'TOOL_ERROR' }], actual: [tool] });
    expect(describeObservedFailure(cell)).toBe('concludes nothing on a tool error (isError: true): layer must be one of transport (no conclusion)');
  });

  it('the why is quoted whole or not at all: a problem of several lines is left out, never cut at a line end', () => {
    const check = failure({ consequence: 'no-conclusion', message: "outcome@1: the target's answer is not a verdict: the verdict could not be read (Error: first\nsecond)" });
    const cell = makeCell({ status: 'fail', checks: [check], expected: [{ outcome: 'TOOL_SUCCESS' }], actual: [null] });
    expect(describeObservedFailure(cell)).toBe('concludes nothing on a tool result (no conclusion)');
  });

  it('a call with no verdict recorded concludes nothing, whatever the grade of its check', () => {
    const check = failure({ consequence: 'false-failure', message: 'outcome@1: expected TOOL_SUCCESS, not reported' });
    const cell = makeCell({ status: 'fail', checks: [check], expected: [{ outcome: 'TOOL_SUCCESS' }], actual: [] });
    expect(describeObservedFailure(cell)).toBe('concludes nothing on a tool result (false failure)');
  });

  it('a client that exited without a verdict on the second of two calls is judged by its exit status', () => {
    const item = makeCase([{}, {}]);
    const want: ExpectedVerdict[] = [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'HTTP_ERROR', status: 503 }];
    const zero = judgeExitStatus(item, want, { verdicts: [null, null], run: { exitCode: 0, signal: null, timedOut: false, durationMs: 5 } }, 2);
    expect(zero.checks.map((check) => check.id)).toEqual(['client.exit@2']);
    expect(describeObservedFailure(makeCell({ status: 'fail', checks: zero.checks, expected: want, actual: [null, null] }))).toBe(
      'exits 0 without a verdict, as if an HTTP 503 were a result (false success)',
    );
  });
});

describe('describeObservedFailure: which check and which call', () => {
  it('a failed INFO check is never the subject nor listed; with only those, the first of them is named', () => {
    const info = failure({ id: 'client.outcome', level: 'INFO', message: 'client.outcome: not reported (judged on the wire alone)' });
    const should = failure({ id: 'wire.retry-after', level: 'SHOULD', message: 'retried before Retry-After elapsed' });
    const graded = failure({ consequence: 'false-success', expected: 'HTTP_ERROR' });
    const cell = (checks: Check[]) => makeCell({ status: 'fail', checks, expected: [{ outcome: 'HTTP_ERROR', status: 503 }], actual: [tool] });
    expect(describeObservedFailure(cell([info, graded]))).toBe('reads an HTTP 503 as a tool result (false success)');
    expect(describeObservedFailure(cell([info, should]))).toBe('fails retried before Retry-After elapsed');
    expect(describeObservedFailure(cell([makeCheck(), info]))).toBe('fails client.outcome: not reported (judged on the wire alone)');
  });

  it('a cell with no failed check is described by its status', () => {
    expect(describeObservedFailure(makeCell({ status: 'pass' }))).toBe('is pass');
  });

  it('a check with no expected verdict for its call reads the outcome the check expected', () => {
    const cell = makeCell({ status: 'fail', checks: [failure({ expected: 'HTTP_ERROR', consequence: 'false-success' })], expected: [], actual: [tool] });
    expect(describeObservedFailure(cell)).toBe('reads an HTTP error status as a tool result (false success)');
  });

  it("the call is the check's exchange, else its @n (past the ninth too), else the last call", () => {
    const want: ExpectedVerdict[] = Array.from({ length: 13 }, (_, i) => (i === 11 ? { outcome: 'HTTP_ERROR', status: 429 } : { outcome: 'TOOL_ERROR' }));
    const got = want.map(() => tool);
    const cell = (check: Check) => makeCell({ status: 'fail', checks: [check], expected: want, actual: got });
    expect(describeObservedFailure(cell(failure({ id: 'outcome@12', exchange: undefined, consequence: 'false-success' })))).toBe('reads an HTTP 429 as a tool result (false success)');
    expect(describeObservedFailure(cell(failure({ id: 'outcome', exchange: 11, consequence: 'false-success' })))).toBe('reads an HTTP 429 as a tool result (false success)');
    const two: ExpectedVerdict[] = [{ outcome: 'TOOL_ERROR' }, { outcome: 'HTTP_ERROR', status: 500 }];
    const last = makeCell({ status: 'fail', checks: [failure({ id: 'client.outcome', exchange: undefined, consequence: 'false-success' })], expected: two, actual: [tool, tool] });
    expect(describeObservedFailure(last)).toBe('reads an HTTP 500 as a tool result (false success)');
    const first = makeCell({ status: 'fail', checks: [failure({ id: 'outcome', exchange: 0, consequence: 'false-success' })], expected: two, actual: [tool, tool] });
    expect(describeObservedFailure(first)).toBe('reads a tool error (isError: true) as a tool result (false success)');
  });

  it('a MUST failure is never tagged as an alternative the spec allows, even when its message says so', () => {
    const check = failure({ level: 'MUST', consequence: 'unsafe-retry', message: `outcome@1: expected INVALID_ENVELOPE, got NO_RESPONSE: ${ALTERNATIVE_NOTE}, at SHOULD` });
    const cell = makeCell({ status: 'fail', checks: [check], expected: [{ outcome: 'INVALID_ENVELOPE' }], actual: [verdict('NO_RESPONSE', { layer: 'transport' })] });
    expect(describeObservedFailure(cell)).toBe('reports the call unanswered instead of rejecting a message that is not a valid response to this request (unsafe retry)');
  });
});

describe('describeObservedFailure: the "also fails" tail', () => {
  const worst = failure({ consequence: 'false-success', expected: 'HTTP_ERROR' });
  const cell = (...others: Check[]) => makeCell({ status: 'fail', checks: [worst, ...others], expected: [{ outcome: 'HTTP_ERROR', status: 503 }], actual: [tool] });
  const wire = (...ids: string[]) => ids.map((id) => failure({ id, level: 'SHOULD' }));

  it('lists up to three other failed checks by id, once each, then how many more', () => {
    expect(describeObservedFailure(cell(...wire('wire.a', 'wire.b', 'wire.a')))).toBe('reads an HTTP 503 as a tool result (false success); also fails wire.a, wire.b');
    expect(describeObservedFailure(cell(...wire('wire.a', 'wire.b', 'wire.c')))).toBe('reads an HTTP 503 as a tool result (false success); also fails wire.a, wire.b, wire.c');
    expect(describeObservedFailure(cell(...wire('wire.a', 'wire.b', 'wire.c', 'wire.d', 'wire.e')))).toBe(
      'reads an HTTP 503 as a tool result (false success); also fails wire.a, wire.b, wire.c and 2 more',
    );
  });

  it("leaves out the status, code and layer checks of the worst check's call, however many calls there are", () => {
    expect(describeObservedFailure(cell(...wire('status@1', 'code@1', 'layer@1')))).toBe('reads an HTTP 503 as a tool result (false success)');
    const late = failure({ id: 'outcome@12', exchange: 11, consequence: 'false-success', expected: 'HTTP_ERROR' });
    const want: ExpectedVerdict[] = Array.from({ length: 12 }, () => ({ outcome: 'HTTP_ERROR', status: 503 }));
    const twelve = makeCell({ status: 'fail', checks: [late, ...wire('status@12', 'status@1')], expected: want, actual: want.map(() => tool) });
    expect(describeObservedFailure(twelve)).toBe('reads an HTTP 503 as a tool result (false success); also fails status@1');
  });

  it("a client's conclusion checks and a classifier's are apart: the same call's status is left out only beside an outcome of the same kind", () => {
    const want: ExpectedVerdict[] = [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'HTTP_ERROR', status: 503 }];
    const client = failure({ id: 'client.outcome@2', exchange: undefined, consequence: 'false-success', expected: 'HTTP_ERROR' });
    const clientCell = makeCell({ status: 'fail', checks: [client, ...wire('client.status@2', 'status@2')], expected: want, actual: [tool, tool] });
    expect(describeObservedFailure(clientCell)).toBe('reads an HTTP 503 as a tool result (false success); also fails status@2');
    const classifier = failure({ id: 'outcome@2', exchange: 1, consequence: 'false-success', expected: 'HTTP_ERROR' });
    const classifierCell = makeCell({ status: 'fail', checks: [classifier, ...wire('client.status@2', 'status@2')], expected: want, actual: [tool, tool] });
    expect(describeObservedFailure(classifierCell)).toBe('reads an HTTP 503 as a tool result (false success); also fails client.status@2');
    const bare = failure({ id: 'client.outcome', exchange: undefined, consequence: 'false-success', expected: 'HTTP_ERROR' });
    const bareCell = makeCell({ status: 'fail', checks: [bare, ...wire('client.status', 'client.code@1')], expected: [want[1]!], actual: [tool] });
    expect(describeObservedFailure(bareCell)).toBe('reads an HTTP 503 as a tool result (false success); also fails client.code@1');
  });

  it("beside a worst check judged on the exit status, the other calls' conclusion checks are listed", () => {
    const want: ExpectedVerdict[] = [{ outcome: 'HTTP_ERROR', status: 503 }, { outcome: 'HTTP_ERROR', status: 503 }];
    const exit = failure({ id: 'client.exit@2', exchange: undefined, consequence: 'false-success', actual: 'exit 0' });
    const cell = makeCell({ status: 'fail', checks: [exit, ...wire('client.status@1')], expected: want, actual: [verdict('HTTP_ERROR', { status: 500 }), null] });
    expect(describeObservedFailure(cell)).toBe('exits 0 without a verdict, as if an HTTP 503 were a result (false success); also fails client.status@1');
  });

  it('a check whose id only contains a conclusion word is not part of the conclusion', () => {
    const bare = failure({ id: 'outcome', consequence: 'false-success', expected: 'HTTP_ERROR' });
    const other = makeCell({ status: 'fail', checks: [bare, ...wire('wire.status-line', 'layer')], expected: [{ outcome: 'HTTP_ERROR', status: 503 }], actual: [tool] });
    expect(describeObservedFailure(other)).toBe('reads an HTTP 503 as a tool result (false success); also fails wire.status-line');
  });
});

describe("describeObservedFailure: a built-in adapter's cell is worded from what the library did", () => {
  const threwCall = { threw: { class: 'MCPClientError', name: 'MCPClientError', message: 'synthetic internal error', code: -32603 } };
  it("adds the library's class and code, never its message (a reason reads the same in every version)", () => {
    const cell = { ...gradedCell({ outcome: 'HTTP_ERROR', status: 500 }, verdict('JSONRPC_ERROR', { layer: 'protocol', code: -32603 }), 'imprecise'), observed: { calls: [threwCall], toolCallsSent: 1 } };
    expect(describeObservedFailure(cell)).toBe('reads an HTTP 500 as a JSON-RPC error -32603 (imprecise); the library threw MCPClientError -32603');
  });

  it('never says "concludes nothing" when the library threw or returned: the words are what it did', () => {
    for (const call of [threwCall, { returned: { content: [] } }]) {
      const cell = { ...gradedCell({ outcome: 'TOOL_SUCCESS' }, null, 'no-conclusion'), observed: { calls: [call], toolCallsSent: 1 } };
      const sentence = describeObservedFailure(cell);
      expect(sentence).not.toMatch(/concludes nothing/);
      expect(sentence).toMatch(/^gives an answer the adapter cannot read on a tool result \(no conclusion\); the library (threw MCPClientError -32603|returned a value)$/);
    }
  });

  it("words a library that hung until the host's last-resort abort, or a bridge that died, by what it did", () => {
    const hung = { ...gradedCell({ outcome: 'NO_RESPONSE' }, null, 'no-conclusion'), observed: { calls: [{ threw: { ...threwCall.threw, code: undefined, class: 'AbortError' }, hostAborted: true as const }], toolCallsSent: 1 } };
    expect(describeObservedFailure(hung)).toBe("hangs until the host's last-resort abort on no answer at all (no conclusion); the library hung until the host's last-resort abort, then threw AbortError");
    const died = { ...gradedCell({ outcome: 'NO_RESPONSE' }, null, 'no-conclusion'), observed: { calls: [{ returned: { received: 'nothing', exit: 'code 1' } }], toolCallsSent: 1 } };
    expect(describeObservedFailure(died)).toBe('dies without answering on no answer at all (no conclusion); the library bridge exited without answering');
  });

  it("words a command-line client's run by its exit status, and a run the host stopped as a hang", () => {
    const exited = { ...gradedCell({ outcome: 'HTTP_ERROR', status: 503 }, verdict('TOOL_SUCCESS', { layer: 'application' }), 'false-success'), observed: { calls: [{ returned: { exit: 0, stdout: '', stderr: '' } }], toolCallsSent: 1 } };
    expect(describeObservedFailure(exited)).toBe('reads an HTTP 503 as a tool result (false success); the library CLI exited 0');
    const stopped = { ...gradedCell({ outcome: 'NO_RESPONSE' }, null, 'no-conclusion'), observed: { calls: [{ returned: { exit: 'SIGTERM', stdout: '', stderr: '', stoppedByHost: true, afterMs: 9000 } }], toolCallsSent: 1 } };
    expect(describeObservedFailure(stopped)).toBe("hangs until the host's last-resort abort on no answer at all (no conclusion); the library CLI was stopped by the host's last resort");
    const died = { ...gradedCell({ outcome: 'NO_RESPONSE' }, null, 'no-conclusion'), observed: { calls: [{ returned: { exit: 'SIGSEGV', stdout: '', stderr: '' } }], toolCallsSent: 1 } };
    expect(describeObservedFailure(died)).toBe('dies without answering on no answer at all (no conclusion); the library CLI died (SIGSEGV)');
  });

  it('words an unsafe re-send from its wire check', () => {
    // As the judge writes it: `exchange` is the re-send's transcript position, not a call index.
    const check = makeCheck({ id: 'wire.no-unsafe-retry', level: 'MUST', passed: false, consequence: 'unsafe-retry', expected: 0, actual: 1, message: 'wire.no-unsafe-retry: POST 2 re-sent the tool', exchange: 9 });
    const cell = { ...makeCell({ status: 'fail', checks: [check], expected: [{ outcome: 'NO_RESPONSE' }], actual: [verdict('NO_RESPONSE', { layer: 'transport' })] }), observed: { calls: [{ threw: { class: 'TypeError', name: 'TypeError', message: 'fetch failed' } }], toolCallsSent: 2 } };
    expect(describeObservedFailure(cell)).toBe('re-sends the tool (neither read-only nor idempotent) after no answer at all, whose outcome it could not know (unsafe retry); the library threw TypeError');
  });
});
