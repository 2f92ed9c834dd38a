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
import { runMatrix } from '../run/run-matrix.js';
import { DEFAULT_TARGETS, resolveTarget } from '../targets/resolve-target.js';
import type { ProtocolVersion, RunResult, Target } from '../types.js';
import { createProgress } from './progress.js';

/** Runs the `run` command; returns the exit code. */
export async function runRunCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseRunOptions(args, DEFAULT_TARGETS);
  const shards = options.shard === undefined ? undefined : await import('../shard/select-shard.js');
  const shard = shards && options.shard !== undefined ? shards.parseShard(options.shard) : undefined;
  const table = await loadCases({ sources: options.cases, cwd: io.cwd });
  const selected = selectCases(table, options.caseIds);
  const cases = shards && shard ? shards.selectShardCases(selected, shard) : selected;
  // Read the file to compare with before running, so a wrong path fails in a second, not after the run.
  const previous =
    options.compare === undefined ? undefined : await (await import('../compare/results-file.js')).readResultsFile(resolve(io.cwd, options.compare), options.compare);
  const targets: Target[] = [];
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
    const judged = await runMatrix({
      cases,
      targets,
      ...(options.versions ? { versions: options.versions } : {}),
      mode: options.mode,
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      ...(io.signal ? { signal: io.signal } : {}),
      onCell: (cell, done, total) => progress.onCell(prepared ? applyBaselineToCell(prepared.baseline, cell) : cell, done, total),
      checkSchemas: schemaCheck?.check ?? null,
      checkRequest: schemaCheck?.checkRequest ?? null,
      schemaInfo: schemaCheck?.info ?? null,
    });
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
    for (const line of describeUnmeasured(result)) io.stderr(`${line}\n`);
    if (options.writeBaseline !== undefined && !options.quiet) io.stderr(`Baseline written to ${options.writeBaseline}: ${result.baseline?.entries ?? 0} entries\n`);
    if (comparison && !options.quiet) {
      io.stderr(`Compared with ${options.compare}: ${comparison.regressions.length} regressions, ${comparison.fixes.length} fixes, ${comparison.added.length} added, ${comparison.removed.length} removed\n`);
    }
    if (options.out !== undefined) {
      const { collectRunInputs } = await import('../run/collect-inputs.js');
      const { writeRunReports } = await import('../../reports/write-run-reports.js');
      const inputs = await collectRunInputs({ cases, schemas: schemaCheck?.loaded ?? [], targets, ...(settled.path ? { baseline: settled.path } : {}) });
      const files = await writeRunReports(resolve(io.cwd, options.out), result, { inputs, rootDir: getPackageRoot(), ...(comparison ? { comparison } : {}) });
      if (!options.quiet) io.stderr(`Reports written to ${options.out}/: ${files.join(', ')}\n`);
    }
    return hasUnexpected(result) || (comparison?.regressions.length ?? 0) > 0 ? 1 : 0;
  } finally {
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

/**
 * Whether anything failed unexpectedly: fail, error, a stale baseline entry (xpass), an
 * interrupted run, or a target with no measured cell (nothing measured is not green). A single
 * shard may hold only skips for a target; its merged result decides.
 */
export function hasUnexpected(result: RunResult & { shard?: { merged?: number[] } }): boolean {
  const unmeasured = (result.unmeasured?.length ?? 0) > 0 && (result.shard === undefined || result.shard.merged !== undefined);
  return !result.complete || result.summary.fail > 0 || result.summary.error > 0 || result.summary.xpass > 0 || unmeasured;
}

/** One line per target that got no measured cell, saying why. */
export function describeUnmeasured(result: RunResult): string[] {
  return (result.unmeasured ?? []).map((entry) => `mcp-error-matrix: nothing measured for ${entry.target}: ${entry.reason}`);
}
