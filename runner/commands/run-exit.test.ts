// The run's exit code is its verdict for CI: 1 whenever anything failed unexpectedly, never for
// what was expected; and the closing lines say per target what failed and what was not measured.
import { describe, expect, it } from 'vitest';
import { makeCell, makeRunResult, summarize } from '../../test/make-run-result.js';
import type { CellStatus, RunResult } from '../vocabulary/types.js';
import { describeTargetFailures, describeUnmeasured, hasUnexpected } from './run-exit.js';

const withStatuses = (...statuses: CellStatus[]) => {
  const cells = statuses.map((status, i) => makeCell({ case: `case-${i}`, status }));
  return { complete: true, summary: summarize(cells) } satisfies Pick<RunResult, 'complete' | 'summary'>;
};

describe('hasUnexpected: exit 1 exactly when something failed unexpectedly', () => {
  it('is false for a complete run of passes, known failures, soft failures and skips', () => {
    expect(hasUnexpected(withStatuses('pass', 'xfail', 'non_strict', 'skip'))).toBe(false);
    expect(hasUnexpected(withStatuses())).toBe(false);
  });

  for (const status of ['fail', 'error', 'xpass'] as const) {
    it(`is true for one ${status} cell among passes`, () => {
      expect(hasUnexpected(withStatuses('pass', status, 'pass'))).toBe(true);
    });
  }

  it('is true for an interrupted run, even with nothing failed', () => {
    expect(hasUnexpected({ ...withStatuses('pass'), complete: false })).toBe(true);
  });

  it('is true when a target got no measured cell: nothing measured is not green', () => {
    const unmeasured = [{ target: 'ts-sdk@0.4.0', reason: 'no Streamable HTTP client' }];
    expect(hasUnexpected({ ...withStatuses('pass'), unmeasured })).toBe(true);
    expect(hasUnexpected({ ...withStatuses('pass'), unmeasured: [] })).toBe(false);
  });

  it('leaves an unmeasured target of one shard to the merge, which decides', () => {
    const unmeasured = [{ target: 'naive', reason: 'every cell of this shard was skipped' }];
    expect(hasUnexpected({ ...withStatuses('pass'), unmeasured, shard: {} })).toBe(false);
    expect(hasUnexpected({ ...withStatuses('pass'), unmeasured, shard: { merged: [1, 2] } })).toBe(true);
    // A shard's own failures still count.
    expect(hasUnexpected({ ...withStatuses('fail'), shard: {} })).toBe(true);
  });
});

describe('the closing lines', () => {
  it('name each target with nothing measured and why', () => {
    expect(describeUnmeasured({ unmeasured: [{ target: 'a', reason: 'r1' }, { target: 'b', reason: 'r2' }] })).toEqual([
      'mcp-error-matrix: nothing measured for a: r1',
      'mcp-error-matrix: nothing measured for b: r2',
    ]);
    expect(describeUnmeasured({})).toEqual([]);
  });

  it('give one line per target, unexpected apart from known, with its unsafe cells', () => {
    const cells = [
      makeCell({ target: 'reference', status: 'pass' }),
      makeCell({ target: 'naive', status: 'fail' }),
      makeCell({ target: 'naive', case: 'c2', status: 'xfail' }),
    ];
    const lines = describeTargetFailures(makeRunResult({ cells, targets: [{ name: 'reference', kind: 'builtin' }, { name: 'naive', kind: 'builtin' }] }));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('  reference: 0 unexpected · 0 known');
    expect(lines[1]).toMatch(/^ {2}naive: 1 unexpected: 1 false success · 1 known: 1 false success \(2 unsafe\)$/);
  });

  it("put a hostile target name's control characters on one line as spaces", () => {
    const name = 'evil\u001b[2J\nname\u2028x';
    const lines = describeTargetFailures(makeRunResult({ cells: [makeCell({ target: name })], targets: [{ name, kind: 'command' }] }));
    expect(lines).toEqual(['  evil [2J name x: 0 unexpected · 0 known']);
  });
});
