// `atlas`'s work, from plan to site (issue 32): read the previous atlas at --out (verified by its
// receipts) and the one --since names; plan each stack's versions from the registry's list; run
// them with a bounded number of live workers, reusing what the previous atlas measured with the
// same tool, cases and schemas; write the site as one report folder with receipts; say what changed.
// Everything from outside (the registry, the targets, the code fingerprints) comes in as options,
// so the tests run it offline with in-process targets.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeAtlasSite } from '../../reports/atlas/write-atlas-site.js';
import { renderAtlasChanges } from '../../reports/atlas/render-atlas-changes.js';
import type { ReceiptInput, ReceiptRootOption, RunProvenance } from '../../reports/receipts/index.js';
import type { LoadedCase } from '../cases/case-types.js';
import type { ProtocolVersion, SchemaInfo, TargetInfo } from '../vocabulary/types.js';
import type { AtlasFingerprints } from './atlas-fingerprint.js';
import { AtlasStoreError, describeSettingsChange, holdsAtlas, readPreviousAtlas, type PreviousAtlas } from './atlas-store.js';
import { ATLAS_INDEX_FILE, type AtlasIndex, type AtlasSettings } from './atlas-types.js';
import { diffAtlases } from './diff-atlases.js';
import { makeAtlasIndex } from './make-atlas-index.js';
import { measureAtlasVersion, reuseWhole, type AtlasVersionContext, type SettledVersion } from './measure-atlas-version.js';
import { planStack, type StackSelector } from './plan-atlas.js';
import { runAtlasSchedule } from './run-atlas-schedule.js';
import type { VersionMatrixOptions } from './run-version-matrix.js';
import { describeSettled } from './describe-progress.js';

export interface BuildAtlasOptions {
  /** The site folder (absolute or relative to cwd), and how messages name it. */
  out: string;
  shownAs: string;
  cwd: string;
  home?: string | undefined;
  selectors: StackSelector[];
  cases: LoadedCase[];
  versions?: ProtocolVersion[];
  timeoutMs: number;
  /** Versions measured at once (live client workers). */
  workers: number;
  /** Measure every version again, reusing nothing (the previous atlas is still read for --since). */
  fresh: boolean;
  /** A previous atlas to say what changed since (`--since DIR`). */
  since?: { dir: string; shownAs: string };
  siteUrl?: string;
  signal?: AbortSignal;
  /** Hears one line per settled version and per note. */
  onLine?: (line: string) => void;
  /** The registry's published versions of a kind (expand-version-range.ts getPublishedVersions). */
  listPublished: (kind: string) => Promise<string[]>;
  fingerprints: AtlasFingerprints;
  /** How each version is run: target resolution, schema checks, concurrency (the cases are the atlas's). */
  matrix: Omit<VersionMatrixOptions, 'cases' | 'versions' | 'timeoutMs'>;
  schemas: { pins: AtlasSettings['schemas']; info: SchemaInfo[] | null };
  /** The receipts' inputs and roots (case files, schemas, runner code) and what ran. */
  receipts: () => Promise<{ inputs: ReceiptInput[]; roots: Record<string, ReceiptRootOption>; rootDir: string }>;
  describeRan?: (targets: TargetInfo[]) => Promise<RunProvenance>;
  toolName: string;
  toolVersion: string;
}

export interface BuiltAtlas {
  index: AtlasIndex;
  /** `--since`'s Markdown, also written to the site as changes.md. */
  changes?: string;
  files: number;
}

