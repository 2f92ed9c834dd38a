// TAP's lines, checked directly (issue 29 item 4) rather than only through the whole-report
// golden: each point's line for each status, and each subtest's closing line, which is what a TAP
// consumer counts: a subtest fails on a fail, an error or a stale baseline entry (xpass), never on
// a known failure (a TODO point) or a skip.
import { describe, expect, it } from 'vitest';
import { CELL_STATUSES, type Cell, type CellStatus } from '../../runner/vocabulary/types.js';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { render } from './tap.js';

/** The lines that are not YAML diagnostics (those are indented six spaces). */
function listLines(cells: Cell[], targets = [...new Set(cells.map((c) => c.target))]): string[] {
  const tap = render(makeRunResult({ cells, targets: targets.map((name) => ({ name, kind: 'client' })) }));
  return tap.split('\n').filter((line) => (line !== '' && !line.startsWith('      ') && !line.startsWith('# ')) || line.startsWith('# Subtest'));
}

describe('the TAP point line of each status', () => {
  it.each([
    ['pass', '    ok 1 - case-a [2025-11-25]'],
    ['non_strict', '    ok 1 - case-a [2025-11-25] (non_strict)'],
    ['skip', '    ok 1 - case-a [2025-11-25] # SKIP target does not speak 2025-11-25'],
    ['fail', '    not ok 1 - case-a [2025-11-25]'],
    ['error', '    not ok 1 - case-a [2025-11-25] (error)'],
    ['xfail', '    not ok 1 - case-a [2025-11-25] # TODO expected failure: baseline: case-a (known naive-client gap)'],
    ['xpass', '    not ok 1 - case-a [2025-11-25] (xpass: listed in the baseline but passes; remove the entry)'],
  ] as [CellStatus, string][])('%s', (status, line) => {
    expect(listLines([makeCell({ case: 'case-a', status })])).toEqual(['TAP version 14', '1..1', '# Subtest: reference', '    1..1', line, `${status === 'fail' || status === 'error' || status === 'xpass' ? 'not ok' : 'ok'} 1 - reference`]);
  });

  it('numbers the points per subtest from 1, and says when a pass had no verdict', () => {
    const lines = listLines([makeCell({ case: 'a' }), makeCell({ case: 'b', conclusion: 'exit_status' }), makeCell({ case: 'c', target: 'other' })]);
    expect(lines).toEqual([
      'TAP version 14',
      '1..2',
      '# Subtest: reference',
      '    1..2',
      '    ok 1 - a [2025-11-25]',
      '    ok 2 - b [2025-11-25] (pass: exit status only)',
      'ok 1 - reference',
      '# Subtest: other',
      '    1..1',
      '    ok 1 - c [2025-11-25]',
      'ok 2 - other',
    ]);
  });
});

describe('the TAP subtest line: not ok exactly when a point fails the run', () => {
  const subtestLine = (statuses: CellStatus[]) => listLines(statuses.map((status, i) => makeCell({ case: `c${i}`, status }))).at(-1);

  it.each(CELL_STATUSES.map((status) => [status, status === 'fail' || status === 'error' || status === 'xpass' ? 'not ok 1 - reference' : 'ok 1 - reference']))('a subtest of passes and one %s: %s', (status, line) => {
    expect(subtestLine(['pass', status as CellStatus, 'pass'])).toBe(line);
  });

  it('a failing point anywhere in the subtest fails it, whatever follows', () => {
    expect(subtestLine(['fail', 'pass', 'xfail', 'skip'])).toBe('not ok 1 - reference');
    expect(subtestLine(['xfail', 'skip', 'non_strict', 'error'])).toBe('not ok 1 - reference');
    expect(subtestLine(['xfail', 'xfail', 'skip'])).toBe('ok 1 - reference');
  });

  it('each target is judged on its own cells', () => {
    const lines = listLines([makeCell({ case: 'a', status: 'fail' }), makeCell({ case: 'a', target: 'other', status: 'pass' })]);
    expect(lines.filter((line) => /^(not )?ok \d/.test(line))).toEqual(['not ok 1 - reference', 'ok 2 - other']);
  });

  it('a subtest with no cell has an empty plan and passes', () => {
    const lines = listLines([makeCell({ case: 'a' })], ['reference', 'silent']);
    expect(lines.slice(-3)).toEqual(['# Subtest: silent', '    1..0', 'ok 2 - silent']);
  });
});
