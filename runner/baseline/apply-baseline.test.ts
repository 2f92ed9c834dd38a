import { describe, expect, it } from 'vitest';
import { makeCell, makeCheck } from '../../test/make-run-result.js';
import { summariseCells } from '../run/run-matrix.js';
import type { CellStatus } from '../vocabulary/types.js';
import { applyBaseline, applyBaselineToCell, validateBaselineChecks, validateBaselineEntries } from './apply-baseline.js';
import { parseBaselineText, type Baseline } from './load-baseline.js';

const parse = (text: string): Baseline => ({ ...parseBaselineText(text, 'b.yaml'), sha256: '0'.repeat(64) });
const listed = (): Baseline => parse('- { target: naive, case: c, reason: known }\n');

describe('a baseline entry naming the cell', () => {
  it.each<[CellStatus, CellStatus]>([
    ['fail', 'xfail'],
    ['non_strict', 'xfail'],
    ['pass', 'xpass'],
    // A cell that was not judged proves nothing either way: it keeps its status, and an error
    // still fails the run.
    ['error', 'error'],
    ['skip', 'skip'],
    ['xfail', 'xfail'],
    ['xpass', 'xpass'],
  ])('turns a %s cell into %s', (status, after) => {
    const cell = makeCell({ case: 'c', target: 'naive', status, ...(status === 'error' || status === 'skip' ? { checks: [] } : {}) });
    const next = applyBaselineToCell(listed(), cell);
    expect(next.status).toBe(after);
    if (after === status) expect(next).toBe(cell);
  });

  it('leaves an error cell an error that the run counts, and counts it neither applied nor stale', () => {
    const broken = makeCell({ case: 'c', target: 'naive', status: 'error', reason: 'the classifier threw', checks: [] });
    const failing = makeCell({ case: 'c', target: 'naive', protocolVersion: '2026-07-28', status: 'fail' });
    const result = applyBaseline(listed(), [broken, failing]);
    expect(result.cells[0]).toBe(broken);
    expect(result).toMatchObject({ applied: 1, stale: 0 });
    expect(summariseCells(result.cells)).toMatchObject({ error: 1, xfail: 1, fail: 0 });
  });

  it('matches target, case and, when given, version', () => {
    const cell = makeCell({ case: 'c', target: 'naive', protocolVersion: '2025-11-25', status: 'fail' });
    expect(applyBaselineToCell(parse('- { target: other, case: c, reason: r }\n'), cell)).toBe(cell);
    expect(applyBaselineToCell(parse('- { target: naive, case: d, reason: r }\n'), cell)).toBe(cell);
    expect(applyBaselineToCell(parse('- { target: naive, case: c, version: "2026-07-28", reason: r }\n'), cell)).toBe(cell);
    expect(applyBaselineToCell(parse('- { target: naive, case: c, version: "2025-11-25", reason: r }\n'), cell).status).toBe('xfail');
  });

  it('gives every matching entry as the reason', () => {
    const two = parse('- { target: naive, case: c, reason: one }\n- { target: naive, case: c, reason: two }\n');
    expect(applyBaselineToCell(two, makeCell({ case: 'c', target: 'naive', status: 'fail' })).reason).toBe('expected failure, b.yaml:1 (entry 1): one; b.yaml:2 (entry 2): two');
    expect(applyBaselineToCell(two, makeCell({ case: 'c', target: 'naive', status: 'pass' })).reason).toBe(
      'stale baseline entry, the cell passes now; remove it: b.yaml:1 (entry 1): one; b.yaml:2 (entry 2): two',
    );
  });
});

describe('a baseline entry naming checks', () => {
  const failing = (...ids: [string, 'MUST' | 'SHOULD' | 'POLICY' | 'INFO'][]) =>
    makeCell({ case: 'c', target: 'naive', status: 'fail', checks: [makeCheck({ id: 'ok', passed: true }), ...ids.map(([id, level]) => makeCheck({ id, level, passed: false }))] });

  it.each<[string, string[], [string, 'MUST' | 'SHOULD' | 'POLICY' | 'INFO'][], CellStatus]>([
    ['every failing check listed', ['outcome@1'], [['outcome@1', 'MUST']], 'xfail'],
    ['one of two failing checks listed', ['outcome@1'], [['outcome@1', 'MUST'], ['layer@1', 'SHOULD']], 'fail'],
    ['a failing INFO check need not be listed', ['outcome@1'], [['outcome@1', 'MUST'], ['note', 'INFO']], 'xfail'],
    ['a failing POLICY check must be', ['outcome@1'], [['outcome@1', 'MUST'], ['wire.no-auto-replay', 'POLICY']], 'fail'],
    ['a listed check that passed does not cover a failure', ['ok'], [['outcome@1', 'MUST']], 'fail'],
    ['both listed', ['outcome@1', 'layer@1'], [['outcome@1', 'MUST'], ['layer@1', 'SHOULD']], 'xfail'],
  ])('%s', (_title, checks, failures, status) => {
    const baseline = parse(checks.map((check) => `- { target: naive, case: "c:${check}", reason: r }\n`).join(''));
    expect(applyBaselineToCell(baseline, failing(...failures)).status).toBe(status);
  });

  it('names the listed checks in the reason', () => {
    const baseline = parse('- { target: naive, case: "c:outcome@1", reason: r }\n');
    expect(applyBaselineToCell(baseline, failing(['outcome@1', 'MUST'])).reason).toBe('expected failure, b.yaml:1 (entry 1) [outcome@1]: r');
  });

  it('accepts a check id some judged cell has; cells without checks prove nothing', () => {
    const baseline = parse('- { target: naive, case: "c:outcome@2", reason: r }\n');
    const skipped = makeCell({ case: 'c', target: 'naive', status: 'skip', checks: [] });
    expect(() => validateBaselineChecks(baseline, [skipped])).not.toThrow();
    const judged = makeCell({ case: 'c', target: 'naive', status: 'fail', checks: [makeCheck({ id: 'outcome@2', passed: false })] });
    expect(() => validateBaselineChecks(baseline, [skipped, judged])).not.toThrow();
    const otherTarget = makeCell({ case: 'c', target: 'other', status: 'fail', checks: [makeCheck({ id: 'outcome@1', passed: false })] });
    expect(() => validateBaselineChecks(baseline, [otherTarget])).not.toThrow();
  });
});