/** Builds the atlas and writes its site. */
export async function buildAtlas(options: BuildAtlasOptions): Promise<BuiltAtlas> {
  const startedAt = new Date().toISOString();
  const say = (line: string) => options.onLine?.(line);
  const out = resolve(options.cwd, options.out);
  const settings: AtlasSettings = { tool: { name: options.toolName, version: options.toolVersion, fingerprint: options.fingerprints.measuring }, timeoutMs: options.timeoutMs, mode: 'http', schemas: options.schemas.pins };
  const remedy = `Remedy: restore it from where it came from, or give another --out folder, or pass --fresh to measure every version again (the folder is then replaced).`;
  // Read before anything runs: a tampered store stops the atlas at once, not after an hour.
  // With --fresh the folder is only replaced: it is read only when --since names it.
  const sinceOut = options.since !== undefined && resolve(options.cwd, options.since.dir) === out;
  const previous = holdsAtlas(out) && (!options.fresh || sinceOut) ? await readPreviousAtlas(out, options.shownAs, remedy) : undefined;
  const since = options.since === undefined ? undefined : sinceOut && previous ? previous : await readSince({ ...options.since, dir: resolve(options.cwd, options.since.dir) });
  const stored = previous && !options.fresh ? usableStore(previous, settings, options.fingerprints.rendering, say) : undefined;

  const plans = [];
  for (const selector of options.selectors) plans.push(planStack(selector, await options.listPublished(selector.kind)));
  const planned = plans.reduce((sum, plan) => sum + plan.versions.length, 0);
  say(`${plans.length} stacks, up to ${planned} versions (newest first; a walk back stops at the first that speaks none of the protocol versions), ${options.workers} at a time${stored ? `; reusing what ${options.shownAs} measured` : ''}`);

  const workDir = await mkdtemp(join(tmpdir(), 'mem-atlas-'));
  try {
    const context: AtlasVersionContext = {
      cases: options.cases,
      ...(options.versions ? { versions: options.versions } : {}),
      workDir,
      ...(stored ? { stored } : {}),
      matrix: { ...options.matrix, timeoutMs: options.timeoutMs, ...(options.versions ? { versions: options.versions } : {}) },
    };
    let settled = 0;
    const scheduled = await runAtlasSchedule<SettledVersion>({
      plans,
      workers: options.workers,
      reuse: (kind, version) => reuseWhole(context, kind, version),
      measure: (kind, version, signal) => measureAtlasVersion(context, kind, version, signal),
      ...(options.signal ? { signal: options.signal } : {}),
      onSettled: (event) => say(describeSettled(event, ++settled)),
    });
    const index = makeAtlasIndex({
      settings,
      renderFingerprint: options.fingerprints.rendering,
      startedAt,
      finishedAt: new Date().toISOString(),
      cases: options.cases,
      ...(options.versions ? { versions: options.versions } : {}),
      plans,
      scheduled,
      schemaInfo: options.schemas.info,
    });
    const changes = since ? renderAtlasChanges(diffAtlases(since.index, index), new Map(index.cases.map((item) => [item.id, item.title]))) : undefined;
    const versionDirs = new Map<string, string>();
    const targets: TargetInfo[] = [];
    for (const stack of scheduled) {
      for (const { outcome } of stack.outcomes) {
        if (outcome.dir !== undefined) versionDirs.set(outcome.entry.spec, outcome.dir);
        targets.push(outcome.target ?? { name: outcome.entry.spec, kind: 'client', version: outcome.entry.version });
      }
    }
    const receipts = await options.receipts();
    const ran = await options.describeRan?.(targets);
    const files = await writeAtlasSite(out, index, {
      versionDirs,
      ...(options.siteUrl ? { siteUrl: options.siteUrl } : {}),
      ...(changes === undefined ? {} : { changes }),
      ...receipts,
      ...(ran ? { ran } : {}),
      cwd: options.cwd,
      home: options.home,
      shownAs: options.shownAs,
    });
    return { index, ...(changes === undefined ? {} : { changes }), files };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The previous atlas's entries when its settings match this atlas's; otherwise a note and nothing. */
function usableStore(previous: PreviousAtlas, settings: AtlasSettings, rendering: string, say: (line: string) => void): AtlasVersionContext['stored'] {
  const change = describeSettingsChange(previous.index.settings, settings);
  if (change !== undefined) {
    say(`not reusing the previous atlas: ${change}; every version is measured again`);
    return undefined;
  }
  const entries = new Map(previous.index.stacks.flatMap((stack) => stack.versions.map((version) => [version.spec, version] as const)));
  return { dir: previous.dir, entries, sameRendering: previous.index.renderFingerprint === rendering };
}

async function readSince(since: { dir: string; shownAs: string }): Promise<PreviousAtlas> {
  if (!holdsAtlas(resolve(since.dir))) throw new AtlasStoreError(`--since ${since.shownAs}: no atlas there (no ${ATLAS_INDEX_FILE}); give the folder an earlier \`atlas --out\` wrote`);
  return readPreviousAtlas(since.dir, since.shownAs, `Remedy: give --since the folder of an earlier atlas, as it was written (its receipts must still match).`);
}
