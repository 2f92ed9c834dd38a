// Lint of the whole case table (issue 3 §4): identity and prose, coverage, every case shown failing
// on some wrong classifier, and no verdict depending on the call ids (one direct run of the
// reference and the one-rule fixtures feeds all of these; the reference passing every cell in both
// modes is checked in test/hostile/determinism.test.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getExpectedVerdict, type Case, type LoadedCase } from '../runner/cases/case-types.js';
import { loadCases } from '../runner/cases/load-cases.js';
import { classifyReference } from '../runner/classify/reference.js';
import { ALTERNATIVE_NOTE } from '../runner/judge/judge-conclusion.js';
import { runMatrix } from '../runner/run/run-matrix.js';
import { createClassifierTarget } from '../runner/targets/classifier-target.js';
import { OUTCOMES, type Cell, type RunResult } from '../runner/vocabulary/types.js';
import { loadOneRuleTargets } from './case-table-fixtures.js';
import { describeCellFailure } from './describe-cell.js';

const REFERENCE = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
// Citation aliases of WIRE-FACTS.md and WIRE-FACTS-LEGACY.md; a reference may also cite an RFC or JSON-RPC (JR).
const SPEC_ALIAS =
  /^(T25|B25|L25|TL25|CX25|PG25|EL25|AU25|RS25|TK25|RT25|SM25|ST25|SJ25|CL25|SH26|B26|V26|TL26|CX26|PG26|EL26|AU26|RS26|MR26|CL26|PI26|DS26|LG26|TI26|ST26|SJ26|(?:T|B|L|TL|CX|PG|LG|SM|RT|RS|AU|CL|S|ST)0326|(?:T|B|L|TL|CX|PG|LG|SM|RT|RS|AU|CL|S|ST|EL)0618|JR|RFC \d+)\b/;

let table: LoadedCase[] = [];

beforeAll(async () => {
  table = await loadCases();
});

function differsByVersion(item: LoadedCase): boolean {
  const { case: c } = item;
  if (c.versions.length < 2) return false;
  return c.exchanges.some((exchange) => new Set(c.versions.map((version) => JSON.stringify(getExpectedVerdict(exchange, version)))).size > 1);
}

function hasSse(item: LoadedCase): boolean {
  return item.case.exchanges.some((exchange) => exchange.response.body !== undefined && 'sse' in exchange.response.body);
}

function isInputCase(item: LoadedCase): boolean {
  return item.case.layer === 'interaction' || item.case.exchanges.some((exchange) => item.case.versions.some((v) => getExpectedVerdict(exchange, v).outcome === 'INPUT_REQUIRED'));
}

