// `mcp-error-matrix run`: load and select cases, resolve targets, run the matrix, print TAP,
// write the reports. Exit 0 when nothing unexpected happened, 1 otherwise.
// Modules only some runs need (report writing, compare, shards) are imported when used:
// start-up time is most of a small run's wall time.
import { isAbsolute, relative, resolve } from 'node:path';
import { toPassableResult, type ReportHead, type ReportSource } from '../../reports/model/index.js';
import { renderTapChunks } from '../../reports/formats/index.js';
import { applyBaselineToCell } from '../baseline/apply-baseline.js';
import type { LoadedCase } from '../cases/case-types.js';
import { releaseLoadedCases } from '../cases/lazy-loaded-case.js';
import { loadCases } from '../cases/load-cases.js';
import { selectCases } from '../cases/select-cases.js';
import type { CliIo } from '../cli/cli-io.js';
import type { ResultsDigest } from '../compare/read-results-digest.js';
import type { RunResultExtras } from '../compare/results-file.js';
import type { HeldReportFolder } from '../../reports/report-folder/index.js';
import { getDefaultConcurrency, parseRunOptions } from '../cli/options.js';
import { getPackageRoot } from '../util/package-paths.js';
import { UsageError } from '../util/errors.js';
import { createFaultInjector } from '../run/fault-injection.js';
import { describeUnconfirmedCells } from '../run/describe-reruns.js';
import { MatrixFailure } from '../run/matrix-failure.js';
import { createCellStore, toCellSource } from '../run/cell-store.js';
import { planCells, runMatrix } from '../run/run-matrix.js';
import { DEFAULT_TARGETS, expandTargetSpecs, resolveTargets } from '../targets/resolve-target.js';
import { getDefaultCacheDir } from '../targets/sdk/resolve-sdk-package.js';
import { type Cell, type ProtocolVersion, type RunResult, type Target, type TargetInfo } from '../vocabulary/types.js';

/** A run's fields, as results.json stores them, its cells aside. */
type StoredRunHead = ReportHead & RunResultExtras;
import { createProgress } from './progress.js';
import { describeTargetFailures, describeUnmeasured, hasUnexpected } from './run-exit.js';

/** Runs the `run` command; returns the exit code. */
export async function runRunCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseRunOptions(args, DEFAULT_TARGETS);
  // A report folder that would be refused is refused now, before the run, not after it.
  const outFolder = { cwd: io.cwd, home: io.env['HOME'], shownAs: options.out ?? '' };
  if (options.out !== undefined) await (await import('../../reports/report-folder/check-report-folder.js')).checkReportFolder(options.out, outFolder);
  if (options.sign !== undefined && options.out === undefined) throw new UsageError('run: --sign KEY signs the receipts of a report folder; add --out DIR');
  // Every input is read and checked (below) before the folder's lock is taken: a second run to the same
  // --out that has a bad flag fails at once instead of waiting for the first.
  const prepared = await prepareRunInputs(options, io);
  // The folder's lock is taken before the first cell and held until the reports are written, so a
  // lock that is not a lock, a folder another run is using or a read-only --out is known now, not
  // after every cell ran (issue 28 items 5, 7). A signal while waiting exits at once (stop mode 'exit').
  const held =
    options.out === undefined
      ? undefined
      : await (await import('../../reports/report-folder/hold-report-folder.js')).holdReportFolder(options.out, {
          ...outFolder,
          ...(io.signal ? { signal: io.signal } : {}),
          onWait: (holder) => {
            if (!options.quiet) io.stderr(`mcp-error-matrix run: --out ${options.out}: ${holder} is using this report folder; waiting for it (at most 120 s)\n`);
          },
        });
  try {
    return await runWithInputs(options, io, prepared, held);
  } finally {
    await held?.release();
    // A large table's case texts are in a file of this process (lazy-loaded-case.ts).
    releaseLoadedCases(prepared.table);
  }
}

