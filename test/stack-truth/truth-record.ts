// The stored form of the truth corpus: one JSON file per stack@version under recorded/, written by
// the record command and read, offline, by stack-truth.test.ts. It keeps what the library gave a
// plain application (the probe), what the adapter concluded for the same cells, and what a stale
// recording is detected by: the library's version, the version of the SDK it is built on, and the
// SHA-256 of every case file it played.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CellStatus, ProtocolVersion } from '../../runner/vocabulary/types.js';
import type { ProbeCellRecord } from './probe-cell.js';

export const TRUTH_FORMAT = 'mcp-error-matrix/stack-truth@1';
export const RECORDED_DIR = new URL('./recorded/', import.meta.url);

export interface InstalledPackage {
  name: string;
  version: string;
  /** Its folder, relative to the repository (where the stale check reads its package.json). */
  dir: string;
}

/** What the adapter (the built-in target, run by the runner) concluded for one cell. */
export interface AdapterCellRecord {
  status: CellStatus;
  /** On an error cell, its named cause (an adapter gap). */
  errorKind?: string;
  /** Why the cell is skip or error (volatile parts replaced by markers). */
  reason?: string;
  /** One per call: what the adapter concluded (outcome, status, code), or null for no conclusion. */
  actual: ({ outcome: string; status?: number; code?: number } | null)[];
  /** Failed checks, by id (the consequences the cell was graded with). */
  failedChecks: string[];
  /** What the adapter recorded of the library (`cell.observed`), when the adapter records it. */
  observed?: unknown;
  toolCallsReceived: number;
}

export interface TruthCell {
  case: string;
  protocolVersion: ProtocolVersion;
  probe: ProbeCellRecord;
  adapter: AdapterCellRecord;
}

export interface TruthRecording {
  format: typeof TRUTH_FORMAT;
  target: string;
  kind: string;
  alias: string;
  package: InstalledPackage;
  builtOn?: InstalledPackage;
  /** The runner's per-exchange timeout the adapter side ran with (the probe side keeps the library's defaults). */
  adapterTimeoutMs: number;
  /** The protocol versions the probe's client completed the baseline call at; the others, with what it gave. */
  versions: { spoken: ProtocolVersion[]; unspoken: Partial<Record<ProtocolVersion, unknown>> };
  /** Case id → SHA-256 of the case file played. */
  cases: Record<string, string>;
  /** The probe side's own files (witness-files.ts) → SHA-256, as recorded. */
  witness: Record<string, string>;
  /** Case id → why it is left out for this stack. */
  excluded: Record<string, string>;
  cells: TruthCell[];
}

/** The file's text: two-space JSON with a final newline (keys in the order the recorder builds them). */
export function formatRecording(recording: TruthRecording): string {
  return `${JSON.stringify(recording, null, 2)}\n`;
}

/** Every stored recording, by target, read from `dir`. */
export function readRecordings(dir: URL = RECORDED_DIR): TruthRecording[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files.sort().map((file) => {
    const recording = JSON.parse(readFileSync(join(dir.pathname, file), 'utf8')) as TruthRecording;
    if (recording.format !== TRUTH_FORMAT) throw new Error(`${file}: format ${JSON.stringify(recording.format)} is not ${TRUTH_FORMAT}; re-record with npm run truth:record`);
    return recording;
  });
}

/** The file name of a target's recording. */
export function recordingFileName(target: string): string {
  return `${target}.json`;
}
