// summary.md's lists, checked directly (issue 29 item 4) rather than only through the golden file:
// which cells each list holds, in what order, with what line, and how the caps count what they
// leave out. A reader acts on these lines; a cell missing from them is a failure nobody sees.
import { describe, expect, it } from 'vitest';
import type { Cell, CellStatus } from '../../runner/vocabulary/types.js';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import type { ComparedCell, Comparison } from '../model/index.js';
import { render, type MarkdownOptions } from './markdown.js';

/** The list items (`- …`) under a `### heading`, up to the next `### `. */
function listUnder(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n### ${heading}`);
  if (start < 0) return [];
  const end = markdown.indexOf('\n### ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end).split('\n').filter((line) => line.startsWith('- '));
}

const summarise = (cells: Cell[], options: MarkdownOptions = {}) => render(makeRunResult({ cells }), options);
const cellsWith = (...statuses: CellStatus[]) => statuses.map((status, i) => makeCell({ case: `c${i}-${status}`, status }));

describe('the unexpected-failures list', () => {
  it('holds exactly the fail, error and xpass cells, in run order, one line each with its reason', () => {
    const md = summarise(cellsWith('pass', 'fail', 'skip', 'xfail', 'error', 'non_strict', 'xpass'));
    expect(listUnder(md, 'Unexpected failures (3)')).toEqual([
      '- **c1-fail** · reference · 2025-11-25 — fail: MUST expected INVALID\\_TOOL\\_RESULT, target reported TOOL\\_SUCCESS',
      '- **c4-error** · reference · 2025-11-25 — error: target exited with code 1 before making a request',
      '- **c6-xpass** · reference · 2025-11-25 — xpass: passes but the baseline lists it as failing (stale entry): baseline: c6-xpass (known naive-client gap)',
    ]);
  });

  it('says None. when nothing failed unexpectedly', () => {
    const md = summarise(cellsWith('pass', 'skip', 'xfail', 'non_strict'));
    expect(md).toContain('### Unexpected failures (0)\n\nNone.\n');
  });
});

describe('the known-failures list and the shared cap', () => {
  it('lists known failures after the unexpected ones within one budget, and counts what it leaves out', () => {
    const md = summarise(cellsWith('fail', 'xfail', 'error', 'xfail', 'xfail', 'xfail'), { maxFailures: 4 });
    expect(listUnder(md, 'Unexpected failures (2)')).toHaveLength(2);
    // 4 - 2 unexpected = 2 known lines, then the rest counted.
    expect(listUnder(md, 'Known failures (4), by consequence')).toEqual([
      '- **c1-xfail** · reference · 2025-11-25: MUST expected INVALID\\_TOOL\\_RESULT, target reported TOOL\\_SUCCESS',
      '- **c3-xfail** · reference · 2025-11-25: MUST expected INVALID\\_TOOL\\_RESULT, target reported TOOL\\_SUCCESS',
      '- … 2 more known failures omitted',
    ]);
  });

  it('lists no known failure when the unexpected ones use the whole budget, and still counts them', () => {
    const md = summarise(cellsWith('fail', 'fail', 'xfail'), { maxFailures: 2 });
    expect(listUnder(md, 'Known failures (1), by consequence')).toEqual(['- … 1 more known failures omitted']);
  });
});

describe('the comparison lists', () => {
  const compared = (n: number, extra: Partial<ComparedCell> = {}): ComparedCell[] =>
    Array.from({ length: n }, (_, i) => ({ case: `k${i}`, target: 'ts-sdk@1.25.3', protocolVersion: '2025-11-25', ...extra }));
  const comparison: Comparison = {
    regressions: compared(3, { before: 'pass', after: 'error', beforeTarget: 'ts-sdk@1.24.3' }),
    fixes: compared(1, { before: 'fail', after: 'pass' }),
    added: compared(1, { after: 'skip' }),
    removed: compared(1, { before: 'pass' }),
  };

  it('lists each section\'s cells with old → new status, the paired targets named, capped with a count', () => {
    const md = render(makeRunResult(), { comparison, maxCompared: 2 });
    expect(listUnder(md, 'Regressions (3)')).toEqual([
      '- **k0** · ts-sdk@1.24.3 → ts-sdk@1.25.3 · 2025-11-25: pass → error',
      '- **k1** · ts-sdk@1.24.3 → ts-sdk@1.25.3 · 2025-11-25: pass → error',
      '- … 1 more omitted',
    ]);
    expect(listUnder(md, 'Fixes (1)')).toEqual(['- **k0** · ts-sdk@1.25.3 · 2025-11-25: fail → pass']);
    expect(listUnder(md, 'Added (1)')).toEqual(['- **k0** · ts-sdk@1.25.3 · 2025-11-25: — → skip']);
    expect(listUnder(md, 'Removed (1)')).toEqual(['- **k0** · ts-sdk@1.25.3 · 2025-11-25: pass → —']);
  });

  it('leaves out an empty section', () => {
    const md = render(makeRunResult(), { comparison: { ...comparison, fixes: [] } });
    expect(md).not.toContain('### Fixes');
    expect(md).toContain('3 regressions · 0 fixes · 1 added · 1 removed');
  });
});

describe('the counts table', () => {
  it('has a row per target of the result, then one per target seen only in cells, each summing to its cells', () => {
    const cells = [...cellsWith('pass', 'fail'), makeCell({ case: 'z', target: 'stray', status: 'error' })];
    const md = summarise(cells);
    const rows = md.split('\n').filter((line) => /^\| (reference|naive|stray) \|/.test(line));
    // The last column: the target's unsafe cells (a failed check whose consequence is unsafe), known or not.
    expect(rows).toEqual(['| reference | 0.1.0 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 2 | **1** (1 unexpected) |', '| naive | 0.1.0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |', '| stray |  | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 1 | 0 |']);
  });
});