/** What `run` reads and checks before it takes the report folder: the signing key, the cases and the file to compare with. */
async function prepareRunInputs(options: ReturnType<typeof parseRunOptions>, io: CliIo) {
  // A bad key is refused before the run, not after it.
  const signer = options.sign === undefined ? undefined : await (await import('../../reports/receipts/sign-receipts.js')).loadSigningKey(resolve(io.cwd, options.sign), '--sign', options.sign);
  const shards = options.shard === undefined ? undefined : await import('../shard/select-shard.js');
  const shard = shards && options.shard !== undefined ? shards.parseShard(options.shard) : undefined;
  const table = await loadCases({ sources: options.cases, cwd: io.cwd });
  const selected = selectCases(table, options.caseIds);
  const cases = shards && shard ? shards.selectShardCases(selected, shard) : selected;
  // Read the file to compare with before running, so a wrong path fails in a second, not after the run.
  const previous =
    options.compare === undefined ? undefined : await (await import('../compare/read-results-digest.js')).readResultsDigest(resolve(io.cwd, options.compare), options.compare);
  // Schemas before any target: a missing schema is reported at once, not after every client worker started.
  const schemaCheck = await prepareSchemaCheck(options.schemas, io);
  return { signer, shards, shard, table, selected, cases, previous, schemaCheck };
}