describe('case table: identity and prose', () => {
  test('holds at least 70 cases with unique ids', () => {
    expect(table.length).toBeGreaterThanOrEqual(70);
    const ids = table.map((item) => item.case.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const item of table) expect(item.relativeFile.endsWith(`/${item.case.id}.json`), item.relativeFile).toBe(true);
  });

  test('titles are unique and at most 90 characters', () => {
    const seen = new Map<string, string>();
    for (const { case: c } of table) {
      expect(c.title.length, c.id).toBeLessThanOrEqual(90);
      expect(seen.get(c.title), `${c.id} repeats the title of ${seen.get(c.title)}`).toBeUndefined();
      seen.set(c.title, c.id);
    }
  });

  test('descriptions are present and unique', () => {
    const seen = new Map<string, string>();
    for (const { case: c } of table) {
      expect(c.description.trim().length, c.id).toBeGreaterThanOrEqual(40);
      expect(seen.get(c.description), `${c.id} repeats the description of ${seen.get(c.description)}`).toBeUndefined();
      seen.set(c.description, c.id);
    }
  });

  test('every case cites the spec with WIRE-FACTS aliases and applies to at least one version', () => {
    for (const { case: c } of table) {
      expect(c.spec.length, c.id).toBeGreaterThanOrEqual(1);
      for (const ref of c.spec) expect(ref.ref, `${c.id}: ${ref.ref}`).toMatch(SPEC_ALIAS);
      for (const exchange of c.exchanges) if (exchange.schemaOverride) expect(exchange.schemaOverride.ref, `${c.id}: schemaOverride`).toMatch(SPEC_ALIAS);
      expect(c.versions.length, c.id).toBeGreaterThanOrEqual(1);
    }
  });

  test('every accepted alternative cites the spec with WIRE-FACTS aliases, says why, and differs from the expectation', () => {
    const withAlternatives = table.filter(({ case: c }) => c.exchanges.some((exchange) => exchange.alternatives));
    expect(withAlternatives.map(({ case: c }) => c.id).sort()).toEqual(['id-number-for-string', 'id-string-for-number', 'result-meta-server-info-without-version', 'sse-final-wrong-id', 'wrong-response-id']);
    for (const { case: c } of withAlternatives) {
      for (const exchange of c.exchanges) {
        for (const alternative of exchange.alternatives ?? []) {
          expect(alternative.spec.length, c.id).toBeGreaterThanOrEqual(1);
          for (const ref of alternative.spec) expect(ref.ref, `${c.id}: ${ref.ref}`).toMatch(SPEC_ALIAS);
          expect(alternative.why.length, c.id).toBeGreaterThanOrEqual(40);
          expect(alternative.outcome, c.id).not.toBe(exchange.expect.outcome);
        }
      }
    }
  });

  test("every server fault names the server's duty in plain words and cites it (and the client's SHOULD) with WIRE-FACTS aliases", () => {
    const withFaults = table.filter(({ case: c }) => c.exchanges.some((exchange) => exchange.serverFault));
    expect(withFaults.length).toBeGreaterThan(0);
    for (const { case: c } of withFaults) {
      for (const fault of c.exchanges.flatMap((exchange) => (exchange.serverFault ? [exchange.serverFault] : []))) {
        for (const ref of [fault.ref, fault.clientShould?.ref].filter((entry) => entry !== undefined)) expect(ref, `${c.id}: ${ref}`).toMatch(SPEC_ALIAS);
        for (const words of [fault.rule, fault.clientShould?.rule, c.description].filter((entry) => entry !== undefined)) expect(words, c.id).not.toMatch(/WIRE-FACTS|§/);
        // The case says whose duty the fault breaks.
        expect(c.description, c.id).toMatch(/the server's|server's duty/);
      }
    }
  });

  test('every JSON-RPC body outside the published eleven states its schema validity per version', () => {
    for (const { case: c } of table.filter((item) => item.case.origin !== 'article')) {
      c.exchanges.forEach((exchange, index) => {
        const body = exchange.response.body;
        const carriesMessage =
          body !== undefined && (('json' in body && typeof body.json === 'object') || ('sse' in body && body.sse.events.some((event) => event.response)));
        if (!carriesMessage) return;
        for (const version of c.versions) expect(exchange.schemaValid?.[version], `${c.id} exchange ${index + 1} under ${version}`).toBeTypeOf('boolean');
      });
    }
  });
});

describe('case table: coverage', () => {
  test('cases/README.md states the current total and group counts', () => {
    const readme = readFileSync(resolve(import.meta.dirname, '../cases/README.md'), 'utf8');
    expect(readme).toContain(`${table.length} cases:`);
    const counts = new Map<string, number>();
    for (const { case: c } of table) counts.set(c.layer, (counts.get(c.layer) ?? 0) + 1);
    for (const [layer, count] of counts) expect(readme, layer).toMatch(new RegExp(`\\n\\| ${layer} \\| ${count} \\|`));
  });

  test('at least 15 SSE cases, 6 MRTR/input cases and 10 cases whose verdict differs by version', () => {
    const sse = table.filter(hasSse).map((item) => item.case.id);
    const input = table.filter(isInputCase).map((item) => item.case.id);
    const byVersion = table.filter(differsByVersion).map((item) => item.case.id);
    console.info(`SSE: ${sse.length}, MRTR/input: ${input.length}, version-differing: ${byVersion.length} (${byVersion.join(', ')})`);
    expect(sse.length).toBeGreaterThanOrEqual(15);
    expect(input.length).toBeGreaterThanOrEqual(6);
    expect(byVersion.length).toBeGreaterThanOrEqual(10);
  });

  test('all ten outcomes are expected somewhere, and every layer folder is used', () => {
    const expected = new Set(table.flatMap(({ case: c }) => c.exchanges.flatMap((exchange) => c.versions.map((v) => getExpectedVerdict(exchange, v).outcome))));
    expect([...expected].sort()).toEqual([...OUTCOMES].sort());
    const layers = new Set(table.map((item) => item.case.layer));
    for (const layer of ['transport', 'protocol', 'application', 'stream', 'interaction', 'session']) expect(layers).toContain(layer);
  });
});

