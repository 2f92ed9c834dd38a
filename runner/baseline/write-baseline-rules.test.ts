// The rules of `run --write-baseline`, stated one at a time: which cells make an entry, when an
// entry names its version, which reasons are kept, the order of the entries, and the file text.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCell as makeFixtureCell } from '../../test/make-run-result.js';
import { makeCase } from '../mock-server/test-cases.js';
import type { Cell, CellStatus } from '../vocabulary/types.js';
import { parseBaselineText, type Baseline } from './load-baseline.js';
import { buildBaselineEntries, OBSERVED_PREFIX, renderBaseline, writeBaselineFile } from './write-baseline.js';

const V1 = '2025-11-25';
const V2 = '2026-07-28';
const OBSERVED = 'observed: reads an invalid tool result as a tool result (false success)';
// Failing cells expect INVALID_TOOL_RESULT, as their failed outcome check says (a false success).
const cell = (target: string, caseId: string, status: CellStatus, protocolVersion: Cell['protocolVersion'] = V1): Cell =>
  makeFixtureCell({ target, case: caseId, status, protocolVersion, expected: [{ outcome: 'INVALID_TOOL_RESULT' }] });
const previous = (text: string): Baseline => ({ ...parseBaselineText(text, 'old.yaml'), sha256: '0'.repeat(64) });

describe('buildBaselineEntries: which cells make an entry', () => {
  it.each<[CellStatus, boolean]>([
    ['fail', true],
    ['non_strict', true],
    ['xfail', true],
    ['xpass', false],
    ['pass', false],
  ])('a %s cell is a failure to record: %s', (status, recorded) => {
    expect(buildBaselineEntries([cell('naive', 'a', status)], undefined).length).toBe(recorded ? 1 : 0);
  });

  it('skip and error cells judge nothing: an old entry for a pair seen only so is kept; a pair judged passing loses its entry', () => {
    const cells = [cell('naive', 'skipped', 'skip'), cell('naive', 'broken', 'error'), cell('naive', 'fixed', 'pass')];
    const old = previous('- { target: naive, case: skipped, reason: kept 1 }\n- { target: naive, case: broken, reason: kept 2 }\n- { target: naive, case: fixed, reason: gone }\n');
    expect(buildBaselineEntries(cells, old)).toStrictEqual([
      { target: 'naive', case: 'broken', reason: 'kept 2' },
      { target: 'naive', case: 'skipped', reason: 'kept 1' },
    ]);
  });

  it('a skip or error cell beside a failing one does not make the failure version-specific', () => {
    expect(buildBaselineEntries([cell('naive', 'a', 'fail', V1), cell('naive', 'a', 'skip', V2)], undefined)).toStrictEqual([{ target: 'naive', case: 'a', reason: OBSERVED }]);
  });

  it('a pair that fails under some versions gets one entry per failing version, each with its own sentence', () => {
    const other = makeFixtureCell({ target: 'naive', case: 'a', status: 'fail', protocolVersion: V2, expected: [{ outcome: 'HTTP_ERROR' }] });
    const cells = [other, cell('naive', 'a', 'pass', '2025-06-18'), cell('naive', 'a', 'fail', V1)];
    expect(buildBaselineEntries(cells, undefined)).toStrictEqual([
      { target: 'naive', case: 'a', version: V1, reason: OBSERVED },
      { target: 'naive', case: 'a', version: V2, reason: 'observed: reads an HTTP error status as a tool result (false success)' },
    ]);
  });

  it("the sentence reads the case's scripted answer", () => {
    const cases = new Map([['a', makeCase([{ id: 'omit' }], { id: 'a' })]]);
    expect(buildBaselineEntries([cell('naive', 'a', 'fail')], undefined, cases)[0]!.reason).toBe(`${OBSERVED_PREFIX}reads a response without an id as a tool result (false success)`);
  });
});