async function runWithInputs(options: ReturnType<typeof parseRunOptions>, io: CliIo, inputs: Awaited<ReturnType<typeof prepareRunInputs>>, held: HeldReportFolder | undefined): Promise<number> {
  const { signer, shards, shard, table, selected, cases, previous, schemaCheck } = inputs;
  const outFolder = { cwd: io.cwd, home: io.env['HOME'], shownAs: options.out ?? '', ...(held ? { held } : {}) };
  const targets: Target[] = [];
  // From here a first signal stops the run (clients killed) and the reports are written marked incomplete.
  io.setStopMode?.('abort', 'stopping'); // the run says itself what stopping means for it (describeInterruptedRun)
  try {
    // A version range (ts-sdk@^1.10.0) becomes one target per version, each its own worker process.
    // Targets start side by side, so each client worker's start-up (imports, warm-up, version probe)
    // overlaps the others'; the versions a range installs go 3 at a time.
    const cacheDir = getDefaultCacheDir(io.env);
    const specs = await expandTargetSpecs(options.targets, {
      cacheDir,
      onExpanded: (spec, versions) => {
        if (!options.quiet) io.stderr(`--target ${spec}: ${versions.length} version(s): ${versions.join(', ')}\n`);
      },
    }).catch((error: unknown) => {
      // Stopped meanwhile (a signal to the whole process group kills npm too): the specs as given
      // stand for the targets, each then left unstarted, as if the stop had reached the runner alone.
      if (io.signal?.aborted) return options.targets;
      throw error;
    });
    // One line per client install into the user cache, as it starts (an installed package installs even its pinned versions there).
    const onInstall = options.quiet ? undefined : (line: string) => io.stderr(`mcp-error-matrix run: ${line}\n`);
    targets.push(
      ...(await resolveTargets(specs, {
        cwd: io.cwd,
        cacheDir,
        ...(options.versions ? { versions: options.versions } : {}),
        ...(io.signal ? { signal: io.signal } : {}),
        ...(onInstall ? { onInstall } : {}),
        concurrency: specs.length > options.targets.length ? 3 : specs.length,
      })),
    );
    const pairing = previous && options.compare !== undefined ? await preparePairing(previous, options.compare, options.pairs, { targets: targets.map((t) => t.info.name), cases: cases.map((c) => c.case.id), ...(options.versions ? { versions: options.versions } : {}) }) : undefined;
    // The baseline modules (YAML, the baseline writer) are loaded only when a baseline is in play.
    const baselines = usesBaseline(options) ? await import('../baseline/run-baseline.js') : undefined;
    const prepared = await baselines?.prepareBaseline({
      option: options.baseline,
      defaultTargets: options.defaultTargets,
      writeBaseline: options.writeBaseline,
      cwd: io.cwd,
      cases: table,
      runTargets: targets.map((target) => target.info.name),
      otherKnownTargets: [...DEFAULT_TARGETS, 'reference', 'naive'],
    });
    const progress = createProgress(io, { quiet: options.quiet, verbose: options.verbose });
    const injectFault = createFaultInjector(io.env);
    // An internal error mid-run is handled like a signal: the result so far is written, marked
    // incomplete, and the error is thrown again once the reports are out.
    let internalError: { error: unknown } | undefined;
    io.signal?.addEventListener('abort', () => io.stderr(describeInterruptedRun(options.out)), { once: true });
    // A large run keeps its finished cells on disk, not in memory (cell-store.ts); every pass below reads them from there.
    const store = createCellStore(planCells(cases, targets, options.versions).length);
    try {
      const judged = await runMatrix({
        cases,
        targets,
        ...(options.versions ? { versions: options.versions } : {}),
        mode: options.mode,
        timeoutMs: options.timeoutMs,
        // The default is where the run starts; it backs off when cells come back starved. --concurrency N pins it.
        concurrency: options.concurrency ?? getDefaultConcurrency(targets),
        adaptive: options.concurrency === undefined,
        ...(io.signal ? { signal: io.signal } : {}),
        onCell: (cell, done, total) => {
          progress.onCell(prepared ? applyBaselineToCell(prepared.baseline, cell) : cell, done, total);
          injectFault?.({ cellsDone: done });
        },
        onRerun: (cell) => progress.onRerun(prepared ? applyBaselineToCell(prepared.baseline, cell) : cell),
        repro: { program: io.invocation, cases: options.cases, baseline: prepared ? toRunRelativePath(io.cwd, prepared.path) : undefined, noSchemas: options.schemas === false },
        checkSchemas: schemaCheck?.check ?? null,
        checkRequest: schemaCheck?.checkRequest ?? null,
        schemaInfo: schemaCheck?.info ?? null,
        cellStore: store,
      }).catch((error: unknown) => {
        if (!(error instanceof MatrixFailure)) throw error;
        internalError = { error: error.cause };
        return error.partial;
      });
      // A complete result stays complete: a signal from here on lets the reports finish, and the
      // exit status follows the result (never 130/143 beside `complete: true`).
      if (judged.complete) io.setStopMode?.('finish');
      const judgedSource = toCellSource(store, judged);
      const settled = baselines
        ? await baselines.settleBaselineSource(judgedSource, { prepared, writeBaseline: options.writeBaseline, cwd: io.cwd, cases })
        : { head: judged as StoredRunHead, map: (cell: Cell) => cell, path: undefined };
      let head: StoredRunHead = settled.head;
      if (shards && shard) {
        const plan = shards.computePlanDigest(selected, targets, options.versions);
        head = { ...head, shard: { index: shard.index, count: shard.count, planDigest: plan.digest, plannedCells: plan.cells } };
      }
      // Comparing reads each cell's key and status, a pass over the cells kept.
      const digests = previous && pairing ? [...digestCells(toCellSource(store, head, settled.map))] : [];
      const current = { targets: head.targets, cases: head.cases, cells: digests };
      const compared = previous && pairing ? (await import('../compare/compare-results.js')).compareResults(previous, current, options.compare, pairing.choose(current)) : undefined;
      const comparison = compared?.comparison;
      if (comparison) head = { ...head, comparison };
      const source = toCellSource(store, head, settled.map);
      const result = toPassableResult(source);
      progress.stop();
      // Without --out, TAP on stdout is the run's output; with --out it is in results.tap, and on
      // stdout only with --tap: tens of thousands of lines would scroll the summary below away.
      if (options.out === undefined || options.tap) for (const chunk of renderTapChunks(source)) io.stdout(chunk);
      if (options.writeBaseline !== undefined && !options.quiet) io.stderr(`Baseline written to ${options.writeBaseline}: ${head.baseline?.entries ?? 0} entries\n`);
      if (comparison && !options.quiet) {
        io.stderr(`Compared with ${options.compare}: ${comparison.regressions.length} regressions, ${comparison.fixes.length} fixes, ${comparison.added.length} added, ${comparison.removed.length} removed\n`);
      }
      if (options.out !== undefined) {
        const { collectRunInputs } = await import('../run/collect-inputs.js');
        const { writeRunReports } = await import('../../reports/write-run-reports.js');
        injectFault?.('write');
        const { describeWhatRan } = await import('../run/describe-what-ran.js');
        const { inputs, roots } = await collectRunInputs({ cases, schemas: schemaCheck?.loaded ?? [], validatorCode: schemaCheck?.listUsedCode() ?? [], targets, ...(settled.path ? { baseline: settled.path } : {}) });
        const ran = await describeWhatRan(targets.map((target) => target.info));
        const files = await writeRunReports(options.out, source, { inputs, roots, ran, rootDir: getPackageRoot(), ...(signer ? { signer } : {}), ...outFolder, ...(comparison ? { comparison } : {}) });
        if (!options.quiet) io.stderr(`Reports written to ${options.out}/: ${files.join(', ')}\n`);
      }
      // The run ends with its counts and each target's failures by what they cost (docs/reference.md § Progress output).
      progress.done(result);
      if (!options.quiet) for (const line of describeTargetFailures(result)) io.stderr(`${line}\n`);
      for (const line of describeUnmeasured(head)) io.stderr(`${line}\n`);
      // Cells the load left unmeasured even after their re-runs: cause and remedy, one line each.
      for (const line of describeUnconfirmedCells(result.cells)) io.stderr(`${line}\n`);
      if (internalError) throw internalError.error;
      // Reports are out; a comparison that paired nothing is still an input error (preparePairing catches most before the run).
      if (compared && pairing && compared.paired === 0 && head.complete) throw pairing.unpaired(current);
      return hasUnexpected(head) || (comparison?.regressions.length ?? 0) > 0 ? 1 : 0;
    } finally {
      store.close();
    }
  } finally {
    io.setStopMode?.('exit');
    await Promise.all(targets.map((target) => target.close?.()));
  }
}

