// The baseline's part in `run`: choose and check it before the run, apply (or regenerate) it after.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LoadedCase } from '../cases/case-types.js';
import { packagePath } from '../util/package-paths.js';
import { summariseCells } from '../run/run-matrix.js';
import type { Cell, RunResult } from '../vocabulary/types.js';
import { sourceFromResult, type ReportHead, type ReportSource } from '../../reports/model/index.js';
import type { RunResultExtras } from '../compare/results-file.js';
import { applyBaselineToCell, validateBaselineChecks, validateBaselineEntries } from './apply-baseline.js';
import { loadBaselineFile, type Baseline } from './load-baseline.js';
import { buildBaselineEntries, writeBaselineFile } from './write-baseline.js';
import { createHash } from 'node:crypto';
import { parseBaselineText } from './load-baseline.js';

/** The bundled baseline: the known failures of the default targets. */
export const BUNDLED_BASELINE = 'baselines/default.yaml';

export interface PreparedBaseline {
  baseline: Baseline;
  /** The file on disk, for receipts. */
  path: string;
}

export interface PrepareBaselineOptions {
  /** `--baseline FILE`, `false` for --no-baseline, undefined for the default. */
  option: string | false | undefined;
  /** Whether the run uses the default targets (then the bundled baseline applies). */
  defaultTargets: boolean;
  /** `--write-baseline FILE`: when no other baseline applies, its current entries keep their reasons. */
  writeBaseline: string | undefined;
  cwd: string;
  /** The whole loaded case table, before --case selection. */
  cases: readonly LoadedCase[];
  runTargets: string[];
  otherKnownTargets: string[];
}

/** Loads the baseline that applies to this run and checks its entries; undefined when none applies. */
export async function prepareBaseline(options: PrepareBaselineOptions): Promise<PreparedBaseline | undefined> {
  const chosen =
    options.option === false
      ? undefined
      : options.option !== undefined
        ? { path: resolve(options.cwd, options.option), shownAs: options.option }
        : options.defaultTargets
          ? { path: packagePath(BUNDLED_BASELINE), shownAs: BUNDLED_BASELINE }
          : options.writeBaseline !== undefined && existsSync(resolve(options.cwd, options.writeBaseline))
            ? { path: resolve(options.cwd, options.writeBaseline), shownAs: options.writeBaseline }
            : undefined;
  if (!chosen) return undefined;
  const baseline = await loadBaselineFile(chosen.path, chosen.shownAs);
  validateBaselineEntries(baseline, {
    cases: options.cases.map((loaded) => ({ id: loaded.case.id, versions: loaded.case.versions })),
    runTargets: options.runTargets,
    otherKnownTargets: options.otherKnownTargets,
  });
  return { baseline, path: chosen.path };
}

/**
 * Turns judged cells into baseline-aware ones. With --write-baseline the current failures are
 * written first and become the baseline applied, so the report shows them as xfail.
 */
export async function settleBaseline(
  result: RunResult,
  options: { prepared: PreparedBaseline | undefined; writeBaseline: string | undefined; cwd: string; cases?: readonly LoadedCase[] },
): Promise<{ result: RunResult & RunResultExtras; path: string | undefined }> {
  if (!options.prepared && options.writeBaseline === undefined) return { result, path: undefined };
  const settled = await settleBaselineSource(sourceFromResult(result), options);
  return { result: { ...settled.head, cells: result.cells.map(settled.map) }, path: settled.path };
}

/**
 * settleBaseline over a report source (a large run's cells are read from disk, a pass at a time):
 * the run's fields with the baseline's counts and summary, and the baseline as a transform each
 * cell is read through (applyBaselineToCell).
 */
export async function settleBaselineSource(
  source: ReportSource,
  options: { prepared: PreparedBaseline | undefined; writeBaseline: string | undefined; cwd: string; cases?: readonly LoadedCase[] },
): Promise<{ head: ReportHead & RunResultExtras; map: (cell: Cell) => Cell; path: string | undefined }> {
  let prepared = options.prepared;
  if (prepared) validateBaselineChecks(prepared.baseline, source.cells());
  if (options.writeBaseline !== undefined) {
    const path = resolve(options.cwd, options.writeBaseline);
    const cases = new Map((options.cases ?? []).map((loaded) => [loaded.case.id, loaded.case]));
    const text = await writeBaselineFile(path, buildBaselineEntries(source.cells(), prepared?.baseline, cases));
    const parsed = parseBaselineText(text, options.writeBaseline);
    prepared = { path, baseline: { ...parsed, sha256: createHash('sha256').update(text).digest('hex') } };
  }
  if (!prepared) return { head: source.head, map: (cell) => cell, path: undefined };
  const { baseline } = prepared;
  const map = (cell: Cell): Cell => applyBaselineToCell(baseline, cell);
  let applied = 0;
  let stale = 0;
  const statuses: Pick<Cell, 'status' | 'conclusion'>[] = [];
  for (const cell of source.cells()) {
    const next = map(cell);
    if (next !== cell && next.status === 'xfail') applied++;
    if (next !== cell && next.status === 'xpass') stale++;
    statuses.push({ status: next.status, ...(next.conclusion === undefined ? {} : { conclusion: next.conclusion }) });
  }
  return {
    path: prepared.path,
    map,
    head: {
      ...source.head,
      summary: summariseCells(statuses),
      baseline: { file: baseline.file, sha256: baseline.sha256, entries: baseline.entries.length, applied, stale },
    },
  };
}
