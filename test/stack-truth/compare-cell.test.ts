// The truth corpus's comparison: a cell agrees only when the stack's mapping of what the library did
// is what the adapter concluded, and the adapter saw the library's answer as the probe did.
import { describe, expect, it } from 'vitest';
import { findObservationDifferences, findOutcomeDisagreements, formatDisagreements, keyOf, type MapObservation, type MapResult } from './compare-cell.js';
import type { TruthCell } from './truth-record.js';

const context = { protocolVersion: '2025-11-25' as const, toolCallStatuses: [503], peerErrorCodes: [] };
const thrown503 = { threw: { class: 'SdkHttpError', name: 'SdkHttpError', message: 'HTTP 503', instanceOf: ['SdkError', 'SdkHttpError'], status: 503 } };

function makeCell(adapter: Partial<TruthCell['adapter']>, observation: unknown = thrown503): TruthCell {
  return {
    case: 'http-503-empty-body',
    protocolVersion: '2025-11-25',
    probe: { calls: [{ observation: observation as Record<string, unknown>, context }], toolCallsReceived: 1 },
    adapter: { status: 'pass', actual: [{ outcome: 'HTTP_ERROR', status: 503 }], failedChecks: [], toolCallsReceived: 1, ...adapter },
  };
}

const mapTo =
  (result: MapResult): MapObservation =>
  () =>
    result;

describe('findOutcomeDisagreements', () => {
  it('agrees when the mapped verdict has the adapter’s outcome, status and code', () => {
    expect(findOutcomeDisagreements('ts-client', makeCell({}), mapTo({ verdict: { outcome: 'HTTP_ERROR', status: 503 } }))).toEqual([]);
  });

  it('disagrees on another outcome, another status, or a code the adapter does not have', () => {
    for (const verdict of [{ outcome: 'NO_RESPONSE' }, { outcome: 'HTTP_ERROR', status: 500 }, { outcome: 'HTTP_ERROR', status: 503, code: -32603 }]) {
      const found = findOutcomeDisagreements('ts-client', makeCell({}), mapTo({ verdict }));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ cell: 'http-503-empty-body @ 2025-11-25', call: 1, mapped: { verdict }, adapter: { status: 'pass', actual: { outcome: 'HTTP_ERROR', status: 503 } } });
    }
  });

  it('passes the stack kind, the probe’s observation and the wire context to the mapping', () => {
    const seen: unknown[] = [];
    findOutcomeDisagreements('openai-agents', makeCell({}), (...args) => (seen.push(args), { verdict: { outcome: 'HTTP_ERROR', status: 503 } }));
    expect(seen).toEqual([['openai-agents', thrown503, context]]);
  });

  it('a gap in the mapping agrees only with an error cell: a verdict from the adapter there is made up', () => {
    expect(findOutcomeDisagreements('ts-client', makeCell({ status: 'error', actual: [], reason: 'adapter gap: SdkHttpError' }), mapTo({ gap: 'unknown' }))).toEqual([]);
    expect(findOutcomeDisagreements('ts-client', makeCell({}), mapTo({ gap: 'unknown' }))).toHaveLength(1);
  });

  it('"no conclusion" agrees only with a cell where the adapter reported no verdict, never with an error cell', () => {
    expect(findOutcomeDisagreements('ai-sdk', makeCell({ status: 'fail', actual: [null] }), mapTo({ none: 'hung' }))).toEqual([]);
    expect(findOutcomeDisagreements('ai-sdk', makeCell({ status: 'error', actual: [] }), mapTo({ none: 'hung' }))).toHaveLength(1);
    expect(findOutcomeDisagreements('ai-sdk', makeCell({}), mapTo({ none: 'hung' }))).toHaveLength(1);
  });

  it('a verdict never agrees with a skipped or error cell', () => {
    for (const status of ['skip', 'error'] as const) expect(findOutcomeDisagreements('ts-client', makeCell({ status, actual: [] }), mapTo({ verdict: { outcome: 'HTTP_ERROR', status: 503 } }))).toHaveLength(1);
  });

  it('a probe that could not connect agrees only with an error cell', () => {
    const cell: TruthCell = { ...makeCell({}), probe: { openFailed: { class: 'Error', name: 'Error', message: 'x' }, toolCallsReceived: 0 } };
    expect(findOutcomeDisagreements('mcp-remote', { ...cell, adapter: { ...cell.adapter, status: 'error', actual: [] } }, mapTo({ gap: 'never called' }))).toEqual([]);
    expect(findOutcomeDisagreements('mcp-remote', cell, mapTo({ gap: 'never called' }))).toHaveLength(1);
  });
});

describe('findObservationDifferences', () => {
  it('accepts the adapter’s record when shape, class, instanceOf (in any order), code and status match, whatever the message', () => {
    const observed = { calls: [{ threw: { ...thrown503.threw, message: 'other words', instanceOf: ['SdkHttpError', 'SdkError'] } }], toolCallsSent: 1 };
    expect(findObservationDifferences(makeCell({ observed }))).toEqual([]);
  });

  it('reports another class, another instanceOf list, another status, another shape, or no record at all', () => {
    const variants = [{ class: 'SdkError' }, { instanceOf: ['SdkError'] }, { status: 500 }];
    for (const change of variants) expect(findObservationDifferences(makeCell({ observed: { calls: [{ threw: { ...thrown503.threw, ...change } }] } }))).toHaveLength(1);
    expect(findObservationDifferences(makeCell({ observed: { calls: [{ returned: {} }] } }))).toHaveLength(1);
    expect(findObservationDifferences(makeCell({}))).toHaveLength(1);
  });

  it('keyOf reads returned, thrown and hung records', () => {
    expect(keyOf({ returned: 1 })).toEqual({ shape: 'returned' });
    expect(keyOf({ hung: { afterMs: 1 } })).toEqual({ shape: 'hung' });
    expect(keyOf({ threw: { class: 'McpError', code: -32001, instanceOf: ['McpError'] } })).toEqual({ shape: 'threw', class: 'McpError', code: -32001, instanceOf: ['McpError'] });
    expect(keyOf(undefined)).toEqual({ shape: 'missing' });
  });
});

describe('formatDisagreements', () => {
  it('names the target, the cell and the call, and shows the probe, the mapping and the adapter', () => {
    const text = formatDisagreements('ts-client@2.4.0', findOutcomeDisagreements('ts-client', makeCell({}), mapTo({ verdict: { outcome: 'NO_RESPONSE' } })));
    expect(text).toContain('ts-client@2.4.0 http-503-empty-body @ 2025-11-25 call 1');
    expect(text).toMatch(/probe: .*SdkHttpError/);
    expect(text).toMatch(/mapped: .*NO_RESPONSE/);
    expect(text).toMatch(/adapter: .*HTTP_ERROR/);
  });
});
