// What a (stack, version) stored by the previous atlas still answers (issue 32 item 3): a cell is
// reused when its case file has the same digest and it was measured (not an error) at that protocol version;
// the cases that changed, or are new, are run again, and the stored cells of the rest are merged
// with theirs into one result. (Whether the stored atlas may be used at all, same tool and
// schemas, verified by its receipts, is decided before: atlas-store.ts.)
import type { LoadedCase } from '../cases/case-types.js';
import { findUnmeasuredTargets, summariseCells } from '../run/run-matrix.js';
import type { Cell, ProtocolVersion, RunResult } from '../vocabulary/types.js';
import type { AtlasVersion } from './atlas-types.js';

/** `whole`: every selected cell is stored, and nothing else; `partial`: run `rerun` again and merge; `none`: measure it all. */
export type VersionReuse = { kind: 'whole' } | { kind: 'partial'; rerun: string[] } | { kind: 'none' };

/** The cells a version must have: each selected case at each of its versions the atlas selects. */
export function listPlannedKeys(cases: readonly LoadedCase[], versions: readonly ProtocolVersion[] | undefined): Map<string, ProtocolVersion[]> {
  return new Map(cases.map((item) => [item.case.id, item.case.versions.filter((version) => !versions || versions.includes(version))]));
}

/** How much of a stored version this atlas can reuse. */
export function planVersionReuse(stored: AtlasVersion | undefined, cases: readonly LoadedCase[], versions: readonly ProtocolVersion[] | undefined): VersionReuse {
  if (!stored || stored.state === 'not-started' || stored.path === undefined) return { kind: 'none' };
  // A cell that could not be measured (error: starved on a busy machine, an adapter gap) is not an
  // answer to keep: its case runs again, so a gap does not outlive the load that made it.
  const measured = new Set(stored.cells.filter((cell) => cell.status !== 'error').map((cell) => `${cell.case}\0${cell.protocolVersion}`));
  const planned = listPlannedKeys(cases, versions);
  const rerun = cases
    .filter((item) => stored.caseDigests[item.case.id] !== item.sha256 || planned.get(item.case.id)!.some((version) => !measured.has(`${item.case.id}\0${version}`)))
    .map((item) => item.case.id);
  if (rerun.length === cases.length) return { kind: 'none' };
  // Stored cells the atlas no longer selects (a narrower --case or --version) must not ride along.
  const extra = stored.cells.some((cell) => !planned.get(cell.case)?.includes(cell.protocolVersion));
  return rerun.length === 0 && !extra ? { kind: 'whole' } : { kind: 'partial', rerun };
}

/**
 * One result for the version: the stored cells of the cases not run again (only at the selected
 * protocol versions), and the fresh result's cells, in the table's order (case, then version).
 */
export function mergeVersionResults(stored: RunResult, fresh: RunResult | undefined, options: { spec: string; cases: readonly LoadedCase[]; versions: readonly ProtocolVersion[] | undefined; rerun: readonly string[] }): { result: RunResult; reusedCells: number } {
  const planned = listPlannedKeys(options.cases, options.versions);
  const rerun = new Set(options.rerun);
  const byKey = new Map<string, Cell>();
  let reusedCells = 0;
  for (const cell of stored.cells) {
    if (cell.target !== options.spec || rerun.has(cell.case) || !planned.get(cell.case)?.includes(cell.protocolVersion)) continue;
    byKey.set(`${cell.case}\0${cell.protocolVersion}`, cell);
    reusedCells++;
  }
  for (const cell of fresh?.cells ?? []) byKey.set(`${cell.case}\0${cell.protocolVersion}`, cell);
  const cells: Cell[] = [];
  for (const [caseId, protocolVersions] of planned) {
    for (const version of protocolVersions) {
      const cell = byKey.get(`${caseId}\0${version}`);
      if (cell) cells.push(cell);
    }
  }
  const summaries = new Map([...stored.cases, ...(fresh?.cases ?? [])].map((item) => [item.id, item]));
  const newest = fresh ?? stored;
  const targets = newest.targets.filter((target) => target.name === options.spec);
  const result: RunResult = {
    ...newest,
    startedAt: fresh ? fresh.startedAt : stored.startedAt,
    finishedAt: newest.finishedAt,
    complete: true,
    cases: options.cases.map((item) => summaries.get(item.case.id)).filter((item) => item !== undefined),
    targets,
    cells,
    summary: summariseCells(cells),
  };
  const unmeasured = findUnmeasuredTargets(targets, cells, options.versions ? [...options.versions] : undefined);
  delete result.unmeasured;
  if (unmeasured.length > 0) result.unmeasured = unmeasured;
  return { result, reusedCells };
}
