// Applying a baseline after judging: listed failing cells become xfail, listed passing cells
// become xpass (a stale entry fails the run). Entries naming things that do not exist are
// input errors, caught before the run (cases, targets, versions) or right after it (check ids).
import { closest } from '../cases/case-errors.js';
import type { Cell, CheckLevel, ProtocolVersion } from '../vocabulary/types.js';
import { getBaselineTarget } from './baseline-target.js';
import { BaselineError, describeEntryLocation, type Baseline, type BaselineEntry } from './load-baseline.js';

export interface BaselineScope {
  /** Every case of the loaded table (before --case selection), with the versions it runs under. */
  cases: { id: string; versions: readonly ProtocolVersion[] }[];
  /** The names of the targets in this run. */
  runTargets: string[];
  /** Other target names an entry may name without being in this run (the built-in ones). */
  otherKnownTargets: string[];
}

/** Throws a BaselineError for the first entry naming an unknown case, target or version. */
export function validateBaselineEntries(baseline: Baseline, scope: BaselineScope): void {
  const versionsOf = new Map(scope.cases.map((c) => [c.id, c.versions]));
  const caseIds = [...versionsOf.keys()];
  const targets = [...new Set([...scope.runTargets, ...scope.otherKnownTargets].map(getBaselineTarget))];
  for (const entry of baseline.entries) {
    const fail = (problem: string): never => {
      throw new BaselineError(describeEntryLocation(baseline, entry), problem);
    };
    const versions = versionsOf.get(entry.case);
    if (!versions) {
      const guess = closest(entry.case, caseIds);
      fail(`unknown case "${entry.case}"${guess ? ` (did you mean "${guess}"?)` : ''}; see \`mcp-error-matrix list\` for the case ids`);
    }
    if (!targets.includes(getBaselineTarget(entry.target))) {
      const guess = closest(entry.target, targets);
      fail(`unknown target "${entry.target}"${guess ? ` (did you mean "${guess}"?)` : ''}; targets in this run: ${scope.runTargets.join(', ')}`);
    }
    if (entry.version !== undefined && !versions!.includes(entry.version)) {
      fail(`case "${entry.case}" does not run under ${entry.version} (it runs under ${versions!.join(', ')})`);
    }
  }
}

/**
 * Throws for an entry whose check id no judged cell of its case and target has. Cells that were
 * skipped or broke carry no checks, so they cannot prove an id wrong.
 */
export function validateBaselineChecks(baseline: Baseline, cells: Iterable<Cell>): void {
  // One pass over the cells (a large run reads them from disk): the check ids each check entry's judged cells have.
  const withCheck = baseline.entries.filter((entry) => entry.check !== undefined);
  if (withCheck.length === 0) return;
  const idsByEntry = new Map<BaselineEntry, Set<string>>();
  for (const cell of cells) {
    if (cell.checks.length === 0) continue;
    for (const entry of withCheck) {
      if (!matchesCell(entry, cell)) continue;
      const ids = idsByEntry.get(entry) ?? new Set<string>();
      for (const check of cell.checks) ids.add(check.id);
      idsByEntry.set(entry, ids);
    }
  }
  for (const entry of withCheck) {
    if (entry.check === undefined) continue;
    const found = idsByEntry.get(entry);
    if (found === undefined) continue;
    const ids = [...found];
    if (ids.includes(entry.check)) continue;
    const guess = closest(entry.check, ids);
    throw new BaselineError(
      describeEntryLocation(baseline, entry),
      `unknown check "${entry.check}" for case "${entry.case}" on target "${entry.target}"${guess ? ` (did you mean "${guess}"?)` : ''}; its checks are: ${ids.join(', ')}`,
    );
  }
}

function matchesCell(entry: BaselineEntry, cell: Cell): boolean {
  return getBaselineTarget(entry.target) === getBaselineTarget(cell.target) && entry.case === cell.case && (entry.version === undefined || entry.version === cell.protocolVersion);
}

// INFO checks never change a cell's status, so a baseline need not cover them.
const COUNTED_LEVELS: readonly CheckLevel[] = ['MUST', 'SHOULD', 'POLICY'];

/** The baseline's verdict on one judged cell: unchanged, xfail or xpass, with the entry as reason. */
export function applyBaselineToCell(baseline: Baseline, cell: Cell): Cell {
  if (cell.status === 'skip' || cell.status === 'error' || cell.status === 'xfail' || cell.status === 'xpass') return cell;
  const entries = baseline.entries.filter((entry) => matchesCell(entry, cell));
  if (entries.length === 0) return cell;
  const describe = (entry: BaselineEntry) => `${describeEntryLocation(baseline, entry)}${entry.check ? ` [${entry.check}]` : ''}: ${entry.reason}`;
  if (cell.status === 'pass') {
    return { ...cell, status: 'xpass', reason: `stale baseline entry, the cell passes now; remove it: ${entries.map(describe).join('; ')}` };
  }
  const whole = entries.filter((entry) => entry.check === undefined);
  if (whole.length > 0) return { ...cell, status: 'xfail', reason: `expected failure, ${whole.map(describe).join('; ')}` };
  const failed = new Set(cell.checks.filter((check) => !check.passed && COUNTED_LEVELS.includes(check.level)).map((check) => check.id));
  const listed = entries.filter((entry) => failed.has(entry.check!));
  // Every failing check must be listed: an unlisted failure is a new failure, not the known one.
  if (listed.length > 0 && [...failed].every((id) => listed.some((entry) => entry.check === id))) {
    return { ...cell, status: 'xfail', reason: `expected failure, ${listed.map(describe).join('; ')}` };
  }
  return cell;
}

/** Applies the baseline to every cell; counts what it changed. */
export function applyBaseline(baseline: Baseline, cells: readonly Cell[]): { cells: Cell[]; applied: number; stale: number } {
  let applied = 0;
  let stale = 0;
  const out = cells.map((cell) => {
    const next = applyBaselineToCell(baseline, cell);
    if (next !== cell && next.status === 'xfail') applied++;
    if (next !== cell && next.status === 'xpass') stale++;
    return next;
  });
  return { cells: out, applied, stale };
}
