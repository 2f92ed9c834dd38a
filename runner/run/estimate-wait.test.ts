import { describe, expect, it } from 'vitest';
import type { LoadedCase, ResponseSpec } from '../cases/case-types.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import { createClassifierTarget } from '../targets/classifier-target.js';
import { classifyReference } from '../classify/reference.js';
import { estimateWaitMs, scriptOutlastsTimeout } from './estimate-wait.js';
import { runMatrix } from './run-matrix.js';

const load = (id: string, ...args: Parameters<typeof makeCase>): LoadedCase => ({
  case: { ...makeCase(...args), id },
  file: `${id}.json`,
  relativeFile: `${id}.json`,
  sha256: '0'.repeat(64),
});

describe('estimateWaitMs', () => {
  it('is zero for an immediate answer', () => {
    expect(estimateWaitMs(makeCase([{ body: { json: SUCCESS_JSON } }]), 2000)).toBe(0);
  });

  it('counts a hang as a whole timeout, and caps each exchange at the timeout', () => {
    expect(estimateWaitMs(makeCase([{ start: 'hang' }]), 2000)).toBe(2000);
    expect(estimateWaitMs(makeCase([{ delayMs: 5000, body: { json: SUCCESS_JSON } }]), 2000)).toBe(2000);
  });

  it('adds event delays, a hanging stream end and Retry-After seconds', () => {
    const sse = { sse: { events: [{ data: {}, delayMs: 100 }, { data: {}, delayMs: 200 }], end: 'hang' as const } };
    expect(estimateWaitMs(makeCase([{ body: sse }]), 1000)).toBe(1000);
    expect(estimateWaitMs(makeCase([{ body: { sse: { events: [{ data: {}, delayMs: 300 }] } } }]), 1000)).toBe(300);
    expect(estimateWaitMs(makeCase([{ status: 429, headers: { 'Retry-After': '1' } }, { body: { json: SUCCESS_JSON } }]), 2000)).toBe(1000);
  });
});

describe('runMatrix with waiting cells', () => {
  it('overlaps hangs with each other and with the rest, even at concurrency 1', async () => {
    const hangs = ['hang-a', 'hang-b', 'hang-c'].map((id) => load(id, [{ start: 'hang' }], { exchanges: [{ response: { start: 'hang' }, expect: { outcome: 'NO_RESPONSE' } }] }));
    const quick = load('quick', [{ body: { json: SUCCESS_JSON } }]);
    const target = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
    // Judged by the order and spread of the cells' ends, not by wall time against a fixed bound:
    // serialised at concurrency 1, the quick cell would end after hang-a and the hangs would end a
    // whole timeout (1,000 ms) apart; overlapped, the quick cell ends first and the hangs together.
    const ended = new Map<string, number>();
    const result = await runMatrix({
      cases: [hangs[0]!, quick, hangs[1]!, hangs[2]!],
      targets: [target],
      timeoutMs: 1000,
      concurrency: 1,
      versions: ['2026-07-28'],
      onCell: (cell) => void ended.set(cell.case, performance.now()),
    });
    expect([...ended.keys()][0]).toBe('quick');
    const hangEnds = ['hang-a', 'hang-b', 'hang-c'].map((id) => ended.get(id)!);
    expect(Math.max(...hangEnds) - Math.min(...hangEnds)).toBeLessThan(1000);
    expect(result.cells.map((cell) => [cell.case, cell.status])).toEqual([
      ['hang-a', 'pass'],
      ['quick', 'pass'],
      ['hang-b', 'pass'],
      ['hang-c', 'pass'],
    ]);
  });

  it("runs a stream the server resets mid-way beside the pool: its reset waits for the client to read first, a fixed wait far longer than an immediate cell's work", async () => {
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 3 } };
    const resets = ['reset-a', 'reset-b'].map((id) => load(id, [{ body: { sse: { events: [{ data: progress }], end: 'reset' } } }], { exchanges: [{ response: { body: { sse: { events: [{ data: progress }], end: 'reset' } } }, expect: { outcome: 'STREAM_INCOMPLETE' } }] }));
    const quick = load('quick', [{ body: { json: SUCCESS_JSON } }]);
    const target = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
    // At concurrency 1 in the pool, the quick cell would wait for the first reset (its settle
    // wait included) to end; beside the pool, it ends first.
    const ended: string[] = [];
    const result = await runMatrix({
      cases: [resets[0]!, resets[1]!, quick],
      targets: [target],
      concurrency: 1,
      versions: ['2026-07-28'],
      onCell: (cell) => void ended.push(cell.case),
    });
    expect(ended[0]).toBe('quick');
    expect(result.cells.map((cell) => [cell.case, cell.status])).toEqual([
      ['reset-a', 'pass'],
      ['reset-b', 'pass'],
      ['quick', 'pass'],
    ]);
  });
});

describe('scriptOutlastsTimeout', () => {
  it('holds for a hang, a hanging stream and delays of half the timeout or more; not for a prompt answer', () => {
    const at = (response: ResponseSpec) => scriptOutlastsTimeout(makeCase([response]).exchanges[0]!, 2000);
    expect(at({ start: 'hang' })).toBe(true);
    expect(at({ body: { sse: { events: [], end: 'hang' } } })).toBe(true);
    expect(at({ delayMs: 1000, body: { json: SUCCESS_JSON } })).toBe(true);
    expect(at({ body: { sse: { events: [{ data: SUCCESS_JSON, delayMs: 600 }, { data: SUCCESS_JSON, delayMs: 400, response: true }] } } })).toBe(true);
    expect(at({ body: { json: SUCCESS_JSON } })).toBe(false);
    expect(at({ delayMs: 300, body: { sse: { events: [{ data: SUCCESS_JSON, delayMs: 300, response: true }] } } })).toBe(false);
    expect(at({ status: 503, headers: { 'Retry-After': '5' } })).toBe(false); // the client's sleep, not the server's delay
  });
});
