// One (stack, version)'s run as the atlas keeps it in atlas.json: its state, the protocol versions
// it was measured at, and each cell cut down to what the index, the trend, the case pages and
// `--since` read. The whole cell (evidence, wire transcript, the library's own words) stays in the
// version's results.json and matrix.html.
import { getFailureKind } from '../../reports/model/index.js';
import { formatVerdict } from '../../reports/trend/index.js';
import type { Cell, Consequence, ProtocolVersion, RunResult, Verdict } from '../vocabulary/types.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';
import type { AtlasCell, AtlasVerdict, AtlasVersion, VersionState } from './atlas-types.js';

/** The atlas's view of one cell. */
export function summariseCell(cell: Cell): AtlasCell {
  // An atlas applies no baseline; were one ever applied, xfail is a failure and xpass a pass here.
  const status = cell.status === 'xfail' ? 'fail' : cell.status === 'xpass' ? 'pass' : cell.status;
  const consequences = cell.checks.filter((check) => !check.passed && check.consequence !== undefined).map((check) => check.consequence as Consequence);
  const failing = status === 'fail' || status === 'non_strict' || status === 'error';
  return {
    case: cell.case,
    protocolVersion: cell.protocolVersion,
    status,
    ...(status === 'skip' || status === 'error' ? {} : { actual: cell.actual.map((verdict) => (verdict ? compactVerdict(verdict) : null)) }),
    ...(failing ? { kind: getFailureKind({ ...cell, status }) } : {}),
    ...(consequences.length > 0 ? { consequences } : {}),
  };
}

/** What the client concluded, in the cell's words: `HTTP_ERROR 503, TOOL_SUCCESS`, `none`; a skip or error cell's status word. */
export function describeAtlasOutcome(cell: Pick<AtlasCell, 'status' | 'actual'>): string {
  if (cell.actual === undefined) return cell.status;
  return cell.actual.map((verdict) => formatVerdict(verdict)).join(', ') || 'none';
}

function compactVerdict(verdict: Verdict): AtlasVerdict {
  return { outcome: verdict.outcome, ...(verdict.status === undefined ? {} : { status: verdict.status }), ...(verdict.code === undefined ? {} : { code: verdict.code }) };
}

/**
 * What a version's cells say of it: `measured` when any cell was judged (pass, fail, non_strict);
 * `speaks-none` when every cell was skipped; `not-started` when none was judged and some are error
 * (a worker that could not start makes its cells error: nothing about the library was measured).
 */
export function getVersionState(cells: readonly Pick<Cell, 'status'>[]): VersionState {
  if (cells.some((cell) => cell.status !== 'skip' && cell.status !== 'error')) return 'measured';
  return cells.some((cell) => cell.status === 'error') ? 'not-started' : 'speaks-none';
}

/** A version's entry from its (one-target) result; `path` is its folder in the site. */
export function summariseVersion(result: Pick<RunResult, 'cells' | 'cases' | 'finishedAt'>, options: { spec: string; path: string; reusedCells?: number }): AtlasVersion {
  const cells = result.cells.filter((cell) => cell.target === options.spec);
  const state = getVersionState(cells);
  const spoken = new Set(cells.filter((cell) => cell.status !== 'skip').map((cell) => cell.protocolVersion));
  const speaks = PROTOCOL_VERSIONS.filter((version): version is ProtocolVersion => spoken.has(version));
  const reason = state === 'measured' ? undefined : describeSilence(cells.filter((cell) => cell.status === (state === 'speaks-none' ? 'skip' : 'error')));
  return {
    version: options.spec.slice(options.spec.indexOf('@') + 1),
    spec: options.spec,
    state,
    ...(reason === undefined ? {} : { reason }),
    speaks,
    measuredAt: result.finishedAt,
    reusedCells: options.reusedCells ?? 0,
    caseDigests: Object.fromEntries(result.cases.map((item) => [item.id, item.sha256])),
    // A version that measured nothing has no folder: it is shown, never reused (the next atlas tries it again).
    ...(state === 'not-started' ? {} : { path: options.path }),
    cells: state === 'not-started' ? [] : cells.map(summariseCell),
  };
}

/** The reasons of a version's skipped (or error) cells, most common first (a version's reason is the same for every cell of a protocol version). */
function describeSilence(cells: readonly Pick<Cell, 'reason'>[]): string {
  const counts = new Map<string, number>();
  for (const cell of cells) counts.set(cell.reason ?? 'skipped', (counts.get(cell.reason ?? 'skipped') ?? 0) + 1);
  const reasons = [...counts].sort((a, b) => b[1] - a[1]).map(([reason]) => reason);
  return reasons.length === 0 ? 'no cell was planned for it' : reasons.slice(0, 2).join('; ') + (reasons.length > 2 ? `; and ${reasons.length - 2} more reasons` : '');
}
