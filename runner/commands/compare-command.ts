// `mcp-error-matrix compare <old results.json> <new results.json>`: regressions, fixes, added and
// removed cells. Exit 1 when anything regressed, 2 when an input is not a results file.
import { resolve } from 'node:path';
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { compareResults } from '../compare/compare-results.js';
import { checkPairs, choosePairs, describeUnpaired, listResultTargets, parsePairs } from '../compare/pair-targets.js';
import { renderComparison, type ComparisonFormat } from '../compare/render-comparison.js';
import { readResultsDigest } from '../compare/read-results-digest.js';
import { UsageError } from '../util/errors.js';

export const COMPARE_USAGE = `Usage: mcp-error-matrix compare <old results.json> <new results.json> [--format markdown|text] [--pair OLD=NEW]
  Lists regressions, fixes, added and removed cells between two runs (the old run first).
  Cells pair by case, target and protocol version.

  --format F       markdown (default) or text
  --pair OLD=NEW   compare the old run's target OLD with the new run's target NEW, e.g.
                   --pair ts-client@2.0.0=ts-client@2.4.0 (repeatable). Both files may be the same
                   run: compare ab/results.json ab/results.json --pair ts-sdk@1.24.3=ts-sdk@1.25.3.
                   Without it, a family (ts-sdk, ts-client) with one target in each run pairs by itself.

Exit 0 when nothing regressed, 1 on regressions, 2 when an input is not a results file, no cell
pairs (the error names the targets of each run), or a family could pair more than one way (the
error names the choices).
`;

/** Runs the `compare` command; returns the exit code. */
export async function runCompareCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseCommandFlags('compare', { args, options: { format: { type: 'string' }, pair: { type: 'string', multiple: true } }, allowPositionals: true });
  if (positionals.length !== 2) {
    throw new UsageError('compare: expected two results.json files, the old run first: `mcp-error-matrix compare old/results.json new/results.json`');
  }
  const format = values.format ?? 'markdown';
  if (format !== 'markdown' && format !== 'text') throw new UsageError(`compare --format ${format}: expected "markdown" or "text"`);
  const [oldFile, newFile] = positionals as [string, string];
  // Streamed: only each cell's key and status are kept, so two files of hundreds of MB fit in a few dozen MB.
  const before = await readResultsDigest(resolve(io.cwd, oldFile), oldFile);
  const after = await readResultsDigest(resolve(io.cwd, newFile), newFile);
  const labels = { old: oldFile, new: newFile, command: 'compare' };
  const explicit = parsePairs(values.pair, 'compare');
  checkPairs(explicit, listResultTargets(before), listResultTargets(after), labels);
  const { comparison, changedCases, paired, setAside } = compareResults(before, after, oldFile, choosePairs(before, after, explicit, labels));
  if (paired === 0) throw describeUnpaired(listResultTargets(before), listResultTargets(after), labels);
  const notes: string[] = [];
  if (setAside.before.length + setAside.after.length > 0) {
    const sides = [...setAside.before.map((target) => `${target} of ${oldFile} (old)`), ...setAside.after.map((target) => `${target} of ${newFile} (new)`)];
    notes.push(`Not compared, each on the other side of a pair: ${sides.join('; ')}`);
  }
  if (changedCases.length > 0) notes.push(`${changedCases.length} case file(s) changed between the runs, so their cells compare different tests: ${changedCases.join(', ')}`);
  io.stdout(renderComparison(comparison, format as ComparisonFormat, notes));
  return comparison.regressions.length > 0 ? 1 : 0;
}
