// Scripted responses answer the id the client actually sent (issue 13 §2): a case that hard-codes
// the id of its answer tests a client whose call id differs on a wrong id instead of on its
// subject. The whole table runs twice on the reference and every one-rule fixture, once with the
// harness's usual call ids (1, 2, …) and once with other ids of the same type; no verdict may change.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Case, LoadedCase } from '../runner/cases/case-types.js';
import { loadCases } from '../runner/cases/load-cases.js';
import { runMatrix } from '../runner/run/run-matrix.js';
import type { Cell } from '../runner/types.js';
import { classifyReference } from '../runner/classify/reference.js';
import { createClassifierTarget } from '../runner/targets/classifier-target.js';
import { loadOneRuleTargets } from './case-table-fixtures.js';

const ID_SHIFT = 40;
// Cases about an answer whose id is not the call's: the literal id is what they test.
const SUBJECT_IS_ID = new Set(['sse-stranger-response-then-own', 'batch-sse-stranger-id']);

/** A JSON-RPC response (result or error) that carries its own id member. */
function isAnswerWithId(message: unknown): boolean {
  return typeof message === 'object' && message !== null && !Array.isArray(message) && 'id' in message && ('result' in message || 'error' in message);
}

let table: LoadedCase[] = [];
beforeAll(async () => {
  table = await loadCases();
});

/** Another id of the same JSON type (a numeric string stays numeric, for the as-number mode). */
function shiftId(id: string | number): string | number {
  if (typeof id === 'number') return id + ID_SHIFT;
  return id.trim() !== '' && Number.isFinite(Number(id)) ? String(Number(id) + ID_SHIFT) : `${id}-shifted`;
}

/** The same case, with every exchange's call id changed. */
function withShiftedIds(item: LoadedCase): LoadedCase {
  const shifted: Case = structuredClone(item.case);
  shifted.exchanges.forEach((exchange, index) => {
    exchange.request = { ...exchange.request, id: shiftId(exchange.request?.id ?? index + 1) };
  });
  return { ...item, case: shifted };
}

function describeVerdicts(cell: Cell): string {
  const actual = cell.actual.map((verdict) => (verdict ? [verdict.outcome, verdict.status, verdict.code].filter((x) => x !== undefined).join(' ') : 'none'));
  return `${cell.status}: ${actual.join(', ')}${cell.reason && cell.status === 'error' ? ` (${cell.reason})` : ''}`;
}

describe('scripted answers follow the call id', () => {
  test('no verdict of the reference or of a one-rule fixture changes when the call ids are not 1, 2, …', async () => {
    const targets = [createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference), ...(await loadOneRuleTargets())];
    const options = { targets, mode: 'direct' as const, concurrency: 8, timeoutMs: 2000 };
    const usual = await runMatrix({ ...options, cases: table });
    const shifted = await runMatrix({ ...options, cases: table.map(withShiftedIds) });
    const key = (cell: Cell) => `${cell.target} ${cell.case} [${cell.protocolVersion}]`;
    const before = new Map(usual.cells.map((cell) => [key(cell), describeVerdicts(cell)]));
    expect(shifted.cells.length).toBe(usual.cells.length);
    const changed = shifted.cells
      .filter((cell) => before.get(key(cell)) !== describeVerdicts(cell))
      .map((cell) => `${key(cell)}: ids 1, 2, … ${before.get(key(cell))}; ids ${1 + ID_SHIFT}, … ${describeVerdicts(cell)}`);
    expect(changed).toEqual([]);
  }, 60_000);

  test('no scripted answer writes an id by hand where the id mode would set it, unless the id is the case subject', () => {
    const handWritten = table.flatMap(({ case: c }) =>
      c.exchanges.flatMap((exchange, index) => {
        const body = exchange.response.body;
        if (!body || SUBJECT_IS_ID.has(c.id)) return [];
        // Raw text and base64 bytes are exact by design: no id mode reaches them.
        // Batch members are messages too, in a JSON body and in an event's data alike.
        const messages = ('json' in body ? [body.json] : 'sse' in body ? body.sse.events.map((event) => event.data) : []).flatMap((data: unknown) => (Array.isArray(data) ? data : [data]));
        return messages.filter(isAnswerWithId).map((message) => `${c.id} #${index + 1}: ${JSON.stringify(message).slice(0, 80)}`);
      }),
    );
    expect(handWritten).toEqual([]);
  });

  test('the shifted table really uses other ids', () => {
    for (const item of table.map(withShiftedIds)) for (const exchange of item.case.exchanges) expect([1, 2, 3, '1', '7']).not.toContain(exchange.request?.id);
  });
});