describe('baseline edges', () => {
  it('leaves an unlisted passing cell alone and counts nothing for cells already marked', () => {
    const pass = makeCell({ case: 'other', target: 'naive', status: 'pass' });
    expect(applyBaselineToCell(listed(), pass)).toBe(pass);
    const marked = [makeCell({ case: 'c', target: 'naive', status: 'xfail' }), makeCell({ case: 'c', target: 'naive', protocolVersion: '2026-07-28', status: 'xpass' })];
    expect(applyBaseline(listed(), marked)).toMatchObject({ applied: 0, stale: 0 });
  });

  it('does not cover a cell whose only failures are INFO checks with a check entry', () => {
    const cell = makeCell({ case: 'c', target: 'naive', status: 'fail', checks: [makeCheck({ id: 'note', level: 'INFO', passed: false })] });
    expect(applyBaselineToCell(parse('- { target: naive, case: "c:note", reason: r }\n'), cell)).toBe(cell);
  });

  it('names only the listed failing checks in the reason, joined by "; "', () => {
    const cell = makeCell({ case: 'c', target: 'naive', status: 'fail', checks: [makeCheck({ id: 'a', passed: false }), makeCheck({ id: 'b', passed: false }), makeCheck({ id: 'ok', passed: true })] });
    const baseline = parse('- { target: naive, case: "c:a", reason: ra }\n- { target: naive, case: "c:ok", reason: rok }\n- { target: naive, case: "c:b", reason: rb }\n');
    expect(applyBaselineToCell(baseline, cell).reason).toBe('expected failure, b.yaml:1 (entry 1) [a]: ra; b.yaml:3 (entry 3) [b]: rb');
  });

  it('validates only check entries, and lists the cell checks and versions joined by ", "', () => {
    const cell = makeCell({ case: 'c', target: 'naive', status: 'fail', checks: [makeCheck({ id: 'outcome@1', passed: false }), makeCheck({ id: 'status@1', passed: true })] });
    expect(() => validateBaselineChecks(listed(), [cell])).not.toThrow();
    expect(() => validateBaselineChecks(parse('- { target: naive, case: "c:zzzzzzzz", reason: r }\n'), [cell])).toThrow(
      /unknown check "zzzzzzzz" for case "c" on target "naive"; its checks are: outcome@1, status@1$/,
    );
    const scope = { cases: [{ id: 'c', versions: ['2025-11-25'] as const }, { id: 'd', versions: ['2025-11-25', '2026-07-28'] as const }], runTargets: ['naive', 'reference'], otherKnownTargets: [] };
    expect(() => validateBaselineEntries(parse('- { target: naive, case: zzzzzzzz, reason: r }\n'), scope)).toThrow(/unknown case "zzzzzzzz"; see `mcp-error-matrix list`/);
    expect(() => validateBaselineEntries(parse('- { target: qqqqqqqq, case: c, reason: r }\n'), scope)).toThrow(/unknown target "qqqqqqqq"; targets in this run: naive, reference$/);
    expect(() => validateBaselineEntries(parse('- { target: naive, case: c, version: "2026-07-28", reason: r }\n'), scope)).toThrow(/\(it runs under 2025-11-25\)$/);
  });
});

describe('an entry naming a version its case does not run under', () => {
  it('is refused with every version the case runs under, comma-separated', () => {
    const scope = { cases: [{ id: 'c', versions: ['2025-11-25', '2026-07-28'] as const }], runTargets: ['naive'], otherKnownTargets: [] };
    expect(() => validateBaselineEntries(parse('- { target: naive, case: c, version: "2025-06-18", reason: r }\n'), scope)).toThrow(
      'baseline b.yaml:1 (entry 1): case "c" does not run under 2025-06-18 (it runs under 2025-11-25, 2026-07-28)',
    );
  });
});
