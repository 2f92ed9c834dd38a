import { describe, expect, it } from 'vitest';
import type { Case } from '../cases/case-types.js';
import { startMockServer } from '../mock-server/server.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { Check, ProtocolVersion, Recording, TargetOutcome, Verdict } from '../vocabulary/types.js';
import { judgeClient } from './judge-client.js';

const V25 = '2025-11-25';
const V26 = '2026-07-28';
const DESTRUCTIVE = { name: 'delete_record', annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false }, arguments: { record: 'r1' } };
const READ_ONLY = { name: 'read_record', annotations: { readOnlyHint: true, idempotentHint: true }, arguments: { record: 'r1' } };
const INPUT_REQUIRED = {
  jsonrpc: '2.0',
  result: { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'ok?', requestedSchema: { type: 'object', properties: {} } } } }, requestState: 'state-1' },
};
const success: Verdict = { outcome: 'TOOL_SUCCESS', layer: 'application' };

/** A scripted client: plays `script` against a real mock server and returns its recording. */
async function record(item: Case, version: ProtocolVersion, script: (send: Sender) => Promise<void>): Promise<Recording> {
  const server = await startMockServer({ case: item, protocolVersion: version });
  try {
    let sessionId: string | undefined;
    const send: Sender = async (message, headers = {}) => {
      const method = String(message.method ?? '');
      const base: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
      if (version === V26) Object.assign(base, { 'mcp-protocol-version': V26, 'mcp-method': method, 'mcp-name': String((message.params as { name?: string })?.name ?? '') });
      else if (method !== 'initialize') Object.assign(base, { 'mcp-protocol-version': V25, ...(sessionId ? { 'mcp-session-id': sessionId } : {}) });
      const response = await fetch(server.url, { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(message) });
      sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
      return response.text();
    };
    if (version === V25) {
      await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    await script(send);
    return server.recording();
  } finally {
    await server.close();
  }
}
type Sender = (message: Record<string, unknown>, headers?: Record<string, string>) => Promise<string>;

/**
 * The recording with its exchanges moved onto a planned clock: each answered at once (1 ms), and
 * exchange i+1 arriving waits[i] ms after exchange i's answer ended.
 */
function retime(recording: Recording, waits: number[]): Recording {
  let at = recording.exchanges[0]?.at ?? 0;
  const exchanges = recording.exchanges.map((exchange, index) => {
    if (index > 0) at += 1 + (waits[index - 1] ?? 0);
    return { ...exchange, at, ...(exchange.response ? { response: { ...exchange.response, endedAt: at + 1 } } : {}) };
  });
  return { ...recording, exchanges };
}

function toolCall(version: ProtocolVersion, id: number, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const meta = version === V26 ? { _meta: { 'io.modelcontextprotocol/protocolVersion': V26, 'io.modelcontextprotocol/clientCapabilities': {} } } : {};
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { record: 'r1' }, ...meta, ...extra } };
}

function find(checks: Check[], id: string): Check {
  const check = checks.find((c) => c.id === id);
  if (!check) throw new Error(`no check ${id}; have ${checks.map((c) => c.id).join(', ')}`);
  return check;
}

const reported = (...verdicts: (Verdict | null)[]): TargetOutcome => ({ verdicts, run: { exitCode: 0, signal: null, timedOut: false, durationMs: 5 } });

