// The result of comparing two runs, as every format receives it. Cells are matched by
// (case, target, protocol version); computing the comparison is the compare module's job.
import type { CellStatus, ProtocolVersion } from '../../runner/vocabulary/types.js';

/** Identifies one cell across runs. */
export interface CellKey {
  case: string;
  target: string;
  protocolVersion: ProtocolVersion;
}

/** A matched cell with its status in the old and the new run, where it had one. */
export interface ComparedCell extends CellKey {
  /** The old run's target, when a pair (`--pair OLD=NEW`, or one target per family) matched a target of another name. */
  beforeTarget?: string;
  before?: CellStatus;
  after?: CellStatus;
}

export interface Comparison {
  /** Cells that passed (or were expected to fail) before and fail now. */
  regressions: ComparedCell[];
  /** Cells that failed before and pass now. */
  fixes: ComparedCell[];
  /** Cells only in the new run. */
  added: ComparedCell[];
  /** Cells only in the old run. */
  removed: ComparedCell[];
  /** A label for the old run (a path or a tool version), shown in reports. */
  baselineLabel?: string;
  /** Targets of different names compared with each other (old → new). */
  pairs?: TargetPair[];
}

/** An old run's target compared with a new run's target of another name. */
export interface TargetPair {
  before: string;
  after: string;
}

/** A stable string for a cell key, usable as a Map key (target names may contain '@' or ':'). */
export function formatCellKey(key: CellKey): string {
  return JSON.stringify([key.case, key.target, key.protocolVersion]);
}
