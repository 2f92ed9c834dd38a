import { describe, expect, it } from 'vitest';
import { makeCell, makeCell as makeFixtureCell, makeCheck } from '../../test/make-run-result.js';
import { applyBaseline, applyBaselineToCell, validateBaselineChecks, validateBaselineEntries } from './apply-baseline.js';
import { parseBaselineText, type Baseline } from './load-baseline.js';
import { buildBaselineEntries } from './write-baseline.js';

const parse = (text: string): Baseline => ({ ...parseBaselineText(text, 'b.yaml'), sha256: '0'.repeat(64) });

describe('parseBaselineText', () => {
  it('reads YAML entries with their lines, and case:check shorthand', () => {
    const baseline = parse('entries:\n  - target: naive\n    case: content-not-array\n    reason: known\n  - target: naive\n    case: "malformed-json:outcome@1"\n    version: "2025-11-25"\n    reason: r2\n');
    expect(baseline.entries).toEqual([
      { target: 'naive', case: 'content-not-array', reason: 'known', index: 1, line: 2 },
      { target: 'naive', case: 'malformed-json', check: 'outcome@1', version: '2025-11-25', reason: 'r2', index: 2, line: 5 },
    ]);
  });

  it('reads a bare JSON list', () => {
    expect(parse('[{"target":"naive","case":"x","reason":"r"}]').entries).toEqual([{ target: 'naive', case: 'x', reason: 'r', index: 1, line: 1 }]);
  });

  it.each([
    ['an unknown field, with a did-you-mean', 'entries:\n  - target: naive\n    case: x\n    reasn: r\n', /b\.yaml:2 \(entry 1\): unknown field "reasn" \(did you mean "reason"\?\)/],
    ['a missing reason', '- target: naive\n  case: x\n', /"reason" must be a non-empty string/],
    ['a version that is not a protocol version', '- target: naive\n  case: x\n  version: "2024-01-01"\n  reason: r\n', /"version" "2024-01-01" is not a protocol version/],
    ['check given twice', '- target: naive\n  case: "x:outcome@1"\n  check: outcome@1\n  reason: r\n', /names a check and "check" is set too/],
    ['broken YAML', 'entries: [\n', /not valid YAML or JSON/],
    ['an unknown top-level field', 'entrys: []\n', /unknown top-level field "entrys"/],
    ['a scalar document', 'just text\n', /expected a list of entries/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parse(text)).toThrow(message);
  });
});

describe('validateBaselineEntries', () => {
  const scope = {
    cases: [
      { id: 'content-not-array', versions: ['2025-11-25', '2026-07-28'] as const },
      { id: 'http-503-then-200', versions: ['2025-11-25'] as const },
    ],
    runTargets: ['reference', 'naive'],
    otherKnownTargets: ['reference', 'naive'],
  };
  const entry = (fields: string) => parse(`- { ${fields}, reason: r }\n`);

  it('accepts entries naming known cases, targets and versions', () => {
    expect(() => validateBaselineEntries(entry('target: naive, case: content-not-array'), scope)).not.toThrow();
  });

  it.each([
    ['an unknown case', 'target: naive, case: content-not-aray', /b\.yaml:1 \(entry 1\): unknown case "content-not-aray" \(did you mean "content-not-array"\?\)/],
    ['an unknown target', 'target: naiv, case: content-not-array', /unknown target "naiv" \(did you mean "naive"\?\); targets in this run: reference, naive/],
    ['a version the case does not run under', 'target: naive, case: http-503-then-200, version: "2026-07-28"', /does not run under 2026-07-28/],
  ])('refuses %s', (_name, fields, message) => {
    expect(() => validateBaselineEntries(entry(fields), scope)).toThrow(message);
  });
});

