// `mcp-error-matrix run`: load and select cases, resolve targets, run the matrix, print TAP,
// write the reports. Exit 0 when nothing unexpected happened, 1 otherwise.
import type { CliIo } from '../cli-io.js';
import { loadCases } from '../cases/load-cases.js';
import { selectCases } from '../cases/select-cases.js';
import { parseRunOptions } from '../options.js';
import { runMatrix } from '../run/run-matrix.js';
import { DEFAULT_TARGETS, resolveTarget } from '../targets/resolve-target.js';
import type { RunResult, Target } from '../types.js';
import { render as renderTap } from '../../reports/tap.js';
import { renderReports } from '../../reports/index.js';
import { writeReportFolder } from '../../reports/write.js';
import { createProgress } from './progress.js';

/** Runs the `run` command; returns the exit code. */
export async function runRunCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseRunOptions(args, DEFAULT_TARGETS);
  const cases = selectCases(await loadCases({ sources: options.cases, cwd: io.cwd }), options.caseIds);
  const targets: Target[] = [];
  try {
    for (const spec of options.targets) targets.push(await resolveTarget(spec, { cwd: io.cwd }));
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
    });
    progress.done(result);
    io.stdout(renderTap(result));
    if (options.out !== undefined) {
      const files = renderReports(result);
      await writeReportFolder(options.out, files);
      if (!options.quiet) io.stderr(`Reports written to ${options.out}/: ${files.map((file) => file.name).join(', ')}\n`);
    }
    return hasUnexpected(result) ? 1 : 0;
  } finally {
    await Promise.all(targets.map((target) => target.close?.()));
  }
}

/** Whether anything failed unexpectedly: fail, error, a stale baseline entry (xpass), or an interrupted run. */
export function hasUnexpected(result: RunResult): boolean {
  return !result.complete || result.summary.fail > 0 || result.summary.error > 0 || result.summary.xpass > 0;
}
