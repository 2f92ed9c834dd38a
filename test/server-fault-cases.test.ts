// Issue 26 item 7: the cases whose fault is the server's alone (`serverFault`). In the versions where
// it is a fault, the reference still passes with the strict reading, the naive target and a
// one-rule fixture that returns the server's result fail only at the level the case grants (POLICY
// where the client has no duty to detect the fault, SHOULD where it should), costing `imprecise`,
// never a false success; and a real client (a command fixture) is judged the same way, whether it
// reports a verdict or only exits 0.
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LoadedCase } from '../runner/cases/case-types.js';
import { loadCases } from '../runner/cases/load-cases.js';
import { classifyNaive } from '../runner/classify/naive.js';
import { classifyReference } from '../runner/classify/reference.js';
import { runMatrix } from '../runner/run/run-matrix.js';
import { createClassifierTarget } from '../runner/targets/classifier-target.js';
import { resolveCommandTarget } from '../runner/targets/command-target.js';
import type { Cell, Check, ProtocolVersion } from '../runner/vocabulary/types.js';
import { classifyInputRequiredAtItsWord, CASE_TABLE_FIXTURES } from './case-table-fixtures.js';

const ROOT = resolve(import.meta.dirname, '..');

// Each case with the one-rule fixture that reads past its fault, and the level and result the case grants.
const FAULTS: [caseId: string, fixture: string, level: 'POLICY' | 'SHOULD', result: string][] = [
  ['sse-server-request-elicitation', 'every-version-as-2025-11-25', 'POLICY', 'TOOL_SUCCESS'],
  ['sse-server-request-roots', 'every-version-as-2025-11-25', 'POLICY', 'TOOL_SUCCESS'],
  ['sse-server-request-ping', 'every-version-as-2025-11-25', 'POLICY', 'TOOL_SUCCESS'],
  ['mrtr-neither-requests-nor-state', 'input-required-at-its-word', 'POLICY', 'INPUT_REQUIRED'],
  ['structured-content-violates-output-schema', 'ignores-output-schema', 'SHOULD', 'TOOL_SUCCESS'],
  ['structured-content-missing-with-output-schema', 'ignores-output-schema', 'POLICY', 'TOOL_SUCCESS'],
  ['structured-content-output-schema-dialect', 'ignores-output-schema', 'SHOULD', 'TOOL_SUCCESS'],
];

let table: LoadedCase[];
let cells: Cell[];
const faultVersions = (item: LoadedCase): ProtocolVersion[] => item.case.exchanges[0]!.serverFault?.versions ?? item.case.versions;
const outcomeCheck = (cell: Cell): Check | undefined => cell.checks.find((check) => check.id === 'outcome@1' || check.id === 'client.outcome' || check.id === 'client.exit');
const cellOf = (target: string, caseId: string, version: ProtocolVersion): Cell => {
  const cell = cells.find((entry) => entry.target === target && entry.case === caseId && entry.protocolVersion === version);
  if (!cell) throw new Error(`no cell ${target} ${caseId} ${version}`);
  return cell;
};
const fixtureName = (name: string) => `case-table:${name}`;

beforeAll(async () => {
  table = (await loadCases({ cwd: ROOT })).filter((item) => FAULTS.some(([id]) => id === item.case.id));
  const fixtures = [...new Set(FAULTS.map(([, fixture]) => fixture))].map((name) => createClassifierTarget({ name: fixtureName(name), kind: 'classifier' }, CASE_TABLE_FIXTURES[name]!));
  const targets = [createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference), createClassifierTarget({ name: 'naive', kind: 'classifier' }, classifyNaive), ...fixtures];
  cells = (await runMatrix({ cases: table, targets, mode: 'direct', concurrency: 4, timeoutMs: 2000 })).cells;
}, 60_000);

