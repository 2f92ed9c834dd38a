// What changed between two atlases (issue 32 item 3, `--since`): the releases that are new, each
// with how it behaves against the release before it; cells of releases both measured whose outcome
// differs (a changed case, a new tool version); releases no longer in the atlas; and the case table's
// additions, edits and removals.
import { listStackChanges, type StackChange } from './list-stack-changes.js';
import { compareVersions } from '../compare/order-versions.js';
import type { AtlasCell, AtlasIndex, AtlasStack, AtlasVersion } from './atlas-types.js';
import { describeAtlasOutcome } from './summarise-version.js';

export interface CellDifference {
  caseId: string;
  protocolVersion: string;
  before: string;
  now: string;
  statusBefore: AtlasCell['status'];
  statusNow: AtlasCell['status'];
}

export interface NewRelease {
  version: AtlasVersion;
  /** The release before it in this atlas that measured something, if any. */
  previous?: string;
  /** Its changes against `previous` (the trend's, so the same as the stack page lists). */
  changes: StackChange[];
}

export interface StackDiff {
  kind: string;
  packageName: string;
  /** Not in the previous atlas at all. */
  isNew: boolean;
  newReleases: NewRelease[];
  /** Releases measured in both whose cells differ. */
  remeasured: { version: string; differences: CellDifference[] }[];
  /** Releases the previous atlas had and this one has not. */
  gone: string[];
}

export interface AtlasDiff {
  previous: { finishedAt: string; toolVersion: string };
  current: { finishedAt: string; toolVersion: string };
  stacks: StackDiff[];
  cases: { added: string[]; changed: string[]; removed: string[] };
}

/** The differences between the previous atlas and this one. */
export function diffAtlases(previous: AtlasIndex, current: AtlasIndex): AtlasDiff {
  const before = new Map(previous.stacks.map((stack) => [stack.kind, stack]));
  const casesBefore = new Map(previous.cases.map((item) => [item.id, item.sha256]));
  const casesNow = new Map(current.cases.map((item) => [item.id, item.sha256]));
  return {
    previous: { finishedAt: previous.finishedAt, toolVersion: previous.settings.tool.version },
    current: { finishedAt: current.finishedAt, toolVersion: current.settings.tool.version },
    stacks: current.stacks.map((stack) => diffStack(before.get(stack.kind), stack)),
    cases: {
      added: [...casesNow.keys()].filter((id) => !casesBefore.has(id)),
      changed: [...casesNow].filter(([id, sha]) => casesBefore.has(id) && casesBefore.get(id) !== sha).map(([id]) => id),
      removed: [...casesBefore.keys()].filter((id) => !casesNow.has(id)),
    },
  };
}

const wasMeasured = (version: AtlasVersion | undefined) => version !== undefined && version.state !== 'not-started';

function diffStack(previous: AtlasStack | undefined, current: AtlasStack): StackDiff {
  const old = new Map((previous?.versions ?? []).map((version) => [version.version, version]));
  const changes = listStackChanges(current);
  // Versions are newest first: the release before a version is the next measured one in the list.
  const measured = current.versions.filter((version) => version.state === 'measured');
  const newReleases: NewRelease[] = [];
  const remeasured: StackDiff['remeasured'] = [];
  for (const version of current.versions) {
    if (version.state === 'not-started') continue;
    const stored = old.get(version.version);
    if (!wasMeasured(stored)) {
      const previousRelease = measured.find((other) => compareVersions(other.version, version.version) < 0)?.version;
      newReleases.push({ version, ...(previousRelease ? { previous: previousRelease } : {}), changes: changes.filter((change) => change.version === version.version) });
      continue;
    }
    const differences = diffCells(stored!.cells, version.cells);
    if (differences.length > 0) remeasured.push({ version: version.version, differences });
  }
  const now = new Set(current.versions.filter(wasMeasured).map((version) => version.version));
  return {
    kind: current.kind,
    packageName: current.packageName,
    isNew: previous === undefined,
    newReleases,
    remeasured,
    gone: (previous?.versions ?? []).filter((version) => wasMeasured(version) && !now.has(version.version)).map((version) => version.version),
  };
}

/** Cells of the same (case, protocol version) whose status or outcome differ; a cell not measured (error) on either side is none. */
export function diffCells(before: readonly AtlasCell[], now: readonly AtlasCell[]): CellDifference[] {
  const old = new Map(before.map((cell) => [`${cell.case}\0${cell.protocolVersion}`, cell]));
  const differences: CellDifference[] = [];
  for (const cell of now) {
    const stored = old.get(`${cell.case}\0${cell.protocolVersion}`);
    if (!stored || stored.status === 'error' || cell.status === 'error') continue;
    const [was, is] = [describeAtlasOutcome(stored), describeAtlasOutcome(cell)];
    if (stored.status !== cell.status || was !== is) differences.push({ caseId: cell.case, protocolVersion: cell.protocolVersion, before: was, now: is, statusBefore: stored.status, statusNow: cell.status });
  }
  return differences;
}
