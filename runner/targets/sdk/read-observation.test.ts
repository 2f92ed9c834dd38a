// The record-reading rules every stack mapper shares (read-observation.mjs): a cell keeps the
// library's own words, a gap names what the library did, "lost" depends on the last tools/call's
// status only, and only a code the server sent is the peer's. Found by issue 29's mutation run:
// the mappers' tests compared outcomes only, so words and edges were free to change.
import { describe, expect, it } from 'vitest';

interface Thrown {
  class?: string;
  name?: string;
  message?: unknown;
  code?: unknown;
  status?: unknown;
  instanceOf?: string[];
  cause?: Thrown;
  issues?: unknown;
}
interface ReadObservation {
  verdict(outcome: string, detail: unknown, extra?: Record<string, unknown>): { verdict: Record<string, unknown> };
  gap(stack: string, call: unknown): { gap: string };
  isA(thrown: Thrown | undefined, ...names: string[]): boolean;
  causeChain(thrown: Thrown | undefined): Thrown[];
  lostVerdict(context: { toolCallStatuses?: number[] }, detail: string): { verdict: { outcome: string; detail: string } };
  isPeerCode(context: { peerErrorCodes?: number[] }, code: unknown): boolean;
  describeThrown(thrown: Thrown | undefined): string;
  describeCall(call: unknown): string;
  isEnvelopeIssueList(issues: unknown): boolean;
}
// A literal path, so `vitest related` selects this test for the module.
const read = (await import('./read-observation.mjs' as string)) as ReadObservation;

describe('a cell keeps the library\'s own words', () => {
  it('a thrown record reads "Class code (status): message", the name beside the class when they differ', () => {
    expect(read.describeThrown({ class: 'McpError', name: 'McpError', code: -32001, message: 'Request timed out' })).toBe('McpError -32001: Request timed out');
    expect(read.describeThrown({ class: 'SdkError', name: 'Error', code: 'REQUEST_TIMEOUT', message: 'timed out' })).toBe('SdkError (Error) "REQUEST_TIMEOUT": timed out');
    expect(read.describeThrown({ class: 'SdkHttpError', status: 503, message: 'busy' })).toBe('SdkHttpError (status 503): busy');
    expect(read.describeThrown(undefined)).toBe('nothing');
  });

  it('a message is cut at 400 characters, a verdict\'s detail at 300', () => {
    expect(read.describeThrown({ class: 'Error', name: 'Error', message: 'x'.repeat(500) })).toBe(`Error: ${'x'.repeat(400)}`);
    expect(read.verdict('TOOL_ERROR', 'y'.repeat(400)).verdict.detail).toBe('y'.repeat(300));
    expect(read.verdict('HTTP_ERROR', 42, { status: 503 })).toEqual({ verdict: { outcome: 'HTTP_ERROR', status: 503, detail: '42' } });
  });

  it('a gap names the stack and what the library threw, with each cause, or what it returned', () => {
    const thrown = { class: 'Error', name: 'Error', message: 'outer', cause: { class: 'TypeError', name: 'TypeError', message: 'inner' } };
    expect(read.gap('ai-sdk', { threw: thrown })).toEqual({ gap: 'ai-sdk has no mapping for a thrown Error: outer ← cause TypeError: inner' });
    expect(read.describeCall({ returned: { ok: 1 } })).toBe('a returned value {"ok":1}');
    expect(read.describeCall({ returned: 'z'.repeat(500) })).toBe(`a returned value "${'z'.repeat(399)}`);
    expect(read.describeCall({ hung: { afterMs: 1500 } })).toBe('a call that never settled (1500 ms)');
    expect(read.describeCall({ other: true })).toBe('an unreadable observation {"other":true}');
    expect(read.describeCall(null)).toBe('an unreadable observation null');
  });

  it('a gap names every cause after the first, each in its own words', () => {
    const thrown = { class: 'Error', name: 'Error', message: 'outer', cause: { class: 'TypeError', name: 'TypeError', message: 'fetch failed', cause: { class: 'Error', name: 'Error', code: 'ECONNRESET', message: 'read ECONNRESET' } } };
    expect(read.describeCall({ threw: thrown })).toBe('a thrown Error: outer ← cause TypeError: fetch failed ← cause Error "ECONNRESET": read ECONNRESET');
  });

  it('an observation that cannot be written as JSON is still words, cut at 200 characters, never a crash', () => {
    expect(read.describeCall(undefined)).toBe('an unreadable observation undefined');
    expect(read.describeCall({ returned: undefined })).toBe('a returned value undefined');
    expect(read.describeCall({ started: 'w'.repeat(300) })).toBe(`an unreadable observation {"started":"${'w'.repeat(188)}`);
  });
});