describe('judgeClient: the number of tools/call POSTs', () => {
  const item = makeCase([{ status: 503 }], {
    tool: DESTRUCTIVE,
    client: { wire: [{ rule: 'tool-call-posts', level: 'POLICY', min: 1, max: 1 }] },
    exchanges: [{ response: { status: 503 }, expect: { outcome: 'HTTP_ERROR', status: 503 } }],
  });

  it.each([V25, V26] as const)('passes one POST and flags a replay of a destructive tool after 503 (%s)', async (version) => {
    const once = await record(item, version, async (send) => void (await send(toolCall(version, 1, 'delete_record'))));
    const twice = await record(item, version, async (send) => {
      await send(toolCall(version, 1, 'delete_record'));
      await send(toolCall(version, 2, 'delete_record'));
    });
    const verdict: Verdict = { outcome: 'HTTP_ERROR', layer: 'transport', status: 503 };
    const good = judgeClient({ case: item, protocolVersion: version, outcome: reported(verdict), recording: once });
    expect(good.checks.filter((c) => !c.passed)).toEqual([]);
    const bad = judgeClient({ case: item, protocolVersion: version, outcome: reported(verdict), recording: twice });
    expect(find(bad.checks, 'wire.tool-call-posts')).toMatchObject({ level: 'POLICY', passed: false, expected: { min: 1, max: 1 }, actual: 2 });
  });

  it('applies the default no-replay policy to an unsafe tool when the case sets no count, and never to a read-only one', async () => {
    const plain = makeCase([{ status: 503 }], { tool: DESTRUCTIVE, exchanges: [{ response: { status: 503 }, expect: { outcome: 'HTTP_ERROR', status: 503 } }] });
    const twice = await record(plain, V26, async (send) => {
      await send(toolCall(V26, 1, 'delete_record'));
      await send(toolCall(V26, 2, 'delete_record'));
    });
    const judged = judgeClient({ case: plain, protocolVersion: V26, outcome: reported(null), recording: twice });
    expect(find(judged.checks, 'wire.no-auto-replay')).toMatchObject({ level: 'POLICY', passed: false, actual: 1, exchange: 2 });
    expect(find(judged.checks, 'wire.tool-called')).toMatchObject({ level: 'MUST', passed: true });
    const safe = judgeClient({ case: { ...plain, tool: READ_ONLY }, protocolVersion: V26, outcome: reported(null), recording: twice });
    expect(safe.checks.some((c) => c.id === 'wire.no-auto-replay')).toBe(false);
  });

  it('fails a client that never called the tool', async () => {
    const none = await record(makeCase([{ body: { json: SUCCESS_JSON } }]), V26, async () => undefined);
    const judged = judgeClient({ case: makeCase([{ body: { json: SUCCESS_JSON } }]), protocolVersion: V26, outcome: reported(null), recording: none });
    expect(find(judged.checks, 'wire.tool-called')).toMatchObject({ level: 'MUST', passed: false, actual: 0 });
  });
});

describe('judgeClient: MRTR follow-ups (2026-07-28)', () => {
  const item = makeCase([], {
    versions: [V26],
    exchanges: [
      { response: { body: { json: INPUT_REQUIRED } }, expect: { outcome: 'INPUT_REQUIRED' } },
      { request: { followUp: true }, response: { body: { json: SUCCESS_JSON } }, expect: { outcome: 'TOOL_SUCCESS' } },
    ],
    client: { wire: [{ rule: 'mrtr-follow-up', level: 'MUST' }] },
  });
  const followUp = (id: number, extra: Record<string, unknown>) => async (send: Sender) => {
    await send(toolCall(V26, 1, 'synthetic_tool'));
    await send(toolCall(V26, id, 'synthetic_tool', extra));
  };

  it.each([
    ['a right follow-up', followUp(2, { inputResponses: { confirm: { action: 'accept', content: {} } }, requestState: 'state-1' }), true, undefined],
    ['the same id', followUp(1, { inputResponses: { confirm: { action: 'accept' } }, requestState: 'state-1' }), false, 'reuses the id 1'],
    ['a changed requestState', followUp(2, { inputResponses: { confirm: { action: 'accept' } }, requestState: 'state-2' }), false, 'requestState "state-2"'],
    ['no requestState', followUp(2, { inputResponses: { confirm: { action: 'accept' } } }), false, 'requestState left out'],
    ['an answer under another key', followUp(2, { inputResponses: { other: { action: 'accept' } }, requestState: 'state-1' }), false, 'inputResponses keys ["other"]'],
    ['no follow-up at all', async (send: Sender) => void (await send(toolCall(V26, 1, 'synthetic_tool'))), false, 'no follow-up'],
  ])('judges %s', async (_title, script, passed, problem) => {
    const recording = await record(item, V26, script);
    const check = find(judgeClient({ case: item, protocolVersion: V26, outcome: reported(success), recording }).checks, 'wire.mrtr-follow-up');
    expect(check.passed).toBe(passed);
    if (problem) expect(check.message).toContain(problem);
  });

  it('flags a requestState invented when the server gave none', async () => {
    const stateless = { jsonrpc: '2.0', result: { resultType: 'input_required', inputRequests: INPUT_REQUIRED.result.inputRequests } };
    const noState = { ...item, exchanges: [{ ...item.exchanges[0]!, response: { body: { json: stateless } } }, item.exchanges[1]!] };
    const recording = await record(noState, V26, followUp(2, { inputResponses: { confirm: { action: 'accept' } }, requestState: 'made-up' }));
    const check = find(judgeClient({ case: noState, protocolVersion: V26, outcome: reported(success), recording }).checks, 'wire.mrtr-follow-up');
    expect(check.message).toContain('invented');
  });
});