describe('applying a baseline', () => {
  const failing = makeCell({ case: 'content-not-array', target: 'naive', status: 'fail' });
  const passing = makeCell({ case: 'content-not-array', target: 'naive', status: 'pass' });

  it('turns a listed failing cell into xfail with the entry as reason', () => {
    const cell = applyBaselineToCell(parse('- { target: naive, case: content-not-array, reason: naive ignores content }\n'), failing);
    expect(cell).toMatchObject({ status: 'xfail', reason: 'expected failure, b.yaml:1 (entry 1): naive ignores content' });
  });

  it('turns a listed passing cell into xpass (stale)', () => {
    const cell = applyBaselineToCell(parse('- { target: naive, case: content-not-array, reason: gone }\n'), passing);
    expect(cell.status).toBe('xpass');
    expect(cell.reason).toMatch(/^stale baseline entry, the cell passes now; remove it: b\.yaml:1/);
  });

  it('leaves unlisted cells, other versions, skip and error cells alone', () => {
    const baseline = parse('- { target: naive, case: content-not-array, version: "2026-07-28", reason: r }\n');
    expect(applyBaselineToCell(baseline, failing)).toBe(failing);
    const skipped = makeCell({ case: 'content-not-array', target: 'naive', protocolVersion: '2026-07-28', status: 'skip' });
    expect(applyBaselineToCell(baseline, skipped)).toBe(skipped);
  });

  it('a check entry covers a failure only when every failing check is listed', () => {
    const twoFailures = makeCell({ case: 'c', target: 'naive', status: 'fail', checks: [makeCheck({ id: 'outcome@1', passed: false }), makeCheck({ id: 'status@1', passed: false })] });
    expect(applyBaselineToCell(parse('- { target: naive, case: "c:outcome@1", reason: r }\n'), twoFailures).status).toBe('fail');
    expect(applyBaselineToCell(parse('- { target: naive, case: "c:outcome@1", reason: r }\n- { target: naive, case: "c:status@1", reason: r }\n'), twoFailures).status).toBe('xfail');
  });

  it('counts applied and stale entries', () => {
    const baseline = parse('- { target: naive, case: content-not-array, reason: r }\n');
    expect(applyBaseline(baseline, [failing, passing])).toMatchObject({ applied: 1, stale: 1 });
  });

  it('refuses a check id no judged cell has, with a did-you-mean', () => {
    const baseline = parse('- { target: naive, case: "content-not-array:outcome@2", reason: r }\n');
    const cell = makeCell({ case: 'content-not-array', target: 'naive', status: 'fail', checks: [makeCheck({ id: 'outcome@1', passed: false })] });
    expect(() => validateBaselineChecks(baseline, [cell])).toThrow(/unknown check "outcome@2".*\(did you mean "outcome@1"\?\); its checks are: outcome@1/);
  });
});

describe('buildBaselineEntries', () => {
  // The failing cells expect INVALID_TOOL_RESULT, as their failed outcome check says (a false success).
  const makeCell = (overrides: Parameters<typeof makeFixtureCell>[0]) => makeFixtureCell({ expected: [{ outcome: 'INVALID_TOOL_RESULT' }], ...overrides });

  it('omits the version when every judged version fails, keeps old reasons, and keeps entries for pairs not judged', () => {
    const cells = [
      makeCell({ case: 'a', target: 'naive', protocolVersion: '2025-11-25', status: 'fail' }),
      makeCell({ case: 'a', target: 'naive', protocolVersion: '2026-07-28', status: 'xfail' }),
      makeCell({ case: 'b', target: 'naive', protocolVersion: '2025-11-25', status: 'pass' }),
      makeCell({ case: 'b', target: 'naive', protocolVersion: '2026-07-28', status: 'fail' }),
      makeCell({ case: 'c', target: 'naive', protocolVersion: '2025-11-25', status: 'xpass' }),
      makeCell({ case: 'd', target: 'naive', protocolVersion: '2025-11-25', status: 'error' }),
    ];
    const previous = parse('- { target: naive, case: a, reason: kept reason }\n- { target: naive, case: c, reason: stale }\n- { target: other, case: z, reason: untouched }\n');
    expect(buildBaselineEntries(cells, previous)).toEqual([
      { target: 'naive', case: 'a', reason: 'kept reason' },
      { target: 'naive', case: 'b', version: '2026-07-28', reason: 'observed: reads an invalid tool result as a tool result (false success)' },
      { target: 'other', case: 'z', reason: 'untouched' },
    ]);
  });

  it('replaces a generated reason (observed: …, or the older "known failure recorded …") with the behaviour observed now', () => {
    const cells = [makeCell({ case: 'a', target: 'naive', status: 'fail' }), makeCell({ case: 'b', target: 'naive', status: 'fail' })];
    const previous = parse('- { target: naive, case: a, reason: "known failure recorded 2026-11-30 by --write-baseline: outcome@1: x" }\n- { target: naive, case: b, reason: "observed: reads something old" }\n');
    expect(buildBaselineEntries(cells, previous).map((entry) => entry.reason)).toEqual([
      'observed: reads an invalid tool result as a tool result (false success)',
      'observed: reads an invalid tool result as a tool result (false success)',
    ]);
  });
});
