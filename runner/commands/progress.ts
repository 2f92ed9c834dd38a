// Progress on stderr: a live line on a TTY (not in CI), a one-line summary otherwise, one line
// per cell with --verbose, nothing with --quiet. Colour only on a TTY and never with NO_COLOR.
import type { CliIo } from '../cli/cli-io.js';
import { ERROR_KINDS, type Cell, type CellStatus, type RunResult } from '../vocabulary/types.js';
import { describePassSources, describeWireOnlyTargets } from '../run/describe-conclusions.js';
import { describeBackoff, describeReruns } from '../run/describe-reruns.js';

/** What the closing line reads of a run: its counts and fields, its cells a pass at a time. */
export type ProgressResult = Pick<RunResult, 'summary' | 'complete' | 'schemas' | 'targets' | 'reruns' | 'concurrency'> & { cells: Iterable<Cell> };

export interface Progress {
  onCell(cell: Cell, done: number, total: number): void;
  /** Clears the live line: the run's output that follows starts on a clean line. */
  stop(): void;
  /** A cell was run again after the main pass (confirm-cells.ts): with --verbose, its line again. */
  onRerun(cell: Cell): void;
  /** The run's counts in one line (the live line cleared first). */
  done(result: ProgressResult): void;
}

export interface ProgressOptions {
  quiet: boolean;
  /** One line per finished cell. @default false */
  verbose?: boolean;
}

// ANSI SGR colours per status; the status word is always printed, colour only adds to it.
const COLOURS: Record<CellStatus, string> = { pass: '32', fail: '31', non_strict: '33', skip: '2', error: '35', xfail: '36', xpass: '31;1' };

const UNEXPECTED: readonly CellStatus[] = ['fail', 'error', 'xpass'];

/** Creates the progress reporter suited to the terminal. */
export function createProgress(io: CliIo, options: ProgressOptions | boolean): Progress {
  const { quiet, verbose = false } = typeof options === 'boolean' ? { quiet: options } : options;
  const live = io.isTTY && !io.env['CI'] && !quiet;
  // https://no-color.org: any non-empty NO_COLOR disables colour.
  const colour = io.isTTY && !io.env['NO_COLOR'];
  const paint = (status: CellStatus, text: string) => (colour ? `\u001b[${COLOURS[status]}m${text}\u001b[0m` : text);
  const started = Date.now();
  let unexpected = 0;
  let liveShown = false;
  return {
    onCell(cell, done, total) {
      if (UNEXPECTED.includes(cell.status)) unexpected++;
      if (quiet) return;
      if (liveShown) io.stderr('\r\u001b[2K');
      if (verbose) io.stderr(describeCell(cell));
      if (!live) return;
      const elapsed = (Date.now() - started) / 1000;
      const eta = done > 0 ? Math.max(0, (elapsed / done) * (total - done)) : 0;
      io.stderr(`${done}/${total} cells, ${unexpected} unexpected, ETA ${eta.toFixed(0)} s`);
      liveShown = true;
    },
    stop() {
      if (liveShown) io.stderr('\r\u001b[2K');
      liveShown = false;
    },
    onRerun(cell) {
      if (!verbose || quiet) return;
      if (liveShown) io.stderr('\r\u001b[2K');
      liveShown = false;
      io.stderr(describeCell(cell, `run again (${cell.timing?.rerun?.reason ?? 'confirm'})`));
    },
    done(result) {
      if (quiet) return;
      if (liveShown) io.stderr('\r\u001b[2K');
      liveShown = false;
      const s = result.summary;
      const kinds = describeErrorKinds(result.cells);
      const parts = (['pass', 'fail', 'non_strict', 'skip', 'error', 'xfail', 'xpass'] as const).map((status) => {
        const words = `${s[status]} ${status}${status === 'error' && kinds ? ` (${kinds})` : ''}`;
        return s[status] > 0 ? paint(status, words) : words;
      });
      const sources = describePassSources(s);
      const notes = [...(sources ? [sources] : []), ...(result.complete ? [] : ['interrupted: the run is incomplete']), ...(result.schemas === null ? ['schema checks off: --no-schemas'] : [])];
      io.stderr(`${s.total} cells: ${parts.join(', ')}${notes.length ? ` (${notes.join('; ')})` : ''}\n`);
      for (const line of [describeReruns(result), describeBackoff(result)]) if (line) io.stderr(`${line}\n`);
      for (const warning of describeWireOnlyTargets(result)) io.stderr(`${warning}\n`);
    },
  };

  /** One --verbose line: status, cell, duration and why it is not a pass. */
  function describeCell(cell: Cell, note?: string): string {
    const why = cell.status === 'pass' ? '' : ` — ${firstLine(cell.reason ?? cell.checks.find((check) => !check.passed)?.message ?? '')}`;
    return `${paint(cell.status, cell.status.padEnd(10))} ${cell.case} · ${cell.target} · ${cell.protocolVersion} (${cell.durationMs} ms${note ? `, ${note}` : ''})${why}\n`;
  }
}

/** "3 adapter-gap": the error cells that have a named cause, by kind (ERROR_KINDS order). */
function describeErrorKinds(cells: Iterable<Cell>): string {
  const counts = new Map<string, number>(ERROR_KINDS.map((kind) => [kind, 0]));
  for (const cell of cells) if (cell.status === 'error' && cell.errorKind) counts.set(cell.errorKind, (counts.get(cell.errorKind) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 0).map(([kind, count]) => `${count} ${kind}`).join(', ');
}

function firstLine(text: string): string {
  // Cell reasons can carry target output; keep the terminal safe from control sequences.
  const line = text.split('\n')[0]!.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
