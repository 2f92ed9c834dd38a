// One (stack, version)'s cells counted for the atlas's index and badges: cells per status, the
// failing cells by what they count as (their worst consequence, or an error's cause: count-failures.ts),
// its worst kind (the colour of its index cell), and its unsafe cells: false successes and unsafe
// retries, the two that harm the caller (a result that does not exist; a tool run twice).
import { describeFailureKind, FAILURE_KINDS, nameFailureKind, type FailureKind } from '../model/index.js';
import type { AtlasCell, AtlasVersion } from '../../runner/atlas/atlas-types.js';

const UNSAFE: ReadonlySet<FailureKind> = new Set(['false-success', 'unsafe-retry']);

export interface VersionTally {
  pass: number;
  fail: number;
  non_strict: number;
  skip: number;
  error: number;
  /** Failing cells (fail, non_strict, error) per kind, worst first, only kinds that occur. */
  kinds: { kind: FailureKind; count: number; words: string }[];
  /** The worst kind among its failing cells, when it has any. */
  worst?: FailureKind;
  unsafe: number;
}

/** A stored kind as a known FailureKind (an atlas.json may come from another version of the tool: unknown is `other`). */
export function toFailureKind(kind: string): FailureKind {
  return (FAILURE_KINDS as readonly string[]).includes(kind) ? (kind as FailureKind) : 'other';
}

/** A cell's kind in a word or two ("false success"). */
export function nameCellKind(kind: string): string {
  return nameFailureKind(toFailureKind(kind));
}

/** Counts a version's cells. */
export function tallyVersion(cells: readonly AtlasCell[]): VersionTally {
  const tally = { pass: 0, fail: 0, non_strict: 0, skip: 0, error: 0 };
  const kinds = new Map<FailureKind, number>();
  let unsafe = 0;
  for (const cell of cells) {
    tally[cell.status]++;
    if (cell.kind === undefined) continue;
    const kind = toFailureKind(cell.kind);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    if (UNSAFE.has(kind)) unsafe++;
  }
  const ordered = FAILURE_KINDS.filter((kind) => kinds.has(kind)).map((kind) => ({ kind, count: kinds.get(kind)!, words: describeFailureKind(kind, kinds.get(kind)!) }));
  return { ...tally, kinds: ordered, ...(ordered[0] ? { worst: ordered[0].kind } : {}), unsafe };
}

/** A shields.io endpoint badge (https://shields.io/badges/endpoint-badge). */
export interface ShieldsBadge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

export const BADGE_LABEL = 'MCP errors';

/**
 * The badge of a version: its unsafe cells first ("3 unsafe", red); else its failing MUST cells
 * ("5 failing", orange); else its SHOULD-level ones ("2 non-strict", yellow); else "all pass". Cells
 * not measured are added ("· 4 not measured"), and a version that measured nothing says why.
 */
export function makeVersionBadge(version: Pick<AtlasVersion, 'state' | 'cells'>): ShieldsBadge {
  if (version.state === 'speaks-none') return { schemaVersion: 1, label: BADGE_LABEL, message: 'no Streamable HTTP version', color: 'lightgrey' };
  if (version.state === 'not-started') return { schemaVersion: 1, label: BADGE_LABEL, message: 'not measured', color: 'lightgrey' };
  const tally = tallyVersion(version.cells);
  const unmeasured = tally.error > 0 ? ` · ${tally.error} not measured` : '';
  if (tally.unsafe > 0) return { schemaVersion: 1, label: BADGE_LABEL, message: `${tally.unsafe} unsafe${unmeasured}`, color: 'red' };
  if (tally.fail > 0) return { schemaVersion: 1, label: BADGE_LABEL, message: `${tally.fail} failing${unmeasured}`, color: 'orange' };
  if (tally.non_strict > 0) return { schemaVersion: 1, label: BADGE_LABEL, message: `${tally.non_strict} non-strict${unmeasured}`, color: 'yellow' };
  return { schemaVersion: 1, label: BADGE_LABEL, message: tally.error > 0 ? `${tally.error} not measured` : 'all pass', color: tally.error > 0 ? 'lightgrey' : 'brightgreen' };
}
