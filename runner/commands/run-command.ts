// `mcp-error-matrix run`: load and select cases, resolve targets, run the matrix, print TAP,
// write the reports. Exit 0 when nothing unexpected happened, 1 otherwise.
// Modules only some runs need (report writing, compare, shards) are imported when used:
// start-up time is most of a small run's wall time.
import { resolve } from 'node:path';
import { render as renderTap } from '../../reports/tap.js';
import { applyBaselineToCell } from '../baseline/apply-baseline.js';
import { prepareBaseline, settleBaseline } from '../baseline/run-baseline.js';
import type { LoadedCase } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { selectCases } from '../cases/select-cases.js';
import type { CliIo } from '../cli-io.js';
import type { StoredRunResult } from '../compare/results-file.js';
import { parseRunOptions } from '../options.js';
import { getPackageRoot } from '../package-paths.js';
import { createFaultInjector } from '../run/fault-injection.js';
import { MatrixFailure } from '../run/matrix-failure.js';
import { runMatrix } from '../run/run-matrix.js';
import { DEFAULT_TARGETS, resolveTarget } from '../targets/resolve-target.js';
import type { ProtocolVersion, RunResult, Target } from '../types.js';
import { createProgress } from './progress.js';

/** Runs the `run` command; returns the exit code. */
export async function runRunCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseRunOptions(args, DEFAULT_TARGETS);
  // A report folder that would be refused is refused now, before the run, not after it.
  const outFolder = { cwd: io.cwd, home: io.env['HOME'], shownAs: options.out ?? '' };
  if (options.out !== undefined) await (await import('../../reports/check-report-folder.js')).checkReportFolder(options.out, outFolder);
  const shards = options.shard === undefined ? undefined : await import('../shard/select-shard.js');
  const shard = shards && options.shard !== undefined ? shards.parseShard(options.shard) : undefined;
  const table = await loadCases({ sources: options.cases, cwd: io.cwd });
  const selected = selectCases(table, options.caseIds);
  const cases = shards && shard ? shards.selectShardCases(selected, shard) : selected;
  // Read the file to compare with before running, so a wrong path fails in a second, not after the run.
  const previous =
    options.compare === undefined ? undefined : await (await import('../compare/results-file.js')).readResultsFile(resolve(io.cwd, options.compare), options.compare);
  const targets: Target[] = [];
  // From here a first signal stops the run (clients killed) and the reports are written marked incomplete.
  io.setStopMode?.('abort');
  try {
    for (const spec of options.targets) targets.push(await resolveTarget(spec, { cwd: io.cwd }));
    const prepared = await prepareBaseline({
      option: options.baseline,
      defaultTargets: options.defaultTargets,
      writeBaseline: options.writeBaseline,
      cwd: io.cwd,
      cases: table,
      runTargets: targets.map((target) => target.info.name),
      otherKnownTargets: [...DEFAULT_TARGETS, 'reference', 'naive'],
    });
    const schemaCheck = await prepareSchemaCheck(options.schemas, io);
    const progress = createProgress(io, { quiet: options.quiet, verbose: options.verbose });
    const injectFault = createFaultInjector(io.env);
    // An internal error mid-run is handled like a signal: the result so far is written, marked
    // incomplete, and the error is thrown again once the reports are out.
    let internalError: { error: unknown } | undefined;
    const judged = await runMatrix({
      cases,
      targets,
      ...(options.versions ? { versions: options.versions } : {}),
      mode: options.mode,
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      ...(io.signal ? { signal: io.signal } : {}),
      onCell: (cell, done, total) => {
        progress.onCell(prepared ? applyBaselineToCell(prepared.baseline, cell) : cell, done, total);
        injectFault?.({ cellsDone: done });
      },
      checkSchemas: schemaCheck?.check ?? null,
      checkRequest: schemaCheck?.checkRequest ?? null,
      schemaInfo: schemaCheck?.info ?? null,
    }).catch((error: unknown) => {
      if (!(error instanceof MatrixFailure)) throw error;
      internalError = { error: error.cause };
      return error.partial;
    });
    // A complete result stays complete: a signal from here on lets the reports finish, and the
    // exit status follows the result (never 130/143 beside `complete: true`).
    if (judged.complete) io.setStopMode?.('finish');
    const settled = await settleBaseline(judged, { prepared, writeBaseline: options.writeBaseline, cwd: io.cwd });
    let result: StoredRunResult = settled.result;
    if (shards && shard) {
      const plan = shards.computePlanDigest(selected, targets, options.versions);
      result = { ...result, shard: { index: shard.index, count: shard.count, planDigest: plan.digest, plannedCells: plan.cells } };
    }
    const comparison = previous ? (await import('../compare/compare-results.js')).compareResults(previous, result, options.compare).comparison : undefined;
    if (comparison) result = { ...result, comparison };
    progress.done(result);
    io.stdout(renderTap(result));
    if (options.writeBaseline !== undefined && !options.quiet) io.stderr(`Baseline written to ${options.writeBaseline}: ${result.baseline?.entries ?? 0} entries\n`);
    if (comparison && !options.quiet) {
      io.stderr(`Compared with ${options.compare}: ${comparison.regressions.length} regressions, ${comparison.fixes.length} fixes, ${comparison.added.length} added, ${comparison.removed.length} removed\n`);
    }
    if (options.out !== undefined) {
      const { collectRunInputs } = await import('../run/collect-inputs.js');
      const { writeRunReports } = await import('../../reports/write-run-reports.js');
      injectFault?.('write');
      const inputs = await collectRunInputs({ cases, schemas: schemaCheck?.loaded ?? [], targets, ...(settled.path ? { baseline: settled.path } : {}) });
      const files = await writeRunReports(options.out, result, { inputs, rootDir: getPackageRoot(), ...outFolder, ...(comparison ? { comparison } : {}) });
      if (!options.quiet) io.stderr(`Reports written to ${options.out}/: ${files.join(', ')}\n`);
    }
    if (internalError) throw internalError.error;
    return hasUnexpected(result) || (comparison?.regressions.length ?? 0) > 0 ? 1 : 0;
  } finally {
    io.setStopMode?.('exit');
    await Promise.all(targets.map((target) => target.close?.()));
  }
}

/** Loads and verifies the pinned schemas (unless --no-schemas) and compiles the validator once for the run. */
async function prepareSchemaCheck(schemas: string | false | undefined, io: CliIo) {
  if (schemas === false) return undefined;
  const { checkScriptedResponses, createSchemaValidator, resolveSchemas, toSchemaInfo } = await import('../schema-check/index.js');
  const loaded = await resolveSchemas({ ...(schemas === undefined ? {} : { schemasDir: resolve(io.cwd, schemas) }), env: io.env });
  const validator = createSchemaValidator(loaded);
  return {
    loaded: Object.values(loaded),
    info: toSchemaInfo(loaded),
    check: (item: LoadedCase, version: ProtocolVersion) => checkScriptedResponses(validator, item.case, version),
    checkRequest: (version: ProtocolVersion, message: unknown) => validator.checkRequestMessage(version, message),
  };
}

/** Whether anything failed unexpectedly: fail, error, a stale baseline entry (xpass), or an interrupted run. */
export function hasUnexpected(result: RunResult): boolean {
  return !result.complete || result.summary.fail > 0 || result.summary.error > 0 || result.summary.xpass > 0;
}
