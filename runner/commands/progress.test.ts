import { describe, expect, it } from 'vitest';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import type { CliIo } from '../cli/cli-io.js';
import { createProgress, type ProgressOptions } from './progress.js';

function capture(io: Partial<CliIo>, options: ProgressOptions) {
  let stderr = '';
  const progress = createProgress({ stdout: () => {}, stderr: (text) => void (stderr += text), cwd: '.', env: {}, isTTY: false, ...io }, options);
  const cells = [makeCell({ status: 'pass' }), makeCell({ case: 'content-not-array', target: 'naive', status: 'fail' })];
  cells.forEach((cell, i) => progress.onCell(cell, i + 1, cells.length));
  progress.done(makeRunResult({ cells }));
  return stderr;
}

describe('progress', () => {
  it('prints only the summary line when not on a TTY', () => {
    expect(capture({}, { quiet: false })).toBe('2 cells: 1 pass, 1 fail, 0 non_strict, 0 skip, 0 error, 0 xfail, 0 xpass\n');
  });

  it('prints nothing with --quiet', () => {
    expect(capture({ isTTY: true }, { quiet: true })).toBe('');
  });

  it('prints one plain line per cell with --verbose, with the first failure as reason', () => {
    const lines = capture({}, { quiet: false, verbose: true }).split('\n');
    expect(lines[0]).toMatch(/^pass {7}baseline · reference · 2025-11-25 \(\d+ ms\)$/);
    expect(lines[1]).toMatch(/^fail {7}content-not-array · naive · 2025-11-25 \(\d+ ms\) — expected INVALID_TOOL_RESULT, target reported TOOL_SUCCESS$/);
  });

  it('shows a live line with counts and ETA on a TTY outside CI, coloured unless NO_COLOR is set', () => {
    const live = capture({ isTTY: true }, { quiet: false });
    expect(live).toContain('2/2 cells, 1 unexpected, ETA 0 s');
    expect(live).toContain('\u001b[31m1 fail\u001b[0m');
    const plain = capture({ isTTY: true, env: { NO_COLOR: '1' } }, { quiet: false });
    expect(plain).toContain('1/2 cells');
    expect(plain).not.toMatch(/\u001b\[3\d/);
  });

  it('shows no live line in CI, even on a TTY', () => {
    expect(capture({ isTTY: true, env: { CI: 'true', NO_COLOR: '1' } }, { quiet: false })).toBe('2 cells: 1 pass, 1 fail, 0 non_strict, 0 skip, 0 error, 0 xfail, 0 xpass\n');
  });

  it('keeps control characters in reasons out of the terminal', () => {
    let stderr = '';
    const progress = createProgress({ stdout: () => {}, stderr: (t) => void (stderr += t), cwd: '.', env: {}, isTTY: false }, { quiet: false, verbose: true });
    progress.onCell(makeCell({ status: 'error', reason: 'boom \u001b]0;title\u0007 done\nsecond' }), 1, 1);
    expect(stderr).toMatch(/— boom  \]0;title  done\n$/);
  });
});
