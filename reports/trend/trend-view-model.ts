// The trend of a family of versions (issue 14 §3): when a run holds several versions of one
// package (ts-sdk@1.24.3, ts-sdk@1.25.3, …), each (case, protocol version) row shows the client's
// actual outcome per version, marked where it changed from the version before: a fix, a
// regression or another outcome, named by its consequence when the failed check carries one.
// Per version: cells passed, failed and false successes. The HTML partial and summary.md read this.
import { compareTableText } from '../../runner/cases/compare-table-text.js';
import { compareVersions } from '../../runner/compare/order-versions.js';
import { getTargetFamily } from '../../runner/compare/pair-targets.js';
import type { Cell, CellStatus, Check, Consequence, Verdict } from '../../runner/vocabulary/types.js';
import { PROTOCOL_VERSIONS } from '../../runner/vocabulary/types.js';

export type TrendChange = 'fix' | 'regression' | 'changed';

export interface TrendCell {
  status: CellStatus | 'none';
  /** The client's actual outcome (`HTTP_ERROR 503`, `none` when it concluded nothing), or the status word of a skip/error. */
  outcome: string;
  /** How this cell differs from the same row at the nearest earlier measured version. */
  change?: TrendChange;
  consequence?: Consequence;
}

export interface TrendRow {
  caseId: string;
  protocolVersion: string;
  cells: TrendCell[];
}

export interface TrendTransition {
  change: TrendChange;
  from: string;
  to: string;
  count: number;
  consequence?: Consequence;
  /** The rows that made this change, in case order: what a reader looks up. */
  rows: TrendRowKey[];
}

/** One row of the trend: a case at a protocol version. */
export interface TrendRowKey {
  caseId: string;
  protocolVersion: string;
}

export interface TrendVersion {
  target: string;
  version: string;
  passed: number;
  failed: number;
  falseSuccesses: number;
  skipped: number;
  /** Not measured: the harness or the worker broke. */
  errors: number;
  fixed: number;
  regressed: number;
  changed: number;
  /** This version's changes grouped by old → new outcome, most frequent first. */
  transitions: TrendTransition[];
}

export interface TrendFamily {
  family: string;
  versions: TrendVersion[];
  /** Rows whose outcome differs between versions, in case order. */
  rows: TrendRow[];
  /** Rows with the same outcome in every measured version. */
  steadyRows: number;
}

// The ranks of compare-results.ts: up is a fix, down a regression. An error ranks with fail, as
// there: a version whose cells now break (a crash, a worker that cannot start) has regressed for
// its user even though nothing was measured; only a skip (the version does not speak that
// protocol version) is no behaviour at all.
const RANK: Record<CellStatus, number | undefined> = { pass: 3, xpass: 3, non_strict: 2, fail: 1, xfail: 1, error: 1, skip: undefined };
const PASSED: ReadonlySet<CellStatus> = new Set(['pass', 'xpass', 'non_strict']);
const FAILED: ReadonlySet<CellStatus> = new Set(['fail', 'xfail']);

/** What the trend reads of a cell: a whole Cell, or the atlas's compact one (runner/atlas). */
export type TrendSourceCell = Pick<Cell, 'target' | 'case' | 'protocolVersion' | 'status'> & {
  actual: readonly (TrendVerdict | null)[];
  checks: readonly Pick<Check, 'passed' | 'consequence'>[];
};
type TrendVerdict = Pick<Verdict, 'outcome' | 'status' | 'code'>;

/** One trend per family with at least two versions in the run, families in order of first appearance. */
export function buildTrendFamilies(cells: Iterable<TrendSourceCell>, targets: readonly { name: string; version?: string }[]): TrendFamily[] {
  const names = new Set(targets.map((t) => t.name));
  for (const cell of cells) names.add(cell.target);
  const byFamily = new Map<string, string[]>();
  for (const name of names) {
    const family = getTargetFamily(name);
    if (family !== undefined) byFamily.set(family, [...(byFamily.get(family) ?? []), name]);
  }
  const trends: TrendFamily[] = [];
  for (const [family, members] of byFamily) {
    if (members.length < 2) continue;
    trends.push(buildFamily(family, members.map((name) => ({ name, version: versionOf(name) })).sort((a, b) => compareVersions(a.version, b.version)), cells));
  }
  return trends;
}

