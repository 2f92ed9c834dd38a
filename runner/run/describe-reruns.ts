// Words for what the machine's load did to a run, shared by the CLI's stderr and the reports: how
// many cells were run again and why, how far the concurrency backed off, and, per cell that could
// not be measured even then, which process was starved, by how much, and what to do.
import { describeRemedy, describeStarvation } from '../starvation/judge-starvation.js';
import type { Cell, RerunReason, RunResult } from '../vocabulary/types.js';

const REASON_WORDS: Record<RerunReason, string> = {
  starved: 'a process was starved during a deadline',
  timeout: "a deadline of the runner's ran out",
  unmeasured: "a deadline decided it and a client's starvation could not be measured",
};

/**
 * "12 cells were run again after the main pass (9: a process was starved during a deadline; 3: …):
 * 11 confirmed, 1 still not measured", or undefined when none was.
 */
export function describeReruns(result: Pick<RunResult, 'reruns'>): string | undefined {
  const reruns = result.reruns;
  if (!reruns) return undefined;
  const reasons = (Object.entries(reruns.byReason) as [RerunReason, number][]).map(([reason, count]) => `${count}: ${REASON_WORDS[reason]}`);
  const left = reruns.cells - reruns.confirmed;
  return `${reruns.cells} ${reruns.cells === 1 ? 'cell was' : 'cells were'} run again after the main pass, alone or a few at a time (${reasons.join('; ')}): ${reruns.confirmed} confirmed${left > 0 ? `, ${left} still not measured` : ''}`;
}

/** "concurrency backed off from 24 to 3 cells at once (4 times): cells came back starved", or undefined when it did not. */
export function describeBackoff(result: Pick<RunResult, 'concurrency'>): string | undefined {
  const info = result.concurrency;
  if (!info || info.backoffs === 0) return undefined;
  return `concurrency backed off from ${info.start} to as few as ${info.lowest} cells at once (${info.backoffs} ${info.backoffs === 1 ? 'time' : 'times'}): cells came back starved`;
}

/** Whether a cell could not be measured even when run again (the machine stayed too loaded). */
export function isUnconfirmed(cell: Cell): boolean {
  return cell.timing?.rerun?.confirmed === false;
}

/**
 * One line per cell that could not be measured even when run again: the cell, the processes that
 * were starved and by how much, and the remedy.
 */
export function describeUnconfirmedCells(cells: Iterable<Cell>): string[] {
  const lines: string[] = [];
  for (const cell of cells) {
    if (!isUnconfirmed(cell)) continue;
    const starved = (cell.timing?.processes ?? []).filter((process) => process.starved);
    const cause = starved.length > 0 ? `${starved.map(describeStarvation).join('; ')} (the machine's load)` : "a deadline of the runner's ran out although the script answers sooner (the machine's load)";
    lines.push(
      `mcp-error-matrix: not measured, even run again ${cell.timing!.rerun!.runs - 1 === 1 ? 'once' : `${cell.timing!.rerun!.runs - 1} times`}: ${cell.case} · ${cell.target} · ${cell.protocolVersion}: ${cause}; ${describeRemedy()}`,
    );
  }
  return lines;
}
