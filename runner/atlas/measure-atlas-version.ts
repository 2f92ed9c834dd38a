// One (stack, version) of an atlas, from plan to files: reused whole from the previous atlas (its
// folder is copied, no worker), or measured (all cases, or only those that changed, merged with the
// stored cells of the rest), its results.json and matrix.html written into the atlas's work folder
// at once (the run reports' own renderers: one target's matrix with every cell's evidence), and
// kept in memory only as its atlas.json entry.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadPrecompiledTemplates } from '../../reports/html/index.js';
import { renderReportChunks } from '../../reports/index.js';
import { writeContent } from '../../reports/report-folder/index.js';
import type { LoadedCase } from '../cases/case-types.js';
import { readResultsFile } from '../compare/results-file.js';
import type { ProtocolVersion, RunResult, TargetInfo } from '../vocabulary/types.js';
import type { AtlasVersion } from './atlas-types.js';
import type { ScheduledOutcome } from './run-atlas-schedule.js';
import { mergeVersionResults, planVersionReuse } from './reuse-version.js';
import { runVersionMatrix, type VersionMatrixOptions } from './run-version-matrix.js';
import { summariseVersion } from './summarise-version.js';

/** What the atlas keeps of a settled version. */
export interface SettledVersion extends ScheduledOutcome {
  entry: AtlasVersion;
  /** The folder its files are copied from into the site (absent when nothing was measured). */
  dir?: string;
  /** What ran, for the receipts' provenance (absent when reused whole). */
  target?: TargetInfo;
  /** How long measuring it took (ms), for the progress line. */
  durationMs?: number;
}

export interface AtlasVersionContext {
  cases: LoadedCase[];
  versions?: ProtocolVersion[];
  /** Where freshly measured versions' files go (a folder of the atlas's own). */
  workDir: string;
  /** The previous atlas's entries that may be reused (its settings equal this atlas's), by spec, and its folder. */
  stored?: { dir: string; entries: ReadonlyMap<string, AtlasVersion>; sameRendering: boolean };
  matrix: Omit<VersionMatrixOptions, 'cases'>;
  now?: () => Date;
}

const spec = (kind: string, version: string) => `${kind}@${version}`;
const versionPath = (kind: string, version: string) => `stacks/${kind}/${version}/`;

/** The stored version when it can be reused whole (every selected cell stored, drawn by the same report code), else undefined. */
export function reuseWhole(context: AtlasVersionContext, kind: string, version: string): SettledVersion | undefined {
  const stored = context.stored;
  const entry = stored?.entries.get(spec(kind, version));
  if (!stored || !entry?.path || !stored.sameRendering) return undefined;
  if (planVersionReuse(entry, context.cases, context.versions).kind !== 'whole') return undefined;
  return { state: entry.state, entry: { ...entry, reusedCells: entry.cells.length }, dir: join(stored.dir, entry.path) };
}

/** Measures a version (the cases the previous atlas cannot answer), writes its files, returns its entry. */
export async function measureAtlasVersion(context: AtlasVersionContext, kind: string, version: string, signal: AbortSignal): Promise<SettledVersion> {
  const name = spec(kind, version);
  const started = performance.now();
  const stored = context.stored?.entries.get(name);
  const reuse = planVersionReuse(stored, context.cases, context.versions);
  // Reusable whole but drawn by other report code: nothing to run, the pages are drawn again.
  const rerun = reuse.kind === 'none' ? context.cases : reuse.kind === 'partial' ? context.cases.filter((item) => reuse.rerun.includes(item.case.id)) : [];
  let fresh: RunResult | undefined;
  if (rerun.length > 0) {
    const measured = await runVersionMatrix(name, { ...context.matrix, cases: rerun }, signal);
    if ('interrupted' in measured) return { state: 'measured', interrupted: true, entry: notMeasured(context, name, version, 'interrupted') };
    if ('notStarted' in measured) return { state: 'not-started', entry: notMeasured(context, name, version, measured.notStarted) };
    fresh = measured.result;
  }
  let result = fresh;
  let reusedCells = 0;
  if (reuse.kind !== 'none' && stored?.path && context.stored) {
    const previous = await readResultsFile(join(context.stored.dir, stored.path, 'results.json'), `${stored.path}results.json`);
    ({ result, reusedCells } = mergeVersionResults(previous, fresh, { spec: name, cases: context.cases, versions: context.versions, rerun: rerun.map((item) => item.case.id) }));
  }
  if (!result) throw new Error(`atlas: ${name} has neither stored nor fresh cells (harness bug)`);
  const path = versionPath(kind, version);
  const dir = join(context.workDir, path);
  await writeVersionFiles(dir, result);
  const target = result.targets.find((info) => info.name === name);
  const entry = summariseVersion(result, { spec: name, path, reusedCells });
  return { state: entry.state, entry, dir, ...(target ? { target } : {}), durationMs: performance.now() - started };
}

/** results.json and matrix.html of one version's result, as the run reports write them. */
export async function writeVersionFiles(dir: string, result: RunResult): Promise<void> {
  await loadPrecompiledTemplates();
  await mkdir(dir, { recursive: true });
  for (const file of renderReportChunks(result, {}, ['json', 'html'])) await writeContent(join(dir, file.name), file.content);
}

function notMeasured(context: AtlasVersionContext, name: string, version: string, reason: string): AtlasVersion {
  return { version, spec: name, state: 'not-started', reason, speaks: [], measuredAt: (context.now?.() ?? new Date()).toISOString(), reusedCells: 0, caseDigests: {}, cells: [] };
}