describe('judgeClient: headers, Retry-After, ids', () => {
  it('checks Accept, MCP-Protocol-Version, Mcp-Method and Mcp-Name on every 2026 tools/call', async () => {
    const item = makeCase([{ body: { json: SUCCESS_JSON } }]);
    const recording = await record(item, V26, async (send) => void (await send(toolCall(V26, 1, 'synthetic_tool'), { accept: 'application/json', 'mcp-name': 'other' })));
    const checks = judgeClient({ case: item, protocolVersion: V26, outcome: reported(success), recording }).checks;
    expect(find(checks, 'header.accept@1')).toMatchObject({ level: 'MUST', passed: false, actual: 'application/json' });
    expect(find(checks, 'header.mcp-name@1')).toMatchObject({ passed: false, expected: 'synthetic_tool', actual: 'other' });
    expect(find(checks, 'header.mcp-method@1').passed).toBe(true);
    expect(find(checks, 'header.protocol-version@1').passed).toBe(true);
  });

  it('checks the 2025 session id the server issued and the version header', async () => {
    const item = makeCase([{ body: { json: SUCCESS_JSON } }]);
    const recording = await record(item, V25, async (send) => void (await send(toolCall(V25, 1, 'synthetic_tool'))));
    const checks = judgeClient({ case: item, protocolVersion: V25, outcome: reported(success), recording }).checks;
    expect(find(checks, 'header.session-id@1').passed).toBe(true);
    expect(find(checks, 'header.protocol-version@1').passed).toBe(true);
  });

  it('flags a retry sooner than Retry-After and a re-issue with the same id', async () => {
    const item = makeCase([], {
      tool: READ_ONLY,
      exchanges: [
        { response: { status: 429, headers: { 'Retry-After': '1' }, contentType: null }, expect: { outcome: 'HTTP_ERROR', status: 429 } },
        { response: { body: { json: SUCCESS_JSON } }, expect: { outcome: 'TOOL_SUCCESS' } },
      ],
      client: { wire: [{ rule: 'retry-after', level: 'POLICY' }, { rule: 'reissue-new-id', level: 'MUST' }] },
    });
    const recording = await record(item, V26, async (send) => {
      await send(toolCall(V26, 1, 'read_record'));
      await send(toolCall(V26, 1, 'read_record'));
    });
    // Retried 10 ms after the 429 on the recording's own clock (a stall of a second would turn a real one into a wait).
    const judged = judgeClient({ case: item, protocolVersion: V26, outcome: reported(success), recording: retime(recording, [10]) });
    expect(find(judged.checks, 'wire.retry-after')).toMatchObject({ level: 'POLICY', passed: false, exchange: 2 });
    expect(find(judged.checks, 'wire.reissue-new-id')).toMatchObject({ passed: false, actual: 1 });
    // The client retried to the success: the last POST's script step sets the expected outcome.
    expect(judged.expected).toEqual([{ outcome: 'TOOL_SUCCESS' }]);
  });
});

describe('judgeClient: retry backoff', () => {
  const item = makeCase([], {
    tool: READ_ONLY,
    exchanges: [
      { response: { status: 503, contentType: null }, expect: { outcome: 'HTTP_ERROR', status: 503 } },
      { response: { status: 503, contentType: null }, expect: { outcome: 'HTTP_ERROR', status: 503 } },
      { response: { body: { json: SUCCESS_JSON } }, expect: { outcome: 'TOOL_SUCCESS' } },
    ],
    client: { wire: [{ rule: 'retry-backoff', level: 'POLICY', min: 100 }] },
  });

  // The waits are set on the recording's own clock, not slept: a timer late by a stall of the
  // thread made a shortened wait read as a backoff (150 ms planned, 400 ms measured, under load).
  it.each([
    ['retries at once', [0, 0], false, /POST 2 retried 0 ms after a failed answer \(at least 100 ms expected\)/],
    ['shortens the wait', [400, 150], false, /POST 3 waited 150 ms, less than the 400 ms before it \(no backoff\)/],
    ['backs off', [150, 700], true, /wire\.retry-backoff/],
  ])('a client that %s', async (_name, waits, passed, message) => {
    const recording = await record(item, V26, async (send) => {
      for (let index = 0; index <= waits.length; index++) await send(toolCall(V26, index + 1, 'read_record'));
    });
    const check = find(judgeClient({ case: item, protocolVersion: V26, outcome: reported(success), recording: retime(recording, waits) }).checks, 'wire.retry-backoff');
    expect(check).toMatchObject({ level: 'POLICY', passed });
    expect(check.message).toMatch(message);
  });

  it('passes a client that does not retry at all', async () => {
    const recording = await record(item, V26, async (send) => void (await send(toolCall(V26, 1, 'read_record'))));
    expect(find(judgeClient({ case: item, protocolVersion: V26, outcome: reported(success), recording }).checks, 'wire.retry-backoff')).toMatchObject({ passed: true, actual: 'no retry' });
  });
});