function buildFamily(family: string, members: { name: string; version: string }[], cells: Iterable<TrendSourceCell>): TrendFamily {
  const index = new Map(members.map((m, i) => [m.name, i]));
  // Each cell is kept as what the trend shows of it, never whole: a family may hold most of a huge run.
  const rowsByKey = new Map<string, { caseId: string; protocolVersion: string; cells: (SeenCell | undefined)[] }>();
  for (const cell of cells) {
    const at = index.get(cell.target);
    if (at === undefined) continue;
    const key = JSON.stringify([cell.case, cell.protocolVersion]);
    let row = rowsByKey.get(key);
    if (!row) rowsByKey.set(key, (row = { caseId: cell.case, protocolVersion: cell.protocolVersion, cells: new Array(members.length).fill(undefined) }));
    row.cells[at] = { status: cell.status, shown: describeCell(cell), falseSuccess: findConsequences(cell).includes('false-success') };
  }
  const versions: TrendVersion[] = members.map((m) => ({ target: m.name, version: m.version, passed: 0, failed: 0, falseSuccesses: 0, skipped: 0, errors: 0, fixed: 0, regressed: 0, changed: 0, transitions: [] }));
  const transitions = members.map(() => new Map<string, TrendTransition>());
  const rows: TrendRow[] = [];
  let steadyRows = 0;
  const order = (r: { protocolVersion: string }) => (PROTOCOL_VERSIONS as readonly string[]).indexOf(r.protocolVersion);
  for (const raw of [...rowsByKey.values()].sort((a, b) => compareTableText(a.caseId, b.caseId) || order(a) - order(b))) {
    let previous: TrendCell | undefined;
    let changedRow = false;
    const row: TrendRow = { caseId: raw.caseId, protocolVersion: raw.protocolVersion, cells: [] };
    raw.cells.forEach((cell, i) => {
      const shown = cell?.shown ?? describeCell(undefined);
      const counts = versions[i]!;
      if (cell && PASSED.has(cell.status)) counts.passed++;
      if (cell && FAILED.has(cell.status)) counts.failed++;
      if (cell?.status === 'skip') counts.skipped++;
      if (cell?.status === 'error') counts.errors++;
      if (cell?.falseSuccess) counts.falseSuccesses++;
      if (cell && previous && RANK[cell.status] !== undefined) {
        const change = compareCells(previous, shown, cell.status);
        if (change) {
          shown.change = change.change;
          if (change.consequence) shown.consequence = change.consequence;
          counts[change.change === 'fix' ? 'fixed' : change.change === 'regression' ? 'regressed' : 'changed']++;
          const key = JSON.stringify([change.change, previous.outcome, shown.outcome, change.consequence]);
          const seen = transitions[i]!.get(key) ?? { change: change.change, from: previous.outcome, to: shown.outcome, count: 0, ...(change.consequence ? { consequence: change.consequence } : {}), rows: [] };
          seen.count++;
          seen.rows.push({ caseId: raw.caseId, protocolVersion: raw.protocolVersion });
          transitions[i]!.set(key, seen);
          changedRow = true;
        }
      }
      if (cell && RANK[cell.status] !== undefined) previous = shown;
      row.cells.push(shown);
    });
    if (changedRow) rows.push(row);
    else steadyRows++;
  }
  versions.forEach((v, i) => (v.transitions = [...transitions[i]!.values()].sort((a, b) => b.count - a.count)));
  return { family, versions, rows, steadyRows };
}

/** A fix or regression by status, else a different outcome at the same status; undefined when nothing changed. */
function compareCells(previous: TrendCell, now: TrendCell, status: CellStatus): { change: TrendChange; consequence?: Consequence } | undefined {
  const was = RANK[previous.status as CellStatus];
  const is = RANK[status];
  if (was === undefined || is === undefined) return undefined;
  const change: TrendChange | undefined = is > was ? 'fix' : is < was ? 'regression' : previous.outcome !== now.outcome ? 'changed' : undefined;
  if (!change) return undefined;
  // A regression is named by what it now costs; a fix by what it used to cost.
  // A ranked cell's shown consequence is its first failed check's (describeCell).
  const consequence = change === 'fix' ? previous.consequence : now.consequence;
  return consequence ? { change, consequence } : { change };
}

/** What a trend keeps of a cell: its status, what it shows, and whether it was a false success. */
interface SeenCell {
  status: CellStatus;
  shown: TrendCell;
  falseSuccess: boolean;
}

function describeCell(cell: TrendSourceCell | undefined): TrendCell {
  if (!cell) return { status: 'none', outcome: '—' };
  if (cell.status === 'skip' || cell.status === 'error') return { status: cell.status, outcome: cell.status };
  const consequence = findConsequences(cell)[0];
  return { status: cell.status, outcome: cell.actual.map(formatVerdict).join(', ') || 'none', ...(consequence ? { consequence } : {}) };
}

/** `HTTP_ERROR 503`, `JSONRPC_ERROR -32602`, `TOOL_SUCCESS`; `none` where the client concluded nothing. */
export function formatVerdict(verdict: TrendVerdict | null): string {
  if (!verdict) return 'none';
  const detail = verdict.status ?? verdict.code;
  return detail === undefined ? verdict.outcome : `${verdict.outcome} ${detail}`;
}

function findConsequences(cell: Pick<TrendSourceCell, 'checks'>): Consequence[] {
  return cell.checks.filter((c) => !c.passed && c.consequence !== undefined).map((c) => c.consequence!);
}

function versionOf(name: string): string {
  return name.slice(name.indexOf('@') + 1);
}
