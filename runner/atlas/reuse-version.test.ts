// What a version stored by the previous atlas still answers: a cell is reused only when its case
// file has the same digest and it was measured at that protocol version; changed and new cases run
// again and are merged with the stored cells of the rest, in the table's order.
import { describe, expect, it } from 'vitest';
import { makeCase, makeCell, makeRunResult } from '../../test/make-run-result.js';
import type { Case, LoadedCase } from '../cases/case-types.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import type { AtlasVersion } from './atlas-types.js';
import { mergeVersionResults, planVersionReuse } from './reuse-version.js';

const V1: ProtocolVersion = '2025-11-25';
const V2: ProtocolVersion = '2026-07-28';
const SPEC = 'ts-sdk@1.0.0';

function loaded(id: string, sha: string, versions: ProtocolVersion[] = [V1, V2]): LoadedCase {
  return { case: { id, versions } as unknown as Case, file: `${id}.json`, relativeFile: `${id}.json`, sha256: sha.repeat(64) };
}

function stored(cases: LoadedCase[], overrides: Partial<AtlasVersion> = {}): AtlasVersion {
  return {
    version: '1.0.0',
    spec: SPEC,
    state: 'measured',
    speaks: [V1, V2],
    measuredAt: '2026-01-01T00:00:00.000Z',
    reusedCells: 0,
    caseDigests: Object.fromEntries(cases.map((item) => [item.case.id, item.sha256])),
    path: 'stacks/ts-sdk/1.0.0/',
    cells: cases.flatMap((item) => item.case.versions.map((protocolVersion) => ({ case: item.case.id, protocolVersion, status: 'pass' as const, actual: [{ outcome: 'TOOL_SUCCESS' as const }] }))),
    ...overrides,
  };
}

describe('planVersionReuse', () => {
  const table = [loaded('a', 'a'), loaded('b', 'b')];

  it('reuses a version whole when every selected cell is stored with the same case digests', () => {
    expect(planVersionReuse(stored(table), table, undefined)).toEqual({ kind: 'whole' });
  });

  it('runs a changed case again and reuses the rest', () => {
    expect(planVersionReuse(stored(table), [loaded('a', 'a'), loaded('b', 'f')], undefined)).toEqual({ kind: 'partial', rerun: ['b'] });
  });

  it('runs a new case, and a case at a protocol version it was not measured at', () => {
    const narrow = stored(table, { cells: stored(table).cells.filter((cell) => !(cell.case === 'a' && cell.protocolVersion === V2)) });
    expect(planVersionReuse(narrow, [...table, loaded('c', 'c')], undefined)).toEqual({ kind: 'partial', rerun: ['a', 'c'] });
  });

  it('drops stored cells the atlas no longer selects instead of reusing the version whole', () => {
    expect(planVersionReuse(stored(table), table, [V1])).toEqual({ kind: 'partial', rerun: [] });
    expect(planVersionReuse(stored(table), [table[0]!], undefined)).toEqual({ kind: 'partial', rerun: [] });
  });

  it('runs again a case with a cell the stored atlas could not measure (error: starved, adapter gap), so a busy machine\'s gaps do not stay', () => {
    const gap = stored(table, { cells: stored(table).cells.map((cell) => (cell.case === 'b' && cell.protocolVersion === V2 ? { case: 'b', protocolVersion: V2, status: 'error' as const, kind: 'starved' as const } : cell)) });
    expect(planVersionReuse(gap, table, undefined)).toEqual({ kind: 'partial', rerun: ['b'] });
  });

  it('reuses nothing of a version that was not measured, or when every case changed', () => {
    expect(planVersionReuse(undefined, table, undefined)).toEqual({ kind: 'none' });
    expect(planVersionReuse(stored(table, { state: 'not-started', path: undefined, cells: [] }), table, undefined)).toEqual({ kind: 'none' });
    expect(planVersionReuse(stored(table), [loaded('a', 'e'), loaded('b', 'f')], undefined)).toEqual({ kind: 'none' });
  });
});

describe('mergeVersionResults', () => {
  const cases = [makeCase({ id: 'a', sha256: 'a'.repeat(64) }), makeCase({ id: 'b', sha256: 'b'.repeat(64) })];
  const targets = [{ name: SPEC, kind: 'client', version: '1.0.0' }];
  const old = makeRunResult({
    cases,
    targets,
    cells: ['a', 'b'].flatMap((id) => [V1, V2].map((protocolVersion) => makeCell({ case: id, target: SPEC, protocolVersion, status: 'pass' }))),
  });

  it('keeps the stored cells of unchanged cases, takes the fresh ones of the rest, in case then version order', () => {
    const freshCases = [makeCase({ id: 'b', sha256: 'f'.repeat(64) })];
    const fresh = makeRunResult({ cases: freshCases, targets, cells: [V2, V1].map((protocolVersion) => makeCell({ case: 'b', target: SPEC, protocolVersion, status: 'fail' })), finishedAt: '2026-02-01T00:00:00.000Z' });
    const { result, reusedCells } = mergeVersionResults(old, fresh, { spec: SPEC, cases: [loaded('a', 'a'), loaded('b', 'f')], versions: undefined, rerun: ['b'] });
    expect(reusedCells).toBe(2);
    expect(result.cells.map((cell) => [cell.case, cell.protocolVersion, cell.status])).toEqual([
      ['a', V1, 'pass'],
      ['a', V2, 'pass'],
      ['b', V1, 'fail'],
      ['b', V2, 'fail'],
    ]);
    expect(result.cases.map((item) => [item.id, item.sha256[0]])).toEqual([
      ['a', 'a'],
      ['b', 'f'],
    ]);
    expect(result.summary).toMatchObject({ total: 4, pass: 2, fail: 2 });
    expect(result.finishedAt).toBe('2026-02-01T00:00:00.000Z');
  });

  it('leaves out stored cells of cases and protocol versions no longer selected', () => {
    const { result, reusedCells } = mergeVersionResults(old, undefined, { spec: SPEC, cases: [loaded('a', 'a')], versions: [V2], rerun: [] });
    expect(reusedCells).toBe(1);
    expect(result.cells.map((cell) => [cell.case, cell.protocolVersion])).toEqual([['a', V2]]);
    expect(result.cases.map((item) => item.id)).toEqual(['a']);
  });
});
