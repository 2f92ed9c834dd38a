// What the default wire checks say: a report prints the message of every check, failed or passed,
// so each states what was expected and what the client sent.
import { describe, expect, it } from 'vitest';
import { makeCase } from '../../mock-server/test-cases.js';
import type { Check } from '../../vocabulary/types.js';
import { judgeWireRules } from './judge-wire-rules.js';
import { readWireCalls, type WireCall } from './read-wire-calls.js';
import { makeClientRecording, makeToolCallPost } from './test-recordings.js';

const V26 = '2026-07-28';
const posts = (count: number): WireCall[] => readWireCalls(makeClientRecording(...Array.from({ length: count }, (_, i) => makeToolCallPost({ id: i + 1 }))), V26);
const find = (checks: Check[], id: string): Check => checks.find((check) => check.id === id)!;

describe('the default wire checks state what was expected and sent', () => {
  it.each<[number, number, string]>([
    [1, 1, 'wire.tool-called: 1 explicit call(s) expected, 1 tools/call POST(s) sent'],
    [1, 0, 'wire.tool-called: 1 explicit call(s) expected, 0 tools/call POST(s) sent (nothing to judge the client on)'],
    [3, 2, 'wire.tool-called: 3 explicit call(s) expected, 2 tools/call POST(s) sent (nothing to judge the client on)'],
  ])('wire.tool-called, %i explicit, %i sent', (explicit, sent, message) => {
    expect(find(judgeWireRules(makeCase([], { client: { calls: explicit } }), V26, posts(sent)), 'wire.tool-called').message).toBe(message);
  });

  it('wire.no-auto-replay says the tool was not replayed, and points at no exchange when it was not', () => {
    const check = find(judgeWireRules(makeCase([], { tool: { name: 'synthetic_tool' } }), V26, posts(1)), 'wire.no-auto-replay');
    expect(check.message).toBe('wire.no-auto-replay: the tool (neither read-only nor idempotent) was not replayed');
    expect(check.exchange).toBeUndefined();
  });

  it('lists the case rules first, in their order, then the defaults', () => {
    const item = makeCase([], { client: { wire: [{ rule: 'reissue-new-id', level: 'MUST' }, { rule: 'retry-after', level: 'POLICY' }] } });
    expect(judgeWireRules(item, V26, posts(1)).map((check) => check.id)).toEqual(['wire.reissue-new-id', 'wire.retry-after', 'wire.tool-called', 'wire.no-unsafe-retry', 'wire.no-auto-replay']);
  });
});