describe("server faults: the server's result is accepted at the case's level, never as a false success", () => {
  it('covers every case that declares a server fault', () => {
    expect(table.map((item) => item.case.id).sort()).toEqual(FAULTS.map(([id]) => id).sort());
    expect(classifyInputRequiredAtItsWord).toBe(CASE_TABLE_FIXTURES['input-required-at-its-word']);
  });

  it.each(FAULTS)('%s: the reference passes; %s, which returns the result, fails only at the level the case grants', (caseId, fixture, level, result) => {
    const item = table.find((entry) => entry.case.id === caseId)!;
    for (const version of faultVersions(item)) {
      expect(cellOf('reference', caseId, version).status, version).toBe('pass');
      const wrong = cellOf(fixtureName(fixture), caseId, version);
      expect(wrong.status, version).toBe('non_strict');
      expect(outcomeCheck(wrong), version).toMatchObject({ passed: false, actual: result, level, consequence: 'imprecise' });
      expect(outcomeCheck(wrong)!.message, version).toContain("the fault is the server's");
    }
  });

  it.each(FAULTS)('%s: the naive target fails, at MUST unless its status-only reading happens to be the result', (caseId, _fixture, level, result) => {
    const item = table.find((entry) => entry.case.id === caseId)!;
    for (const version of faultVersions(item)) {
      const naive = cellOf('naive', caseId, version);
      if (result === 'TOOL_SUCCESS') expect(outcomeCheck(naive), version).toMatchObject({ passed: false, level, consequence: 'imprecise' });
      else expect(outcomeCheck(naive), version).toMatchObject({ passed: false, level: 'MUST', consequence: 'false-success' });
      expect(naive.status, version).toBe(result === 'TOOL_SUCCESS' ? 'non_strict' : 'fail');
    }
  });

  it('leaves the versions where the response is no fault as they were: there the same reading is a false success', () => {
    // 2025-11-25 allows requests on the stream, and the fixture that reads every version as 2025-11-25 is right there;
    // 2025-06-18 reads the dialect case as draft-07 (TOOL_SUCCESS expected), so a strict 2020-12 reading is the wrong one.
    expect(cellOf(fixtureName('every-version-as-2025-11-25'), 'sse-server-request-ping', '2025-11-25').status).toBe('pass');
    const dialect = cellOf(fixtureName('every-version-as-2025-11-25'), 'structured-content-output-schema-dialect', '2025-06-18');
    expect(outcomeCheck(dialect)).toMatchObject({ passed: false, level: 'MUST', consequence: 'false-failure' });
  });
});

// Real clients, one process per cell: the fixture client reports a verdict (it never lists tools,
// so it does not know the tool's outputSchema), silent-exit-zero only exits 0.
describe('server faults judged on a real client (command fixtures)', () => {
  const fixture = (name: string): string => `command:node test/fixtures/clients/${name}.mjs`;
  const CASES = ['sse-server-request-ping', 'structured-content-violates-output-schema'];
  let clientCells: Cell[];
  beforeAll(async () => {
    const cases = (await loadCases({ cwd: ROOT })).filter((item) => CASES.includes(item.case.id));
    const targets = ['correct-client', 'silent-exit-zero'].map((name) => resolveCommandTarget(fixture(name), { cwd: ROOT }));
    clientCells = (await runMatrix({ cases, targets, versions: ['2026-07-28'], timeoutMs: 8000, concurrency: 2 })).cells;
  }, 120_000);
  const clientCell = (name: string, caseId: string): Cell => clientCells.find((cell) => cell.target === fixture(name) && cell.case === caseId)!;

  it('passes a client that stops at the request, and holds one that exits 0 to POLICY (imprecise)', () => {
    expect(clientCell('correct-client', 'sse-server-request-ping').status).toBe('pass');
    const silent = clientCell('silent-exit-zero', 'sse-server-request-ping');
    expect(silent.status).toBe('non_strict');
    expect(silent.checks.find((check) => check.id === 'client.exit')).toMatchObject({ passed: false, level: 'POLICY', consequence: 'imprecise' });
  });

  it('holds a client that does not validate structured content to the SHOULD, whether it reports a verdict or exits 0', () => {
    const reported = clientCell('correct-client', 'structured-content-violates-output-schema');
    expect(reported.status).toBe('non_strict');
    expect(reported.checks.find((check) => check.id === 'client.outcome')).toMatchObject({ passed: false, actual: 'TOOL_SUCCESS', level: 'SHOULD', consequence: 'imprecise' });
    const silent = clientCell('silent-exit-zero', 'structured-content-violates-output-schema');
    expect(silent.checks.find((check) => check.id === 'client.exit')).toMatchObject({ passed: false, level: 'SHOULD', consequence: 'imprecise' });
  });
});
