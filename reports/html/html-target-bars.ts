// The HTML matrix's target list: one bar per target with its status counts and failure line,
// ranked by the share of the cells it ran that fail (skips left out), grouped by the stack (wire
// implementation) the target runs on; and each target's unsafe cells for the first screen.
import type { CellStatus } from '../../runner/vocabulary/types.js';
import type { PassableResult } from '../model/index.js';
import { CELL_STATUSES } from '../../runner/vocabulary/types.js';
import { countFailures, formatFailureLine } from '../model/index.js';
import { sanitizeText } from '../redaction/index.js';
import { STATUS_STYLE } from './status-style.js';
import { countUnsafe, UNSAFE_CONSEQUENCES, type UnsafeCount } from '../model/index.js';

export interface TargetBar {
  /** The target name exactly as in the result, for lookups; never shown. */
  rawName: string;
  name: string;
  index: number;
  version: string;
  kind: string;
  /** The wire implementation the target runs on (`target.stack`), else a word for its kind. */
  stack: string;
  /** Unexpected plus known (xfail) failures. */
  failures: number;
  /** Cells the target ran: every cell but the skipped ones. */
  ran: number;
  /** failures ÷ ran, what the list is ordered by: "12.5 % of 236 cells run fail; 473 in all". */
  shareNote: string;
  /** "0 unexpected · 25 known: 9 false successes, 11 unsafe retries, …" */
  failureLine: string;
  unexpected: number;
  total: number;
  segments: { status: CellStatus; word: string; count: number; percent: string }[];
  /** Cells whose worst consequence fails a MUST, known or not, per consequence (unsafe-cells.ts). */
  unsafe: UnsafeCount & { counts: { consequence: string; count: number }[] };
}

/** The targets of one stack, numbered on from the group before (the list's <ol start>). */
export interface TargetGroup {
  /** Shown as the group's heading when the run has more than one stack. */
  stack?: string;
  start: number;
  targets: TargetBar[];
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
  const bars = [...counts.keys()].map((name, position): TargetBar => {
    const byStatus = counts.get(name)!;
    const total = [...byStatus.values()].reduce((sum, n) => sum + n, 0);
    const ran = total - (byStatus.get('skip') ?? 0);
    const segments = CELL_STATUSES.map((status) => {
      const count = byStatus.get(status) ?? 0;
      return { status, word: STATUS_STYLE[status].word, count, percent: total ? ((100 * count) / total).toFixed(2) : '0' };
    }).filter((s) => s.count > 0);
    const failures = failuresOf.get(name)!;
    const t = info.get(name);
    const unsafe = countUnsafe(failures);
    return {
      rawName: name,
      name: sanitizeText(name),
      index: position,
      version: sanitizeText(t?.version ?? ''),
      kind: t?.kind ?? '',
      stack: sanitizeText(t?.stack ?? describeKind(t?.kind ?? '')),
      failures: failures.all,
      ran,
      shareNote: `${ran ? `${((100 * failures.all) / ran).toFixed(1)} % of ${ran} cells run fail` : 'no cell run'}${ran === total ? '' : `; ${total} in all`}`,
      failureLine: formatFailureLine(failures),
      unexpected: failures.unexpected.total,
      total,
      segments,
      unsafe: { ...unsafe, counts: UNSAFE_CONSEQUENCES.map((consequence) => ({ consequence, count: unsafe.byConsequence[consequence] ?? 0 })) },
    };
  });
  // The smallest share of failing cells among the cells run first (a target that skipped half its
  // cells has fewer failures, not a better record; issue 30); a target that ran nothing last; ties
  // by fewer failures, then the command-line order. Then grouped by stack (a group where its best
  // target ranks), so targets that share a wire implementation stand side by side.
  const share = (bar: TargetBar) => (bar.ran ? bar.failures / bar.ran : Infinity);
  const ranked = bars.sort((a, b) => share(a) - share(b) || a.failures - b.failures || a.index - b.index);
  const stacks = [...new Set(ranked.map((bar) => bar.stack))];
  const grouped = stacks.flatMap((stack) => ranked.filter((bar) => bar.stack === stack));
  return grouped.map((bar, index) => ({ ...bar, index }));
}

/** The ranked targets in their stack groups (one group without a heading when all share a stack). */
export function groupTargets(bars: readonly TargetBar[]): TargetGroup[] {
  const groups: TargetGroup[] = [];
  const several = new Set(bars.map((bar) => bar.stack)).size > 1;
  for (const bar of bars) {
    const last = groups.at(-1);
    if (last && (!several || last.stack === bar.stack)) last.targets.push(bar);
    else groups.push({ ...(several ? { stack: bar.stack } : {}), start: bar.index + 1, targets: [bar] });
  }
  return groups;
}

function describeKind(kind: string): string {
  if (kind === 'classifier') return 'classifiers';
  if (kind === 'command') return 'command clients';
  return kind || 'other';
}
