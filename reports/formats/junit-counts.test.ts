// JUnit's counts, checked directly (issue 29 item 4) rather than only through the golden file:
// what a CI test view shows first. Each <testsuite>'s tests/failures/errors/skipped equal the
// testcases it holds of each kind, and <testsuites> holds their sums, with targets whose mixes
// differ so that a count read from the wrong status, the wrong suite or the wrong field shows.
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Cell, CellStatus } from '../../runner/vocabulary/types.js';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { render } from './junit.js';

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: string;
}
type Parsed = Counts & { name: string; testcase: Record<string, unknown>[] };

function parse(xml: string): { totals: Counts; suites: Parsed[] } {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(xml) as {
    testsuites: Record<string, string> & { testsuite?: Record<string, unknown>[] };
  };
  const counts = (node: Record<string, unknown>): Counts => ({ tests: Number(node['tests']), failures: Number(node['failures']), errors: Number(node['errors']), skipped: Number(node['skipped']), time: String(node['time']) });
  const suites = (doc.testsuites.testsuite ?? []).map((suite) => ({ ...counts(suite), name: String(suite['name']), testcase: (suite['testcase'] as Record<string, unknown>[] | undefined) ?? [] }));
  return { totals: counts(doc.testsuites), suites };
}

/** Cells of one target: `statuses[i]` for case `c<i>`, each lasting `ms` milliseconds. */
const cellsOf = (target: string, statuses: CellStatus[], ms = 250): Cell[] => statuses.map((status, i) => makeCell({ case: `c${i}`, target, status, durationMs: ms }));

describe('JUnit counts', () => {
  const cells = [
    ...cellsOf('alpha', ['pass', 'fail', 'fail', 'error', 'skip', 'xfail', 'xpass', 'non_strict']),
    ...cellsOf('beta', ['error', 'error', 'error', 'skip', 'pass'], 1000),
    ...cellsOf('gamma', ['xfail', 'xfail', 'skip', 'skip', 'skip', 'fail']),
  ];
  const { totals, suites } = parse(render(makeRunResult({ cells, targets: ['alpha', 'beta', 'gamma'].map((name) => ({ name, kind: 'client' })) })));

  it('counts each suite from its own cells: fail and xpass are failures, error an error, skip and xfail skipped', () => {
    expect(suites.map(({ name, tests, failures, errors, skipped }) => ({ name, tests, failures, errors, skipped }))).toEqual([
      { name: 'alpha', tests: 8, failures: 3, errors: 1, skipped: 2 },
      { name: 'beta', tests: 5, failures: 0, errors: 3, skipped: 1 },
      { name: 'gamma', tests: 6, failures: 1, errors: 0, skipped: 5 },
    ]);
  });

  it('each suite\'s counts equal the testcases it holds of each kind', () => {
    for (const suite of suites) {
      const having = (tag: string) => suite.testcase.filter((testcase) => tag in testcase).length;
      expect({ tests: suite.testcase.length, failures: having('failure'), errors: having('error'), skipped: having('skipped') }, suite.name).toEqual({ tests: suite.tests, failures: suite.failures, errors: suite.errors, skipped: suite.skipped });
    }
  });

  it('<testsuites> holds the sums over every suite, time included', () => {
    expect(totals).toEqual({ tests: 19, failures: 4, errors: 4, skipped: 8, time: '8.500' });
    expect(suites.map((suite) => suite.time)).toEqual(['2.000', '5.000', '1.500']);
  });

  it('a run with no cell has zero counts, and a target without cells an empty suite', () => {
    const empty = parse(render(makeRunResult({ cells: [], targets: [{ name: 'alpha', kind: 'client' }] })));
    expect(empty.totals).toEqual({ tests: 0, failures: 0, errors: 0, skipped: 0, time: '0.000' });
    expect(empty.suites).toMatchObject([{ name: 'alpha', tests: 0, failures: 0, errors: 0, skipped: 0 }]);
  });
});
