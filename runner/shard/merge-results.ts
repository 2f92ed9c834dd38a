// Merging shard results into one: refuses shards that overlap, disagree on what was run
// (plan digest, tool version, case digests, schemas, targets, baseline), or leave gaps.
import { formatCellKey } from '../../reports/model/index.js';
import type { StoredRunResult } from '../compare/results-file.js';
import { RunnerError } from '../util/errors.js';
import { findUnmeasuredTargets, summariseCells } from '../run/run-matrix.js';
import type { CaseSummary, Cell, RerunReason, RunResult } from '../vocabulary/types.js';

export interface ShardInput {
  /** Where the shard came from, as shown in messages. */
  file: string;
  result: StoredRunResult;
}

/** Shards that cannot be merged into one honest report. */
export class ShardMergeError extends RunnerError {
  constructor(problem: string) {
    super('MEM_SHARD_MERGE', problem);
  }
}

type Facet = [name: string, read: (result: StoredRunResult) => unknown];

// Facts every shard of one run shares; a difference means the shards come from different runs.
const SHARED: Facet[] = [
  ['shard count', (r) => r.shard?.count],
  ['plan digest (case files, targets, versions)', (r) => r.shard?.planDigest],
  ['tool version', (r) => `${r.tool.name}@${r.tool.version}`],
  ['mode', (r) => r.mode],
  ['targets', (r) => r.targets.map((t) => `${t.name}@${t.version ?? ''}`).join(', ')],
  ['schemas', (r) => (r.schemas === null ? 'off (--no-schemas)' : r.schemas.map((s) => `${s.version}:${s.sha256.slice(0, 12)}`).join(', '))],
  ['baseline', (r) => (r.baseline ? `${r.baseline.file} (${r.baseline.sha256.slice(0, 12)})` : 'none')],
];

/** Combines the shards of one run into a single result; throws ShardMergeError when they do not fit. */
export function mergeShardResults(shards: readonly ShardInput[]): StoredRunResult {
  if (shards.length === 0) throw new ShardMergeError('nothing to merge: give the report folders of every shard');
  for (const shard of shards) {
    if (!shard.result.shard || shard.result.shard.index === undefined) {
      throw new ShardMergeError(`${shard.file} is not a shard result (it was not written by \`run --shard i/n\`)`);
    }
  }
  const first = shards[0]!;
  for (const [name, read] of SHARED) {
    const expected = JSON.stringify(read(first.result));
    const other = shards.find((shard) => JSON.stringify(read(shard.result)) !== expected);
    if (other) throw new ShardMergeError(`the shards are from different runs: ${name} is ${expected} in ${first.file} but ${JSON.stringify(read(other.result))} in ${other.file}`);
  }
  const count = first.result.shard!.count;
  const byIndex = new Map<number, string>();
  for (const shard of shards) {
    const index = shard.result.shard!.index!;
    const earlier = byIndex.get(index);
    if (earlier) throw new ShardMergeError(`shard ${index}/${count} given twice: ${earlier} and ${shard.file}`);
    byIndex.set(index, shard.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new ShardMergeError(`missing shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')}; merge needs all ${count}`);

  const cells = new Map<string, { cell: Cell; file: string }>();
  const cases = new Map<string, { summary: CaseSummary; file: string }>();
  for (const shard of shards) {
    for (const cell of shard.result.cells) {
      const key = formatCellKey(cell);
      const earlier = cells.get(key);
      if (earlier) throw new ShardMergeError(`the shards overlap: cell ${cell.case} · ${cell.target} · ${cell.protocolVersion} is in ${earlier.file} and ${shard.file}`);
      cells.set(key, { cell, file: shard.file });
    }
    for (const summary of shard.result.cases) {
      const earlier = cases.get(summary.id);
      if (earlier && earlier.summary.sha256 !== summary.sha256) {
        throw new ShardMergeError(`case ${summary.id} differs between shards (file digest ${earlier.summary.sha256.slice(0, 12)} in ${earlier.file}, ${summary.sha256.slice(0, 12)} in ${shard.file})`);
      }
      if (!earlier) cases.set(summary.id, { summary, file: shard.file });
    }
  }
  const complete = shards.every((shard) => shard.result.complete);
  const planned = first.result.shard!.plannedCells;
  if (complete && cells.size !== planned) {
    throw new ShardMergeError(`the shards hold ${cells.size} cells but their plan has ${planned}; were they run with the same flags?`);
  }
  const targetOrder = first.result.targets.map((t) => t.name);
  const merged = [...cells.values()]
    .map((entry) => entry.cell)
    .sort((a, b) => targetOrder.indexOf(a.target) - targetOrder.indexOf(b.target) || compare(a.case, b.case) || compare(a.protocolVersion, b.protocolVersion));
  const summary = summariseCells(merged);
  const times = shards.map((shard) => shard.result);
  const { comparison: _comparison, baseline, unmeasured: _unmeasured, reruns: _reruns, concurrency: _concurrency, ...base } = first.result;
  const unmeasured = findUnmeasuredTargets(base.targets, merged);
  const reruns = mergeReruns(times);
  const concurrency = mergeConcurrency(times);
  return {
    ...base,
    startedAt: times.map((r) => r.startedAt).sort()[0]!,
    finishedAt: times.map((r) => r.finishedAt).sort().at(-1)!,
    complete,
    cases: [...cases.values()].map((entry) => entry.summary).sort((a, b) => compare(a.id, b.id)),
    cells: merged,
    summary,
    ...(unmeasured.length > 0 ? { unmeasured } : {}),
    ...(reruns ? { reruns } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(baseline ? { baseline: { ...baseline, applied: summary.xfail, stale: summary.xpass } } : {}),
    shard: { count, planDigest: first.result.shard!.planDigest, plannedCells: planned, merged: [...byIndex.keys()].sort((a, b) => a - b) },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The shards' re-runs after their main pass, added up; none when no shard ran a cell again. */
function mergeReruns(results: readonly RunResult[]): RunResult['reruns'] {
  const all = results.flatMap((result) => (result.reruns ? [result.reruns] : []));
  if (all.length === 0) return undefined;
  const byReason: NonNullable<RunResult['reruns']>['byReason'] = {};
  for (const reruns of all) for (const [reason, count] of Object.entries(reruns.byReason) as [RerunReason, number][]) byReason[reason] = (byReason[reason] ?? 0) + count;
  return { cells: all.reduce((sum, reruns) => sum + reruns.cells, 0), confirmed: all.reduce((sum, reruns) => sum + reruns.confirmed, 0), byReason };
}

/** The shards' concurrency: the highest start, the lowest back-off, every back-off; pinned when any shard was. */
function mergeConcurrency(results: readonly RunResult[]): RunResult['concurrency'] {
  const all = results.flatMap((result) => (result.concurrency ? [result.concurrency] : []));
  if (all.length === 0) return undefined;
  return {
    start: Math.max(...all.map((info) => info.start)),
    lowest: Math.min(...all.map((info) => info.lowest)),
    backoffs: all.reduce((sum, info) => sum + info.backoffs, 0),
    pinned: all.some((info) => info.pinned),
  };
}
