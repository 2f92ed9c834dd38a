// Words for where passes came from, shared by the CLI summary line and the reports: a pass the
// client never stated (exit status alone, or the wire alone) is never shown as a plain pass.
import type { Cell, Conclusion, RunResult, RunSummary } from '../vocabulary/types.js';

/** Short labels for a cell whose conclusion is not a verdict, e.g. for a TAP line or an HTML cell. */
export const CONCLUSION_LABEL: Record<Exclude<Conclusion, 'verdict'>, string> = {
  exit_status: 'exit status only',
  wire_only: 'wire only, no verdict',
  none: 'nothing concluded',
};

/** The label of a cell judged without a verdict, or undefined for a verdict (or an unjudged cell). */
export function getConclusionLabel(cell: Pick<Cell, 'conclusion'>): string | undefined {
  return cell.conclusion === undefined || cell.conclusion === 'verdict' ? undefined : CONCLUSION_LABEL[cell.conclusion];
}

/** "N passes on the exit status alone, M on the wire alone (no verdict)", or undefined when every pass had a verdict. */
export function describePassSources(summary: RunSummary): string | undefined {
  const exit = summary.pass_exit_status ?? 0;
  const wire = summary.pass_wire_only ?? 0;
  if (exit + wire === 0) return undefined;
  const parts = [...(exit > 0 ? [`${exit} on the exit status alone`] : []), ...(wire > 0 ? [`${wire} on the wire alone (exit 0, no verdict)`] : [])];
  return `of the ${summary.pass} passes, ${parts.join(' and ')}: the client stated no verdict`;
}

/** A warning per target whose judged cells were all judged without any verdict or exit status. */
export function describeWireOnlyTargets(result: Pick<RunResult, 'targets'> & { cells: Iterable<Cell> }): string[] {
  const judged = new Map<string, { wire: number; total: number }>();
  for (const cell of result.cells) {
    if (cell.conclusion === undefined) continue;
    const entry = judged.get(cell.target) ?? { wire: 0, total: 0 };
    entry.total++;
    if (cell.conclusion === 'wire_only') entry.wire++;
    judged.set(cell.target, entry);
  }
  return result.targets
    .filter((target) => {
      const entry = judged.get(target.name);
      return entry !== undefined && entry.total > 0 && entry.wire === entry.total;
    })
    .map((target) => `warning: ${target.name} reported no verdict and exited 0 in every cell: all its cells were judged on the wire alone (README § Command targets)`);
}
