// summary.json (issue 30): per target its cells by status, its failures by kind, its unsafe
// cells known or not, and its regressions when compared; valid against schemas/summary.schema.json.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../runner/util/package-paths.js';
import { CELL_STATUSES, type Cell, type Consequence } from '../../runner/vocabulary/types.js';
import { makeCell, makeCheck, makeRunResult } from '../../test/make-run-result.js';
import { FAILURE_KINDS } from '../model/index.js';
import { render, summarize } from './summary-json.js';
import { UNSAFE_CONSEQUENCES } from '../model/index.js';

const schema = JSON.parse(readFileSync(packagePath('schemas', 'summary.schema.json'), 'utf8')) as { $defs: Record<string, { required: string[] }> };
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
((addFormatsModule as unknown as { default?: (a: Ajv2020) => void }).default ?? (addFormatsModule as unknown as (a: Ajv2020) => void))(ajv);
const validate = ajv.compile(schema);

const graded = (consequence: Consequence) => makeCheck({ id: 'outcome@1', passed: false, consequence, expected: 'NO_RESPONSE', actual: 'TOOL_SUCCESS', message: 'outcome@1: expected NO_RESPONSE, got TOOL_SUCCESS' });

/** Target t: 2 known false successes, 1 unexpected unsafe retry, 1 known lost recovery (a SHOULD: not unsafe), a skip, an error and a pass. */
function makeGradedResult() {
  const cell = (id: string, status: Cell['status'], checks?: Cell['checks']) => makeCell({ case: id, target: 't', status, ...(checks ? { checks } : {}) });
  const cells = [
    cell('a', 'xfail', [graded('false-success')]),
    cell('b', 'xfail', [graded('false-success'), graded('imprecise')]),
    cell('c', 'fail', [graded('unsafe-retry')]),
    cell('d', 'xfail', [graded('lost-recovery')]),
    cell('e', 'skip'),
    cell('f', 'error'),
    cell('g', 'pass'),
  ];
  return makeRunResult({ targets: [{ name: 't', kind: 'builtin', version: '1.0.0' }, { name: 'quiet', kind: 'builtin' }], cells });
}

describe('summary.json', () => {
  it('counts each target\'s cells by status, and its failures by kind, unexpected apart from known', () => {
    const summary = summarize(makeGradedResult());
    const [t, quiet] = summary.targets;
    expect(t).toMatchObject({ name: 't', kind: 'builtin', version: '1.0.0', cells: 7, measured: 5, statuses: { pass: 1, fail: 1, non_strict: 0, skip: 1, error: 1, xfail: 3, xpass: 0 } });
    expect(t!.unexpected).toEqual({ total: 2, byKind: { ...Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])), 'unsafe-retry': 1, 'not-measured': 1 } });
    expect(t!.known.total).toBe(3);
    expect(t!.known.byKind).toMatchObject({ 'false-success': 2, 'lost-recovery': 1 });
    // A target with no cell is still listed, all zero.
    expect(quiet).toMatchObject({ name: 'quiet', cells: 0, measured: 0, unsafe: { total: 0, unexpected: 0 } });
    expect(summary).toMatchObject({ cells: 7, unexpected: 2, known: 3, statuses: { xfail: 3 }, comparison: null });
  });

  it('counts unsafe cells by consequence, known or not; a SHOULD consequence (lost recovery) is not unsafe', () => {
    const summary = summarize(makeGradedResult());
    expect(summary.targets[0]!.unsafe).toEqual({ total: 3, unexpected: 1, 'false-success': 2, 'false-failure': 0, 'unsafe-retry': 1, 'no-conclusion': 0 });
    expect(summary.unsafe).toEqual(summary.targets[0]!.unsafe);
  });

  it('lists each target\'s regressions only when the run was compared', () => {
    const result = makeGradedResult();
    expect(summarize(result).targets[0]).not.toHaveProperty('regressions');
    const comparison = {
      regressions: [{ case: 'c', target: 't', protocolVersion: '2025-11-25' as const, before: 'pass' as const, after: 'fail' as const, beforeTarget: 't-old' }],
      fixes: [],
      added: [{ case: 'z', target: 't', protocolVersion: '2025-11-25' as const, after: 'pass' as const }],
      removed: [],
      baselineLabel: 'old/results.json',
    };
    const summary = summarize(result, { comparison });
    expect(summary.targets[0]!.regressions).toEqual([{ case: 'c', protocolVersion: '2025-11-25', before: 'pass', after: 'fail', beforeTarget: 't-old' }]);
    expect(summary.targets[1]!.regressions).toEqual([]);
    expect(summary.comparison).toEqual({ against: 'old/results.json', regressions: 1, fixes: 0, added: 1, removed: 0 });
    expect(validate(JSON.parse(render(result, { comparison }))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('is valid against schemas/summary.schema.json, and the schema refuses a summary missing a count', () => {
    for (const result of [makeRunResult(), makeGradedResult(), makeRunResult({ cells: [], complete: false, schemas: null, unmeasured: [{ target: 'naive', reason: 'every cell skipped' }] })]) {
      const value = JSON.parse(render(result)) as { targets: { statuses: Record<string, number> }[] };
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      if (!value.targets[0]) continue;
      delete value.targets[0].statuses['xfail'];
      expect(validate(value)).toBe(false);
    }
  });

  it('names in its schema exactly the statuses, kinds and unsafe consequences the reports count', () => {
    expect(schema.$defs['statuses']!.required).toEqual([...CELL_STATUSES]);
    expect((schema.$defs['kinds'] as unknown as { properties: { byKind: { required: string[] } } }).properties.byKind.required).toEqual([...FAILURE_KINDS]);
    expect(schema.$defs['unsafe']!.required).toEqual(['total', 'unexpected', ...UNSAFE_CONSEQUENCES]);
  });

  it('writes raw C1 controls and line separators in target names as escapes, like results.json', () => {
    const text = render(makeRunResult({ targets: [{ name: 'evil\u009b\u2028name', kind: 'builtin' }], cells: [] }));
    expect(text).not.toMatch(/[\u0080-\u009f\u2028\u2029]/);
    expect(JSON.parse(text).targets[0].name).toBe('evil\u009b\u2028name');
  });
});
