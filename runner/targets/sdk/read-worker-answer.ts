// Reads an SDK worker's answer for one cell into the target's outcome: each call's mapped result
// ({verdict} | {none} | {gap}, runner/targets/sdk/map-observation.mjs) and the observation record.
// A gap makes the cell `error` (kind adapter-gap), naming the library's own words; `none` is the
// library concluding nothing (it hung until the host's last-resort abort, or died).
import { readVerdict } from '../../classify/read-verdict.js';
import { readProcessStarvation } from '../../starvation/read-starvation.js';
import type { CellObservation, TargetOutcome, Verdict } from '../../vocabulary/types.js';
import type { WorkerAnswer } from './sdk-worker.js';

/**
 * A step the worker runs before the call, not under test (connect, list the tools), that ran out of
 * its time (worker.mjs and the stacks word it so; mcp-remote's bridge answers "nothing in time"): on
 * a loaded machine that is the load's doing, like a deadline of the runner's, so the cell runs again
 * (confirm-cells.ts) rather than stay an error.
 */
const SETUP_TIMED_OUT = /^(connect|tools\/list) failed before any tools\/call: .*(timed out|timeout|in time)/i;

/** The outcome of a cell from the worker's answer, `calls` explicit calls, after `durationMs`. */
export function readWorkerAnswer(answer: WorkerAnswer, calls: number, durationMs: number): TargetOutcome {
  const notes = answer.notes?.join('\n');
  const observed = readObserved(answer.observed);
  const timedOut = answer.error?.includes('no answer within') ?? false;
  const run = { timedOut, durationMs, ...(notes ? { stderr: notes } : {}) };
  // The worker's own measure of how starved it was over the cell (worker.mjs, cell-starvation.mjs).
  const starved = readProcessStarvation(answer.starvation, 'worker');
  const starvation = starved ? { starvation: [starved] } : {};
  // Stopped by a signal to the whole process group: the run was interrupted, nothing to judge or run again.
  if (answer.error !== undefined && answer.interrupted) return { verdicts: [], error: answer.error, run, ...(observed ? { observed } : {}), errorKind: 'interrupted' };
  if (answer.error !== undefined) {
    const outOfTime = timedOut || SETUP_TIMED_OUT.test(answer.error);
    return { verdicts: [], error: answer.error, run, ...(observed ? { observed } : {}), ...starvation, ...(outOfTime ? { errorKind: 'timeout' as const } : {}) };
  }
  const verdicts: (Verdict | null)[] = [];
  const invalidVerdicts: NonNullable<TargetOutcome['invalidVerdicts']> = [];
  const gaps: string[] = [];
  for (let index = 0; index < calls; index++) {
    const result = readResult(answer.results?.[index]);
    if (result.kind === 'gap') gaps.push(`call ${index + 1}: ${result.text}`);
    if (result.kind !== 'verdict') {
      verdicts.push(null);
      continue;
    }
    const read = readVerdict(result.value);
    if ('verdict' in read) verdicts.push(read.verdict);
    else {
      verdicts.push(null);
      invalidVerdicts.push({ index, value: result.value, problem: read.problem });
    }
  }
  const outcome: TargetOutcome = { verdicts, run, ...(invalidVerdicts.length > 0 ? { invalidVerdicts } : {}), ...(observed ? { observed } : {}), ...starvation };
  if (gaps.length === 0) return outcome;
  const error = `adapter gap (not measured: the adapter cannot read what the library did): ${gaps.join('; ')}`;
  return { ...outcome, error, errorKind: 'adapter-gap', run: { ...run, stderr: [error, notes].filter(Boolean).join('\n') } };
}

type ReadResult = { kind: 'verdict'; value: unknown } | { kind: 'none' } | { kind: 'gap'; text: string };

function readResult(raw: unknown): ReadResult {
  if (raw === null || typeof raw !== 'object') return { kind: 'gap', text: `the worker gave no result for the call (${JSON.stringify(raw) ?? 'undefined'})` };
  if ('verdict' in raw) return { kind: 'verdict', value: raw.verdict };
  if ('none' in raw) return { kind: 'none' };
  if ('gap' in raw) return { kind: 'gap', text: String(raw.gap) };
  return { kind: 'gap', text: `the worker gave an unreadable result ${JSON.stringify(raw).slice(0, 200)}` };
}

// The record crossed a process boundary: kept only when it has the contract's outer shape (the
// calls themselves are capped plain JSON by construction and shown as data, never interpreted here).
// A stack that cannot see its library's HTTP side (mcp-remote) sends no `toolCallsSent`: the runner
// counts the cell's tools/call from the recording instead (run/run-cell.ts).
function readObserved(raw: unknown): TargetOutcome['observed'] {
  if (raw === null || typeof raw !== 'object' || !('calls' in raw) || !Array.isArray(raw.calls)) return undefined;
  const sent = 'toolCallsSent' in raw && typeof raw.toolCallsSent === 'number' && Number.isInteger(raw.toolCallsSent) && raw.toolCallsSent >= 0 ? raw.toolCallsSent : undefined;
  return { calls: raw.calls as CellObservation['calls'], ...(sent === undefined ? {} : { toolCallsSent: sent }) };
}
