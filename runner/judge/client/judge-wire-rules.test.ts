import { describe, expect, it } from 'vitest';
import type { Case, ToolSpec, WireRule } from '../../cases/case-types.js';
import { makeCase } from '../../mock-server/test-cases.js';
import type { Check } from '../../vocabulary/types.js';
import { judgeWireRules } from './judge-wire-rules.js';
import { readWireCalls, type WireCall } from './read-wire-calls.js';
import { makeClientRecording, makeToolCallPost, type PostOptions } from './test-recordings.js';

const V26 = '2026-07-28';
const FAILED_503 = { status: 503, body: '' };
const callsOf = (...posts: PostOptions[]): WireCall[] => readWireCalls(makeClientRecording(...posts.map((post, i) => makeToolCallPost({ id: i + 1, ...post }))), V26);
const find = (checks: Check[], id: string): Check | undefined => checks.find((check) => check.id === id);
const withTool = (annotations: ToolSpec['annotations'], overrides: Partial<Case> = {}): Case => makeCase([], { tool: { name: 'synthetic_tool', annotations }, ...overrides });

describe('the default no-replay policy: a tool that is neither read-only nor idempotent is not sent again', () => {
  // Built inside each test, not at collection: StrykerJS counts code run at collection as static.
  const replayed = (): WireCall[] => callsOf(FAILED_503, {});
  it.each<[string, ToolSpec['annotations'], boolean]>([
    ['only readOnlyHint', { readOnlyHint: true }, false],
    ['only idempotentHint', { idempotentHint: true }, false],
    ['both hints', { readOnlyHint: true, idempotentHint: true }, false],
    ['idempotentHint beside a false readOnlyHint', { readOnlyHint: false, idempotentHint: true }, false],
    ['readOnlyHint beside a false idempotentHint', { readOnlyHint: true, idempotentHint: false }, false],
    ['no hints', {}, true],
    ['both hints false', { readOnlyHint: false, idempotentHint: false }, true],
    ['only destructiveHint', { destructiveHint: true }, true],
    ['no annotations', undefined, true],
  ])('a tool with %s is judged on replays: %s', (_title, annotations, judged) => {
    const check = find(judgeWireRules(withTool(annotations), V26, replayed()), 'wire.no-auto-replay');
    if (!judged) expect(check).toBeUndefined();
    else expect(check).toMatchObject({ level: 'POLICY', passed: false, expected: 0, actual: 1, exchange: 2 });
  });

  it('passes a single call, counts only replays beyond the explicit calls, and never counts MRTR follow-ups', () => {
    expect(find(judgeWireRules(withTool({}), V26, callsOf({})), 'wire.no-auto-replay')).toMatchObject({ passed: true, actual: 0 });
    expect(find(judgeWireRules(withTool({}), V26, callsOf({}, { params: { requestState: 's' } })), 'wire.no-auto-replay')).toMatchObject({ passed: true, actual: 0 });
    const twoExplicit = withTool({}, { client: { calls: 2 } });
    expect(find(judgeWireRules(twoExplicit, V26, callsOf({}, {})), 'wire.no-auto-replay')).toMatchObject({ passed: true, actual: 0 });
    const three = find(judgeWireRules(twoExplicit, V26, callsOf({}, {}, {}, {})), 'wire.no-auto-replay');
    expect(three).toMatchObject({ passed: false, actual: 2, exchange: 3 });
    expect(three?.message).toBe('wire.no-auto-replay: the tool is neither read-only nor idempotent, yet it was sent 2 more time(s) than the 2 explicit call(s)');
  });

  it('gives way to the case\'s own tool-call-posts rule, in the versions it applies to', () => {
    const counted = withTool({}, { client: { wire: [{ rule: 'tool-call-posts', level: 'POLICY', min: 1, max: 2, versions: [V26] }] } });
    const checks = judgeWireRules(counted, V26, replayed());
    expect(find(checks, 'wire.no-auto-replay')).toBeUndefined();
    expect(find(checks, 'wire.tool-call-posts')).toMatchObject({ passed: true, actual: 2, expected: { min: 1, max: 2 } });
    expect(find(judgeWireRules(counted, '2025-11-25', replayed()), 'wire.no-auto-replay')).toMatchObject({ passed: false });
    expect(find(judgeWireRules(counted, '2025-11-25', replayed()), 'wire.tool-call-posts')).toBeUndefined();
  });
});

