// The atlas's own values (issue 32): what `atlas` plans, what one (stack, version) came to, and
// atlas.json, the index a site keeps of itself so the next atlas can reuse it and `--since` can
// say what changed. A (stack, version)'s cells themselves live in its folder as results.json.
import type { Consequence, Outcome, ProtocolVersion, SchemaInfo } from '../vocabulary/types.js';
import type { FailureKind } from '../../reports/model/index.js';

export const ATLAS_FORMAT = 'mcp-error-matrix/atlas@1';
/** The index file at the root of an atlas site. */
export const ATLAS_INDEX_FILE = 'atlas.json';

/**
 * What one planned (stack, version) came to:
 * - `measured`: it ran and at least one cell was measured (pass, fail, non_strict or error);
 * - `speaks-none`: it ran and every cell was skipped: it speaks none of the table's protocol versions
 *   (the walk back from the newest release stops at the first such version: docs/atlas-site.md);
 * - `not-started`: it could not be installed or started (the reason says why); never reused.
 */
export const VERSION_STATES = ['measured', 'speaks-none', 'not-started'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/** One cell as the atlas keeps it: enough for the index, the trend, the case pages and `--since`. */
export interface AtlasCell {
  case: string;
  protocolVersion: ProtocolVersion;
  status: 'pass' | 'fail' | 'non_strict' | 'skip' | 'error';
  /** The client's conclusion per call (null: it concluded nothing); absent on skip and error cells. */
  actual?: (AtlasVerdict | null)[];
  /** What a failing cell counts as (its worst consequence, an error's cause); absent on pass and skip. */
  kind?: FailureKind;
  /** The consequences of its failed checks, in check order (what the trend names a change by). */
  consequences?: Consequence[];
}

/** A conclusion as the atlas keeps it: the outcome and the status or code it names. */
export interface AtlasVerdict {
  outcome: Outcome;
  status?: number;
  code?: number;
}

/** One (stack, version) of the atlas. */
export interface AtlasVersion {
  /** The exact version, e.g. `1.24.3`. */
  version: string;
  /** The target name, `<kind>@<version>`. */
  spec: string;
  state: VersionState;
  /** Why it is `speaks-none` or `not-started`. */
  reason?: string;
  /** The protocol versions it was measured at (not skipped). */
  speaks: ProtocolVersion[];
  /** When its cells were measured (the newest, when some were kept from an earlier atlas). */
  measuredAt: string;
  /** Cells kept from the previous atlas rather than run again. */
  reusedCells: number;
  /** The case digests its cells were measured with, by case id (what decides reuse). */
  caseDigests: Record<string, string>;
  /** Its folder in the site (`stacks/<kind>/<version>/`), absent when nothing was measured. */
  path?: string;
  cells: AtlasCell[];
}

/** One stack of the atlas: a kind of SDK_KINDS and the versions measured. */
export interface AtlasStack {
  kind: string;
  packageName: string;
  /** The wire implementation it runs on (SDK_KINDS' `stack`). */
  implementation: string;
  /** How its versions were chosen. */
  coverage: {
    /** `minors`: the latest patch of every minor; `all`: every release. */
    releases: 'minors' | 'all';
    /** The npm range given with --stack KIND@RANGE, if any (no walk back then). */
    range?: string;
    /** The version the walk back stopped at (it speaks no protocol version of the table, or could not start). */
    edge?: string;
    /** Published versions of the selection older than the edge: not measured. */
    beyondEdge: string[];
    /** Versions of the selection not measured because the atlas was stopped. */
    pending: string[];
  };
  /** Newest first. */
  versions: AtlasVersion[];
}

/** The case table the atlas ran, as the pages show it. */
export interface AtlasCaseInfo {
  id: string;
  title: string;
  layer: string;
  /** The description's first sentence: what the case means. */
  meaning: string;
  sha256: string;
  versions: ProtocolVersion[];
}

/** What decides whether a stored (stack, version) may be reused: all of it must be equal. */
export interface AtlasSettings {
  /** The tool version and a digest of its runner and report code (atlas-fingerprint.ts). */
  tool: { name: string; version: string; fingerprint: string };
  timeoutMs: number;
  mode: 'http';
  /** The pinned schemas the cells were checked against (null: --no-schemas). */
  schemas: { version: ProtocolVersion; sha256: string }[] | null;
}

/** atlas.json. */
export interface AtlasIndex {
  format: typeof ATLAS_FORMAT;
  settings: AtlasSettings;
  /** A digest of the report code that drew each version's matrix.html (another one redraws them from results.json). */
  renderFingerprint: string;
  startedAt: string;
  finishedAt: string;
  /** False when the atlas was interrupted: the versions not measured are listed per stack. */
  complete: boolean;
  /** The protocol versions selected (--version), in table order. */
  protocolVersions: ProtocolVersion[];
  cases: AtlasCaseInfo[];
  stacks: AtlasStack[];
  /** Node and platform the cells were measured on. */
  node: string;
  platform: string;
  schemaInfo: SchemaInfo[] | null;
}