describe('which class a record is, and its causes', () => {
  it('a record is a class by the library\'s exported class, its constructor or its own name', () => {
    expect(read.isA({ instanceOf: ['ProtocolError', 'Error'], class: 'X', name: 'Y' }, 'ProtocolError')).toBe(true);
    expect(read.isA({ class: 'ZodError', name: 'Error' }, 'ZodError')).toBe(true);
    expect(read.isA({ class: 'Error', name: 'AbortError' }, 'TimeoutError', 'AbortError')).toBe(true);
    expect(read.isA({ class: 'Error', name: 'Error', instanceOf: ['Error'] }, 'McpError')).toBe(false);
    expect(read.isA(undefined, 'Error')).toBe(false);
  });

  it('the cause chain runs outermost first and stops after eight records', () => {
    let deep: Thrown = { class: 'E0' };
    for (let i = 1; i < 12; i++) deep = { class: `E${i}`, cause: deep };
    expect(read.causeChain(deep).map((record) => record.class)).toEqual(['E11', 'E10', 'E9', 'E8', 'E7', 'E6', 'E5', 'E4']);
    expect(read.causeChain(undefined)).toEqual([]);
  });
});

describe('a lost call: only the last tools/call\'s status decides', () => {
  it.each([
    [[200], 'STREAM_INCOMPLETE'],
    [[299], 'STREAM_INCOMPLETE'],
    [[202], 'STREAM_INCOMPLETE'],
    [[199], 'NO_RESPONSE'],
    [[300], 'NO_RESPONSE'],
    [[503], 'NO_RESPONSE'],
    [[0], 'NO_RESPONSE'],
    [[], 'NO_RESPONSE'],
    [[200, 0], 'NO_RESPONSE'],
    [[503, 200], 'STREAM_INCOMPLETE'],
  ])('statuses %j: %s', (toolCallStatuses, outcome) => {
    expect(read.lostVerdict({ toolCallStatuses }, 'gave up').verdict.outcome).toBe(outcome);
  });

  it('says which status came back before the stream broke off', () => {
    expect(read.lostVerdict({ toolCallStatuses: [206] }, 'terminated').verdict.detail).toBe('after HTTP 206: terminated');
    expect(read.lostVerdict({}, 'fetch failed').verdict).toEqual({ outcome: 'NO_RESPONSE', detail: 'fetch failed' });
  });
});

describe("only a code the server sent is the peer's", () => {
  it('a number in the list is; anything else, or no list, is not', () => {
    expect(read.isPeerCode({ peerErrorCodes: [-32001] }, -32001)).toBe(true);
    expect(read.isPeerCode({ peerErrorCodes: [-32001] }, -32000)).toBe(false);
    expect(read.isPeerCode({ peerErrorCodes: ['-32001' as unknown as number] }, '-32001')).toBe(false);
    expect(read.isPeerCode({}, -32001)).toBe(false);
  });
});

describe('a Zod issue list is the envelope\'s only as one root union of the four JSON-RPC message kinds', () => {
  const root = (branches: number, extra: Record<string, unknown> = {}) => ({ code: 'invalid_union', path: [], errors: Array.from({ length: branches }, () => []), ...extra });
  it.each([
    ['Zod 4: one root invalid_union with four branches', [root(4)], true],
    ['Zod 3: unionErrors with four branches', [{ code: 'invalid_union', path: [], unionErrors: [{}, {}, {}, {}] }], true],
    ['two branches (a result schema that is a union)', [root(2)], false],
    ['five branches', [root(5)], false],
    ['a union below the root', [root(4, { path: ['result'] })], false],
    ['another issue code', [root(4, { code: 'invalid_type' })], false],
    ['two issues', [root(4), root(4)], false],
    ['no issue', [], false],
    ['not a list', root(4), false],
    ['an issue that is not an object', [null], false],
    ['a path that is not a list', [root(4, { path: undefined })], false],
    ['branches that are not a list', [{ code: 'invalid_union', path: [], errors: 4 }], false],
  ])('%s', (_label, issues, expected) => {
    expect(read.isEnvelopeIssueList(issues)).toBe(expected);
  });
});