describe('wire.no-unsafe-retry: a re-send of a non-idempotent tool after an answer that left its outcome unknown is an unsafe retry at MUST', () => {
  const RESET = { status: 0, ending: 'reset' } as PostOptions;
  const unsafe = (checks: Check[]) => find(checks, 'wire.no-unsafe-retry');
  it.each<[string, PostOptions]>([
    ['a reset before any status (NO_RESPONSE)', RESET],
    ['an HTTP 503 (HTTP_ERROR)', FAILED_503],
    ['a 2xx stream that ended without the response (STREAM_INCOMPLETE)', { status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, body: ': open\n\n' }],
  ])('after %s', (_title, first) => {
    const check = unsafe(judgeWireRules(withTool({}), V26, callsOf(first, {})));
    expect(check).toMatchObject({ level: 'MUST', passed: false, consequence: 'unsafe-retry', expected: 0, actual: 1, exchange: 2 });
    expect(check?.message).toMatch(/^wire\.no-unsafe-retry: POST 2 re-sent the tool \(neither read-only nor idempotent\) after POST 1 left its outcome unknown \(/);
  });

  it("holds whatever the case's own tool-call-posts rule grades at POLICY (no-response-reset's max 1)", () => {
    const counted = withTool({ readOnlyHint: false, idempotentHint: false }, { client: { wire: [{ rule: 'tool-call-posts', level: 'POLICY', min: 1, max: 1 }] } });
    const checks = judgeWireRules(counted, V26, callsOf(RESET, {}));
    expect(unsafe(checks)).toMatchObject({ level: 'MUST', passed: false, consequence: 'unsafe-retry' });
    expect(find(checks, 'wire.tool-call-posts')).toMatchObject({ level: 'POLICY', passed: false });
  });

  it('passes a single send, a re-send after a final answer, an idempotent or read-only tool, MRTR follow-ups and the explicit calls', () => {
    expect(unsafe(judgeWireRules(withTool({}), V26, callsOf(RESET)))).toMatchObject({ passed: true, actual: 0 });
    expect(unsafe(judgeWireRules(withTool({}), V26, callsOf({}, {})))).toMatchObject({ passed: true, actual: 0 });
    expect(unsafe(judgeWireRules(withTool({ idempotentHint: true }), V26, callsOf(RESET, {})))).toBeUndefined();
    expect(unsafe(judgeWireRules(withTool({ readOnlyHint: true }), V26, callsOf(RESET, {})))).toBeUndefined();
    expect(unsafe(judgeWireRules(withTool({}), V26, callsOf(RESET, { params: { requestState: 's' } })))).toMatchObject({ passed: true });
    expect(unsafe(judgeWireRules(withTool({}, { client: { calls: 2 } }), V26, callsOf(FAILED_503, {})))).toMatchObject({ passed: true, actual: 0 });
  });

  it("gives way to a case whose own tool-call-posts rule allows the re-send (the session expired: the request was never processed)", () => {
    const allowed = withTool({}, { client: { calls: 2, wire: [{ rule: 'tool-call-posts', level: 'MUST', min: 2, max: 3 }] } });
    expect(unsafe(judgeWireRules(allowed, V26, callsOf({}, { status: 404, body: '' }, {})))).toBeUndefined();
  });
});

describe('wire.tool-called and wire.tool-call-posts', () => {
  it.each<[number, number, boolean]>([
    [1, 0, false],
    [1, 1, true],
    [2, 1, false],
    [2, 3, true],
  ])('%i explicit call(s), %i POST(s): tool-called passed=%s', (explicit, posts, passed) => {
    const calls = callsOf(...Array.from({ length: posts }, () => ({})));
    expect(find(judgeWireRules(makeCase([], { client: { calls: explicit } }), V26, calls), 'wire.tool-called')).toMatchObject({ level: 'MUST', passed, expected: { min: explicit }, actual: posts });
  });

  it.each<[Partial<WireRule>, number, boolean, string]>([
    [{ min: 1, max: 1 }, 1, true, '1 tools/call POST(s) expected, 1 sent'],
    [{ min: 1, max: 1 }, 2, false, '1 tools/call POST(s) expected, 2 sent (no replay)'],
    [{ min: 2, max: 3 }, 1, false, '2–3 tools/call POST(s) expected, 1 sent (no replay)'],
    [{ min: 2, max: 3 }, 3, true, '2–3 tools/call POST(s) expected, 3 sent'],
    [{ min: 2 }, 5, true, 'at least 2 tools/call POST(s) expected, 5 sent'],
    [{ max: 1 }, 0, true, '0–1 tools/call POST(s) expected, 0 sent'],
  ])('tool-call-posts %o with %i POST(s)', (bounds, posts, passed, message) => {
    const rule: WireRule = { rule: 'tool-call-posts', level: 'MUST', why: 'no replay', ...bounds };
    const calls = callsOf(...Array.from({ length: posts }, () => ({})));
    const check = find(judgeWireRules(makeCase([], { client: { wire: [rule] } }), V26, calls), 'wire.tool-call-posts');
    expect(check).toMatchObject({ passed, actual: posts });
    expect(check?.message).toBe(`wire.tool-call-posts: ${message}`);
  });
});
