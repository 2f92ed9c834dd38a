// The adapter side of the truth corpus: the built-in target run by the runner (runMatrix, as
// `run --target <kind>@<version>` does) over the same cells the probe played, and what it concluded.
import { fileURLToPath } from 'node:url';
import type { LoadedCase } from '../../runner/cases/case-types.js';
import { runMatrix } from '../../runner/run/run-matrix.js';
import { resolveTarget } from '../../runner/targets/resolve-target.js';
import type { Cell, ProtocolVersion } from '../../runner/vocabulary/types.js';
import { normalizeText, normalizeVolatile } from './normalize-volatile.js';
import type { AdapterCellRecord } from './truth-record.js';
import { countToolCalls } from './wire-context.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RecordAdapterOptions {
  target: string;
  cases: LoadedCase[];
  versions: ProtocolVersion[];
  /** The runner's per-exchange timeout. */
  timeoutMs: number;
}

/** Runs the target over every case × version, one cell at a time; the records by `case@version`. */
export async function recordAdapterCells(options: RecordAdapterOptions): Promise<Map<string, AdapterCellRecord>> {
  const records = new Map<string, AdapterCellRecord>();
  if (options.versions.length === 0 || options.cases.length === 0) return records;
  const target = await resolveTarget(options.target, { cwd: REPO_ROOT, versions: options.versions });
  try {
    const result = await runMatrix({ cases: options.cases, targets: [target], versions: options.versions, timeoutMs: options.timeoutMs, concurrency: 1, checkSchemas: null, checkRequest: null });
    for (const cell of result.cells) records.set(`${cell.case}@${cell.protocolVersion}`, toRecord(cell));
  } finally {
    await target.close?.();
  }
  return records;
}

function toRecord(cell: Cell): AdapterCellRecord {
  const origin = cell.recording ? new URL(cell.recording.url).origin : undefined;
  return {
    status: cell.status,
    ...(cell.errorKind !== undefined ? { errorKind: cell.errorKind } : {}),
    ...(cell.reason !== undefined ? { reason: normalizeText(cell.reason, origin) } : {}),
    actual: cell.actual.map((verdict) => (verdict === null ? null : { outcome: verdict.outcome, ...(verdict.status !== undefined ? { status: verdict.status } : {}), ...(verdict.code !== undefined ? { code: verdict.code } : {}) })),
    failedChecks: cell.checks.filter((check) => !check.passed).map((check) => check.id),
    ...(cell.observed !== undefined ? { observed: normalizeVolatile(cell.observed, origin) } : {}),
    toolCallsReceived: countToolCalls(cell.recording?.exchanges ?? []),
  };
}