// The reference and every one-rule fixture over the whole table in direct mode, run once for the
// fixture tests and as the call-id test's run with the usual ids: a cell depends on its case,
// version and target only, so the version-dependent cases' cells are the same ones.
const getTableOptions = async () => ({ targets: [REFERENCE, ...(await loadOneRuleTargets())], mode: 'direct' as const, concurrency: 8, timeoutMs: 2000 });
let usualRun: Promise<RunResult> | undefined;
// Test files share their worker thread's modules (vitest.config.ts): the run is let go once this
// file is done, so later files in the thread do not carry it.
afterAll(() => (usualRun = undefined));
const runWithUsualIds = (): Promise<RunResult> => (usualRun ??= getTableOptions().then((options) => runMatrix({ ...options, cases: table })));
/** The fixtures' cells: the reference's never count as a fixture failing a case. */
const getFixtureCells = async (): Promise<Cell[]> => (await runWithUsualIds()).cells.filter((cell) => cell.target !== REFERENCE.info.name);

describe('case table: reference and fixtures', () => {
  // The reference passing every cell in both modes is checked on the first run of
  // test/hostile/determinism.test.ts, which runs the whole table against it anyway.

  test('every case is failed by at least one wrong-in-one-rule fixture (direct mode)', async () => {
    const cells = await getFixtureCells();
    const failedBy = new Map(table.map((item) => [item.case.id, new Set<string>()]));
    // A mismatch that keeps the recovery (e.g. a 400 with an error body read as JSONRPC_ERROR) fails
    // a SHOULD (issue 13 §1): the cell is non_strict, and the fixture is still caught.
    for (const cell of cells) if (cell.status === 'fail' || cell.status === 'non_strict') failedBy.get(cell.case)?.add(cell.target);
    console.info([...failedBy].map(([id, names]) => `${id}: ${[...names].sort().join(', ') || 'NONE'}`).join('\n'));
    expect([...failedBy].filter(([, names]) => names.size === 0).map(([id]) => id)).toEqual([]);
    // No fixture breaks the harness: a wrong verdict is a fail, never an error cell.
    expect(cells.filter((cell) => cell.status === 'error').map(describeCellFailure)).toEqual([]);
  });

  test('every version of a version-dependent case is failed by some one-rule fixture (direct mode)', async () => {
    // A verdict that differs by version is only tested if a fixture gets that very version wrong.
    const dependent = table.filter(differsByVersion);
    expect(dependent.length).toBeGreaterThan(0);
    const cells = await getFixtureCells();
    // A server fault's real result fails only its own level (POLICY or SHOULD): a fixture that
    // concludes it is caught at the level the case grants, so it counts as well.
    const caught = (cell: Cell) => cell.status === 'fail' || (cell.status === 'non_strict' && cell.checks.some((check) => !check.passed && check.id.startsWith('outcome@') && check.message.includes(ALTERNATIVE_NOTE)));
    const failed = new Set(cells.filter(caught).map((cell) => `${cell.case} ${cell.protocolVersion}`));
    const untested = dependent.flatMap(({ case: c }) => c.versions.map((version) => `${c.id} ${version}`)).filter((key) => !failed.has(key));
    expect(untested).toEqual([]);
  });

  test('the naive HTTP-status-only fixture fails at least 30 cells', async () => {
    // status-only is one of the one-rule fixtures: its cells are the shared run's.
    const naive = (await getFixtureCells()).filter((cell) => cell.target === 'status-only');
    expect(naive).toHaveLength(table.reduce((total, item) => total + item.case.versions.length, 0));
    expect(naive.filter((cell) => cell.status === 'fail').length).toBeGreaterThanOrEqual(30);
  });
});

// Scripted responses answer the id the client actually sent (issue 13 §2): a case that hard-codes
// the id of its answer tests a client whose call id differs on a wrong id instead of on its
// subject. The whole table runs twice on the reference and every one-rule fixture, once with the
// harness's usual call ids (1, 2, …) and once with other ids of the same type; no verdict may change.
describe('scripted answers follow the call id', () => {
  test('no verdict of the reference or of a one-rule fixture changes when the call ids are not 1, 2, …', async () => {
    const usual = await runWithUsualIds();
    const shifted = await runMatrix({ ...(await getTableOptions()), cases: table.map(withShiftedIds) });
    const key = (cell: Cell) => `${cell.target} ${cell.case} [${cell.protocolVersion}]`;
    const before = new Map(usual.cells.map((cell) => [key(cell), describeVerdicts(cell)]));
    expect(new Set(usual.cells.map((cell) => cell.target)).has(REFERENCE.info.name)).toBe(true);
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

const ID_SHIFT = 40;
// Cases about an answer whose id is not the call's: the literal id is what they test.
const SUBJECT_IS_ID = new Set(['sse-stranger-response-then-own', 'batch-sse-stranger-id']);

/** A JSON-RPC response (result or error) that carries its own id member. */
function isAnswerWithId(message: unknown): boolean {
  return typeof message === 'object' && message !== null && !Array.isArray(message) && 'id' in message && ('result' in message || 'error' in message);
}

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
