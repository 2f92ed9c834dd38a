// Progress on stderr: a live line on a TTY, a one-line summary otherwise, nothing with --quiet.
import type { CliIo } from '../cli-io.js';
import type { Cell, RunResult } from '../types.js';

export interface Progress {
  onCell(cell: Cell, done: number, total: number): void;
  done(result: RunResult): void;
}

/** Creates the progress reporter suited to the terminal. */
export function createProgress(io: CliIo, quiet: boolean): Progress {
  const live = io.isTTY && !io.env['CI'] && !quiet;
  const started = Date.now();
  let failed = 0;
  return {
    onCell(cell, done, total) {
      if (cell.status === 'fail' || cell.status === 'error' || cell.status === 'xpass') failed++;
      if (!live) return;
      const elapsed = (Date.now() - started) / 1000;
      const eta = done > 0 ? Math.max(0, (elapsed / done) * (total - done)) : 0;
      io.stderr(`\r\u001b[2K${done}/${total} cells, ${failed} unexpected, ETA ${eta.toFixed(0)} s`);
    },
    done(result) {
      if (quiet) return;
      if (live) io.stderr('\r\u001b[2K');
      const s = result.summary;
      io.stderr(`${s.total} cells: ${s.pass} pass, ${s.fail} fail, ${s.non_strict} non_strict, ${s.skip} skip, ${s.error} error, ${s.xfail} xfail, ${s.xpass} xpass\n`);
    },
  };
}
