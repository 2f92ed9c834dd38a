// summary.json: the run in numbers for other tools (dashboards, bots, CI steps): per target its
// cells by status, its unexpected and known failures by consequence, its unsafe cells, and the
// regressions when the run was compared. Small whatever the run's size; described by
// schemas/summary.schema.json. results.json (and results.full.json.gz) hold the cells themselves.
import { CELL_STATUSES, type CellStatus, type RunResult } from '../../runner/vocabulary/types.js';
import type { ComparedCell, Comparison } from '../model/index.js';
import { countFailures, FAILURE_KINDS, type FailureCount, type FailureKind } from '../model/index.js';
import { escapeRawControls } from './json.js';
import { toReportSource, type ReportSource } from '../model/index.js';
import { areSchemasOff } from '../model/index.js';
import { countUnsafe, type UnsafeCount } from '../model/index.js';

export const SUMMARY_FORMAT = 'mcp-error-matrix/summary@1';

export interface SummaryJsonOptions {
  /** Regressions and fixes against a previous run (run --compare). */
  comparison?: Comparison;
}

/** One target's numbers. */
export interface TargetSummary {
  name: string;
  kind: string;
  version?: string;
  stack?: string;
  cells: number;
  /** Cells that were judged: neither skipped nor in error. */
  measured: number;
  statuses: Record<CellStatus, number>;
  /** Failing cells that fail the run (fail, error, xpass), each counted once by its kind. */
  unexpected: KindCount;
  /** Failing cells the baseline expects (xfail), each counted once by its kind. */
  known: KindCount;
  /** Cells whose worst consequence fails a MUST, known or not (unsafe-cells.ts). */
  unsafe: { total: number; unexpected: number } & Partial<Record<FailureKind, number>>;
  /** Present when the run was compared: this target's cells that moved down. */
  regressions?: RegressedCell[];
}

interface KindCount {
  total: number;
  /** Every kind (count-failures.ts FAILURE_KINDS), zero included. */
  byKind: Record<FailureKind, number>;
}

type RegressedCell = Pick<ComparedCell, 'case' | 'protocolVersion' | 'before' | 'after' | 'beforeTarget'>;

export interface SummaryJson {
  format: typeof SUMMARY_FORMAT;
  tool: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  complete: boolean;
  mode: RunResult['mode'];
  schemasChecked: boolean;
  cells: number;
  statuses: Record<CellStatus, number>;
  /** fail + error + xpass: what fails the run. */
  unexpected: number;
  /** xfail: known failures. */
  known: number;
  /** Unsafe cells of every target. */
  unsafe: { total: number; unexpected: number } & Partial<Record<FailureKind, number>>;
  targets: TargetSummary[];
  unmeasured: { target: string; reason: string }[];
  comparison: { against: string | null; regressions: number; fixes: number; added: number; removed: number } | null;
}

function toKindCount(count: FailureCount): KindCount {
  const byKind = Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, 0])) as Record<FailureKind, number>;
  for (const entry of count.byKind) byKind[entry.kind] = entry.count;
  return { total: count.total, byKind };
}

function toUnsafe(count: UnsafeCount): SummaryJson['unsafe'] {
  return { total: count.total, unexpected: count.unexpected, ...count.byConsequence };
}

/** The summary as a value (one pass to count statuses, one for the failures). */
export function summarize(input: RunResult | ReportSource, options: SummaryJsonOptions = {}): SummaryJson {
  const source = toReportSource(input);
  const head = source.head;
  const statuses = new Map<string, Record<CellStatus, number>>(head.targets.map((t) => [t.name, zeroStatuses()]));
  for (const cell of source.cells()) {
    let counts = statuses.get(cell.target);
    if (!counts) statuses.set(cell.target, (counts = zeroStatuses()));
    counts[cell.status]++;
  }
  const info = new Map(head.targets.map((t) => [t.name, t]));
  const comparison = options.comparison;
  const regressionsOf = new Map<string, RegressedCell[]>();
  for (const cell of comparison?.regressions ?? []) {
    const list = regressionsOf.get(cell.target) ?? [];
    list.push({ case: cell.case, protocolVersion: cell.protocolVersion, ...(cell.beforeTarget === undefined ? {} : { beforeTarget: cell.beforeTarget }), ...(cell.before ? { before: cell.before } : {}), ...(cell.after ? { after: cell.after } : {}) });
    regressionsOf.set(cell.target, list);
  }
  const all = { total: 0, unexpected: 0, byConsequence: {} as Partial<Record<FailureKind, number>> };
  const targets = countFailures({ targets: head.targets, cells: source.cells() }).map((failures): TargetSummary => {
    const counts = statuses.get(failures.target) ?? zeroStatuses();
    const cells = CELL_STATUSES.reduce((sum, status) => sum + counts[status], 0);
    const t = info.get(failures.target);
    const unsafe = countUnsafe(failures);
    all.total += unsafe.total;
    all.unexpected += unsafe.unexpected;
    for (const [kind, count] of Object.entries(unsafe.byConsequence) as [FailureKind, number][]) all.byConsequence[kind] = (all.byConsequence[kind] ?? 0) + count;
    return {
      name: failures.target,
      kind: t?.kind ?? '',
      ...(t?.version === undefined ? {} : { version: t.version }),
      ...(t?.stack === undefined ? {} : { stack: t.stack }),
      cells,
      measured: cells - counts.skip - counts.error,
      statuses: counts,
      unexpected: toKindCount(failures.unexpected),
      known: toKindCount(failures.known),
      unsafe: toUnsafe(unsafe),
      ...(comparison ? { regressions: regressionsOf.get(failures.target) ?? [] } : {}),
    };
  });
  const s = head.summary;
  return {
    format: SUMMARY_FORMAT,
    tool: { name: head.tool.name, version: head.tool.version },
    startedAt: head.startedAt,
    finishedAt: head.finishedAt,
    complete: head.complete,
    mode: head.mode,
    schemasChecked: !areSchemasOff(head),
    cells: s.total,
    statuses: Object.fromEntries(CELL_STATUSES.map((status) => [status, s[status]])) as Record<CellStatus, number>,
    unexpected: s.fail + s.error + s.xpass,
    known: s.xfail,
    unsafe: { total: all.total, unexpected: all.unexpected, ...all.byConsequence },
    targets,
    unmeasured: (head.unmeasured ?? []).map((entry) => ({ target: entry.target, reason: entry.reason })),
    comparison: comparison
      ? { against: comparison.baselineLabel ?? null, regressions: comparison.regressions.length, fixes: comparison.fixes.length, added: comparison.added.length, removed: comparison.removed.length }
      : null,
  };
}

function zeroStatuses(): Record<CellStatus, number> {
  return Object.fromEntries(CELL_STATUSES.map((status) => [status, 0])) as Record<CellStatus, number>;
}

/** summary.json's text: indented, C1 controls and line separators written as escapes (as results.json). */
export function render(input: RunResult | ReportSource, options: SummaryJsonOptions = {}): string {
  return `${escapeRawControls(JSON.stringify(summarize(input, options), null, 2))}\n`;
}
