// The HTML matrix's target list: one bar per target with its status counts and failure line,
// ranked by failures and grouped by the stack (wire implementation) the target runs on.
import type { CellStatus } from '../runner/types.js';
import type { PassableResult } from './report-source.js';
import { CELL_STATUSES } from '../runner/types.js';
import { countFailures, formatFailureLine } from './count-failures.js';
import { sanitizeText } from './redact.js';
import { STATUS_STYLE } from './status-style.js';

export interface TargetBar {
  /** The target name exactly as in the result, for lookups; never shown. */
  rawName: string;
  name: string;
  index: number;
  version: string;
  kind: string;
  /** The wire implementation the target runs on (`target.stack`), else a word for its kind. */
  stack: string;
  /** Set on the first target of its stack when the run has more than one stack: the list shows a heading. */
  stackStart: boolean;
  /** Unexpected plus known (xfail) failures: what the targets are ordered by. */
  failures: number;
  /** "0 unexpected · 25 known: 9 false successes, 11 unsafe retries, …" */
  failureLine: string;
  unexpected: number;
  total: number;
  segments: { status: CellStatus; word: string; count: number; percent: string }[];
}

export function buildTargets(result: PassableResult): TargetBar[] {
  const info = new Map(result.targets.map((t) => [t.name, t]));
  // One pass counts every target's statuses (filtering per target was targets × cells); targets
  // seen only in cells come after the result's own, in order of first appearance.
  const counts = new Map(result.targets.map((t) => [t.name, new Map<CellStatus, number>()]));
  for (const cell of result.cells) {
    let byStatus = counts.get(cell.target);
    if (!byStatus) counts.set(cell.target, (byStatus = new Map()));
    byStatus.set(cell.status, (byStatus.get(cell.status) ?? 0) + 1);
  }
  const failuresOf = new Map(countFailures(result).map((f) => [f.target, f]));
  const bars = [...counts.keys()].map((name, position) => {
    const byStatus = counts.get(name)!;
    const total = [...byStatus.values()].reduce((sum, n) => sum + n, 0);
    const segments = CELL_STATUSES.map((status) => {
      const count = byStatus.get(status) ?? 0;
      return { status, word: STATUS_STYLE[status].word, count, percent: total ? ((100 * count) / total).toFixed(2) : '0' };
    }).filter((s) => s.count > 0);
    const failures = failuresOf.get(name)!;
    const t = info.get(name);
    const stack = sanitizeText(t?.stack ?? describeKind(t?.kind ?? ''));
    return {
      rawName: name,
      name: sanitizeText(name),
      index: position,
      version: sanitizeText(t?.version ?? ''),
      kind: t?.kind ?? '',
      stack,
      stackStart: false,
      failures: failures.all,
      failureLine: formatFailureLine(failures),
      unexpected: failures.unexpected.total,
      total,
      segments,
    };
  });
  // Fewest failures (unexpected and known alike) first; ties keep the command-line order. Then
  // grouped by stack (a group where its best target ranks), so targets that share a wire
  // implementation stand side by side.
  const ranked = bars.sort((a, b) => a.failures - b.failures || a.index - b.index);
  const stacks = [...new Set(ranked.map((bar) => bar.stack))];
  const grouped = stacks.flatMap((stack) => ranked.filter((bar) => bar.stack === stack));
  return grouped.map((bar, index) => ({ ...bar, index, stackStart: stacks.length > 1 && (index === 0 || grouped[index - 1]!.stack !== bar.stack) }));
}

function describeKind(kind: string): string {
  if (kind === 'classifier') return 'classifiers';
  if (kind === 'command') return 'command clients';
  return kind || 'other';
}