describe('buildBaselineEntries: which reasons are kept', () => {
  it("keeps a person's reason from a version-less entry or one of the same version, never from another version's", () => {
    const cells = [cell('naive', 'a', 'fail', V1), cell('naive', 'a', 'pass', V2), cell('naive', 'b', 'fail', V1), cell('naive', 'b', 'pass', V2), cell('naive', 'c', 'fail', V1), cell('naive', 'c', 'pass', V2)];
    const old = previous(`- { target: naive, case: a, reason: any version }\n- { target: naive, case: b, version: "${V2}", reason: the other version }\n- { target: naive, case: c, version: "${V1}", reason: this version }\n`);
    expect(buildBaselineEntries(cells, old)).toStrictEqual([
      { target: 'naive', case: 'a', version: V1, reason: 'any version' },
      { target: 'naive', case: 'b', version: V1, reason: OBSERVED },
      { target: 'naive', case: 'c', version: V1, reason: 'this version' },
    ]);
  });

  it('never takes a reason from a check entry, another target or another case', () => {
    const cells = [cell('naive', 'a', 'fail')];
    const old = previous('- { target: naive, case: "a:outcome@1", reason: about one check }\n- { target: other, case: a, reason: other target }\n- { target: naive, case: ab, reason: other case }\n');
    expect(buildBaselineEntries(cells, old)).toStrictEqual([
      { target: 'naive', case: 'a', reason: OBSERVED },
      { target: 'naive', case: 'ab', reason: 'other case' },
      { target: 'other', case: 'a', reason: 'other target' },
    ]);
  });

  it('a reason that only contains a generated prefix further on was written by a person', () => {
    const old = previous('- { target: naive, case: a, reason: "seen: observed: twice, known failure recorded once" }\n');
    expect(buildBaselineEntries([cell('naive', 'a', 'fail')], old)[0]!.reason).toBe('seen: observed: twice, known failure recorded once');
  });
});

describe('buildBaselineEntries: the order', () => {
  it("targets in the run's order, then targets of the old baseline alone by name; within a target by case, version and check", () => {
    const cells = [cell('zeta', 'b', 'fail'), cell('zeta', 'a', 'fail'), cell('alpha', 'c', 'fail'), cell('mid', 'x', 'pass')];
    const old = previous(
      [
        '- { target: old-b, case: q, reason: r }',
        '- { target: old-a, case: q, check: status@1, reason: r }',
        `- { target: old-a, case: q, version: "${V2}", reason: r }`,
        `- { target: old-a, case: q, version: "${V1}", reason: r }`,
        '- { target: old-a, case: q, check: outcome@1, reason: r }',
        '- { target: old-a, case: p, reason: r }',
        '- { target: old-a, case: q, reason: r }',
      ].join('\n'),
    );
    expect(buildBaselineEntries(cells, old).map((entry) => [entry.target, entry.case, entry.version ?? '', entry.check ?? ''].join(' '))).toEqual([
      'zeta a  ',
      'zeta b  ',
      'alpha c  ',
      'old-a p  ',
      'old-a q  ',
      'old-a q  outcome@1',
      'old-a q  status@1',
      `old-a q ${V1} `,
      `old-a q ${V2} `,
      'old-b q  ',
    ]);
  });
});

describe('buildBaselineEntries: an entry without a check first', () => {
  it('sorts before the same entry with a check, however a person spelled the check of a pair this run did not judge', () => {
    const old = previous('- { target: old, case: "q:A-check", reason: r }\n- { target: old, case: q, reason: r }\n- { target: old, case: r, reason: r }\n- { target: old, case: "r:0-check", reason: r }\n');
    expect(buildBaselineEntries([], old).map((entry) => `${entry.case}:${entry.check ?? ''}`)).toEqual(['q:', 'q:A-check', 'r:', 'r:0-check']);
  });
});

describe('renderBaseline and writeBaselineFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-write-baseline-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const entries = [
    { target: 'naive', case: 'a', check: 'outcome@1', version: V1, reason: 'observed: reads x as y (false success); also fails a, b' },
    { target: 'naive', case: 'b', reason: `${'a long reason '.repeat(12)}end` },
  ] as const;

  it('writes a header saying how to regenerate it, the format, then each entry with check and version only when set, on one line each', () => {
    expect(renderBaseline(entries)).toBe(
      [
        '# mcp-error-matrix baseline: expected failures.',
        '# A listed failing cell is reported as xfail and does not fail the run; a listed cell that passes',
        '# is xpass (a stale entry) and fails the run. Regenerate with the same --target/--case flags:',
        '#   mcp-error-matrix run --write-baseline <this file>',
        'format: mcp-error-matrix/baseline@1',
        'entries:',
        '  - target: naive',
        '    case: a',
        '    check: outcome@1',
        `    version: ${V1}`,
        '    reason: "observed: reads x as y (false success); also fails a, b"',
        '  - target: naive',
        '    case: b',
        `    reason: ${entries[1].reason}`,
        '',
      ].join('\n'),
    );
  });

  it('writes the text it returns, which reads back as the same entries', async () => {
    const path = join(dir, 'known.yaml');
    const text = await writeBaselineFile(path, entries);
    expect(await readFile(path, 'utf8')).toBe(text);
    expect(parseBaselineText(text, 'known.yaml').entries.map(({ index: _index, line: _line, ...entry }) => entry)).toEqual(entries);
  });
});