/**
 * Checks `--pair` against the previous run and the planned targets, and that the planned run can
 * pair any cell with the previous one; returns how to choose the pairs and the error for none.
 */
async function preparePairing(previous: ResultsDigest, label: string, values: string[], plan: { targets: string[]; cases: string[]; versions?: ProtocolVersion[] }) {
  const { canPairPlannedRun, checkPairs, choosePairs, describeUnpaired, listResultTargets, parsePairs } = await import('../compare/pair-targets.js');
  const labels = { old: label, new: 'this run', command: 'run --compare' };
  const explicit = parsePairs(values, 'run');
  const oldTargets = listResultTargets(previous);
  checkPairs(explicit, oldTargets, plan.targets, labels);
  const planned = { targets: plan.targets.map((name) => ({ name, kind: '' })), cells: [] };
  if (!canPairPlannedRun(previous, plan, choosePairs(previous, planned, explicit, labels))) throw describeUnpaired(oldTargets, plan.targets, labels);
  return {
    choose: (current: PairedRun) => choosePairs(previous, current, explicit, labels),
    unpaired: (current: PairedRun) => describeUnpaired(oldTargets, listResultTargets(current), labels),
  };
}

/** What pairing and comparing read of this run: its targets and each cell's key and status. */
interface PairedRun {
  targets: readonly TargetInfo[];
  cells: readonly Pick<Cell, 'case' | 'target' | 'protocolVersion' | 'status'>[];
}

/** Each cell's key and status, in one pass. */
function* digestCells(source: ReportSource): Iterable<Pick<Cell, 'case' | 'target' | 'protocolVersion' | 'status'>> {
  for (const { case: caseId, target, protocolVersion, status } of source.cells()) yield { case: caseId, target, protocolVersion, status };
}

/** Loads and verifies the pinned schemas (unless --no-schemas) and compiles the validator once for the run. */
export async function prepareSchemaCheck(schemas: string | false | undefined, io: CliIo) {
  if (schemas === false) return undefined;
  const { checkScriptedResponses, createSchemaValidator, getValidatorCodeCacheDir, resolveSchemas, toSchemaInfo } = await import('../schema-check/index.js');
  const loaded = await resolveSchemas({ ...(schemas === undefined ? {} : { schemasDir: resolve(io.cwd, schemas) }), env: io.env });
  // Validators come from pinned standalone code in the user cache (checked on every load), not an ajv compile per run.
  const validator = createSchemaValidator(loaded, { codeCacheDir: getValidatorCodeCacheDir(io.env) });
  return {
    loaded: Object.values(loaded),
    info: toSchemaInfo(loaded),
    check: (item: LoadedCase, version: ProtocolVersion) => checkScriptedResponses(validator, item.case, version),
    checkRequest: (version: ProtocolVersion, message: unknown) => validator.checkRequestMessage(version, message),
    listUsedCode: () => validator.listUsedCode(),
  };
}

/** Whether a baseline may apply or be written: --baseline FILE, the default targets' bundled one, or --write-baseline. */
function usesBaseline(options: { baseline: string | false | undefined; defaultTargets: boolean; writeBaseline: string | undefined }): boolean {
  return options.writeBaseline !== undefined || (options.baseline !== false && (options.baseline !== undefined || options.defaultTargets));
}

/** A path as the repro line writes it: relative to where the run started when below it, else absolute. */
function toRunRelativePath(cwd: string, path: string): string {
  const shown = relative(cwd, path);
  return shown === '' || isAbsolute(shown) || shown.startsWith('..') ? path : shown;
}

/** What an interrupted run still does, printed when the signal arrives. */
function describeInterruptedRun(out: string | undefined): string {
  const where = out === undefined ? 'the TAP output' : `the TAP output and the reports in ${out}/`;
  return `mcp-error-matrix run: interrupted: running cells are stopped, cells not started are left out; ${where} will be marked incomplete\n`;
}
