// `mcp-error-matrix run`: load and select cases, resolve targets, run the matrix, print TAP,
// write the reports. Exit 0 when nothing unexpected happened, 1 otherwise.
import type { CliIo } from '../cli-io.js';
import { loadCases } from '../cases/load-cases.js';
import { selectCases } from '../cases/select-cases.js';
import { parseRunOptions } from '../options.js';
import { runMatrix } from '../run/run-matrix.js';
import { DEFAULT_TARGETS, resolveTarget } from '../targets/resolve-target.js';
import type { ProtocolVersion, RunResult, Target } from '../types.js';
import type { LoadedCase } from '../cases/case-types.js';
import { checkScriptedResponses, createSchemaValidator, resolveSchemas, toSchemaInfo } from '../schema-check/index.js';
import { resolve } from 'node:path';
import { render as renderTap } from '../../reports/tap.js';
import { writeRunReports } from '../../reports/write-run-reports.js';
import { collectRunInputs } from '../run/collect-inputs.js';
import { getPackageRoot } from '../package-paths.js';
import { createProgress } from './progress.js';

/** Runs the `run` command; returns the exit code. */
export async function runRunCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseRunOptions(args, DEFAULT_TARGETS);
  const cases = selectCases(await loadCases({ sources: options.cases, cwd: io.cwd }), options.caseIds);
  const targets: Target[] = [];
  try {
    for (const spec of options.targets) targets.push(await resolveTarget(spec, { cwd: io.cwd }));
    const schemaCheck = await prepareSchemaCheck(options.schemas, io);
    const progress = createProgress(io, options.quiet);
    const result = await runMatrix({
      cases,
      targets,
      ...(options.versions ? { versions: options.versions } : {}),
      mode: options.mode,
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      ...(io.signal ? { signal: io.signal } : {}),
      onCell: progress.onCell,
      checkSchemas: schemaCheck?.check ?? null,
      schemaInfo: schemaCheck?.info ?? null,
    });
    progress.done(result);
    io.stdout(renderTap(result));
    if (options.out !== undefined) {
      const inputs = await collectRunInputs({ cases, schemas: schemaCheck?.loaded ?? [], targets });
      const files = await writeRunReports(resolve(io.cwd, options.out), result, { inputs, rootDir: getPackageRoot() });
      if (!options.quiet) io.stderr(`Reports written to ${options.out}/: ${files.join(', ')}\n`);
    }
    return hasUnexpected(result) ? 1 : 0;
  } finally {
    await Promise.all(targets.map((target) => target.close?.()));
  }
}

/** Loads and verifies the pinned schemas (unless --no-schemas) and compiles the validator once for the run. */
async function prepareSchemaCheck(schemas: string | false | undefined, io: CliIo) {
  if (schemas === false) return undefined;
  const loaded = await resolveSchemas({ ...(schemas === undefined ? {} : { schemasDir: resolve(io.cwd, schemas) }), env: io.env });
  const validator = createSchemaValidator(loaded);
  return {
    loaded: Object.values(loaded),
    info: toSchemaInfo(loaded),
    check: (item: LoadedCase, version: ProtocolVersion) => checkScriptedResponses(validator, item.case, version),
  };
}

/** Whether anything failed unexpectedly: fail, error, a stale baseline entry (xpass), or an interrupted run. */
export function hasUnexpected(result: RunResult): boolean {
  return !result.complete || result.summary.fail > 0 || result.summary.error > 0 || result.summary.xpass > 0;
}
