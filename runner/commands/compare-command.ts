// `mcp-error-matrix compare <old results.json> <new results.json>`: regressions, fixes, added and
// removed cells. Exit 1 when anything regressed, 2 when an input is not a results file.
import { resolve } from 'node:path';
import type { CliIo } from '../cli-io.js';
import { parseCommandFlags } from '../command-flags.js';
import { compareResults } from '../compare/compare-results.js';
import { renderComparison, type ComparisonFormat } from '../compare/render-comparison.js';
import { readResultsFile } from '../compare/results-file.js';
import { UsageError } from '../errors.js';

export const COMPARE_USAGE = `Usage: mcp-error-matrix compare <old results.json> <new results.json> [--format markdown|text]
  Lists regressions, fixes, added and removed cells between two runs (the old run first).

  --format F   markdown (default) or text

Exit 0 when nothing regressed, 1 on regressions, 2 when an input is not a results file.
`;

/** Runs the `compare` command; returns the exit code. */
export async function runCompareCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseCommandFlags('compare', { args, options: { format: { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 2) {
    throw new UsageError('compare: expected two results.json files, the old run first: `mcp-error-matrix compare old/results.json new/results.json`');
  }
  const format = values.format ?? 'markdown';
  if (format !== 'markdown' && format !== 'text') throw new UsageError(`compare --format ${format}: expected "markdown" or "text"`);
  const [oldFile, newFile] = positionals as [string, string];
  const before = await readResultsFile(resolve(io.cwd, oldFile), oldFile);
  const after = await readResultsFile(resolve(io.cwd, newFile), newFile);
  const { comparison, changedCases } = compareResults(before, after, oldFile);
  const notes = changedCases.length > 0 ? [`${changedCases.length} case file(s) changed between the runs, so their cells compare different tests: ${changedCases.join(', ')}`] : [];
  io.stdout(renderComparison(comparison, format as ComparisonFormat, notes));
  return comparison.regressions.length > 0 ? 1 : 0;
}