describe('judgeClient: what the client reported', () => {
  const item = makeCase([], { exchanges: [{ response: { status: 503 }, expect: { outcome: 'HTTP_ERROR', status: 503 } }] });

  it('holds the report to the expected outcome and status, and judges a silent client on the wire alone', async () => {
    const recording = await record(item, V26, async (send) => void (await send(toolCall(V26, 1, 'synthetic_tool'))));
    const wrong = judgeClient({ case: item, protocolVersion: V26, outcome: reported({ outcome: 'HTTP_ERROR', layer: 'transport', status: 500 }), recording });
    expect(find(wrong.checks, 'client.outcome').passed).toBe(true);
    // Same outcome, another status: the same recovery, so imprecise (SHOULD).
    expect(find(wrong.checks, 'client.status')).toMatchObject({ level: 'SHOULD', passed: false, expected: 503, actual: 500, consequence: 'imprecise' });
    // Without a verdict the exit status is the conclusion: 1 says "failed", as the 503 did.
    const silent = judgeClient({ case: item, protocolVersion: V26, outcome: { verdicts: [null], run: { exitCode: 1, signal: null, timedOut: false, durationMs: 5 } }, recording });
    expect(find(silent.checks, 'client.outcome')).toMatchObject({ level: 'INFO', actual: 'not reported' });
    expect(silent.checks.filter((c) => !c.passed && c.level !== 'INFO')).toEqual([]);
    expect(silent.conclusion).toBe('exit_status');
    // Exit 0 says "the call gave a result": a false success on a 503.
    const falseSuccess = judgeClient({ case: item, protocolVersion: V26, outcome: reported(null), recording });
    expect(falseSuccess.conclusion).toBe('wire_only');
    expect(falseSuccess.checks.filter((c) => !c.passed && c.level !== 'INFO').map((c) => [c.id, c.consequence])).toEqual([['client.exit', 'false-success']]);
  });

  it('uses client.outcomeLevel, one check per explicit call, and flags a report that is not a verdict', async () => {
    const two = { ...item, client: { calls: 2, outcomeLevel: 'SHOULD' as const } };
    const recording = await record(two, V26, async (send) => {
      await send(toolCall(V26, 1, 'synthetic_tool'));
      await send(toolCall(V26, 2, 'synthetic_tool'));
    });
    const judged = judgeClient({ case: two, protocolVersion: V26, outcome: { ...reported(null, null), invalidVerdicts: [{ index: 1, value: 'x', problem: 'not JSON' }] }, recording });
    expect(find(judged.checks, 'client.outcome@1')).toMatchObject({ level: 'INFO' });
    expect(find(judged.checks, 'client.outcome@2')).toMatchObject({ level: 'SHOULD', passed: false });
  });

  it('puts request schema results into the cell with sender target', async () => {
    const recording = await record(item, V26, async (send) => void (await send(toolCall(V26, 1, 'synthetic_tool'))));
    const checkRequest = (version: ProtocolVersion) => ({ definition: 'CallToolRequest', valid: version === V25, errors: version === V25 ? [] : ['/params: bad'] });
    const judged = judgeClient({ case: item, protocolVersion: V26, outcome: reported(null), recording, checkRequest });
    expect(judged.schema).toEqual([{ version: V26, definition: 'CallToolRequest', valid: false, errors: ['/params: bad'], sender: 'target', exchange: 0 }]);
    expect(find(judged.checks, 'schema.request@1')).toMatchObject({ level: 'MUST', passed: false });
  });
});
