// `mcp-error-matrix merge <shard dirs…> --out DIR`: one report (every format, receipts) from the
// report folders of `run --shard i/n`. Exit like `run`: 0, 1 on unexpected failures, 2 on bad shards.
import type { KeyObject } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkReportFolder } from '../../reports/report-folder/index.js';
import { FULL_RESULTS_FILE } from '../../reports/formats/index.js';
import { RECEIPTS_FILE, type ReceiptInput, type ReceiptRootOption } from '../../reports/receipts/index.js';
import type { HeldReportFolder } from '../../reports/report-folder/index.js';
import { holdReportFolder } from '../../reports/report-folder/index.js';
import { loadSigningKey, loadVerifyKey } from '../../reports/receipts/index.js';
import { writeRunReports } from '../../reports/write-run-reports.js';
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { readResultsFile } from '../compare/results-file.js';
import { UsageError } from '../util/errors.js';
import { getPackageRoot } from '../util/package-paths.js';
import { describeWhatRan } from '../run/describe-what-ran.js';
import { mergeShardResults, type ShardInput } from '../shard/merge-results.js';
import { verifyShardFolder } from '../shard/verify-shard.js';
import { describeUnmeasured, hasUnexpected } from './run-exit.js';

export const MERGE_USAGE = `Usage: mcp-error-matrix merge <shard report dirs…> --out DIR [--key PUB] [--sign KEY] [--quiet]
  Combines the report folders of \`run --shard i/n\` into one report (every format, receipts).
  Each shard folder must verify against its own receipts first (its files unchanged, nothing added);
  one that does not is refused, by name, and nothing is merged.

  --out DIR     where the merged report goes (required)
  --key PUB     every shard's receipts must be signed with this Ed25519 public key (PEM; \`run --sign\`)
  --sign KEY    sign the merged receipts.json with this Ed25519 private key (PEM), as \`run --sign\`;
                without --key the shards are checked against their receipts, not for who wrote them
  --quiet, -q   no summary on stderr

Exit like run: 0 nothing unexpected, 1 unexpected failures, 2 on missing, inconsistent or unverified shards.
`;

/** Runs the `merge` command; returns the exit code. */
export async function runMergeCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseCommandFlags('merge', {
    args,
    options: { out: { type: 'string' }, sign: { type: 'string' }, key: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } },
    allowPositionals: true,
  });
  if (positionals.length === 0) throw new UsageError('merge: expected the report folders of every shard, e.g. `mcp-error-matrix merge shard-1 shard-2 --out report`');
  if (values.out === undefined) throw new UsageError('merge: --out DIR is required (where the merged report goes)');
  // Refused before reading the shards, like `run` refuses it before running.
  const outFolder = { cwd: io.cwd, home: io.env['HOME'], shownAs: values.out };
  await checkReportFolder(values.out, outFolder);
  const signer = values.sign === undefined ? undefined : await loadSigningKey(resolve(io.cwd, values.sign), '--sign', values.sign);
  const publicKey = values.key === undefined ? undefined : await loadVerifyKey(resolve(io.cwd, values.key), '--key', values.key);
  const held = await holdReportFolder(values.out, outFolder);
  try {
    return await mergeShards(positionals, { io, signer, publicKey, quiet: values.quiet ?? false, out: values.out, outFolder: { ...outFolder, held } });
  } finally {
    await held.release();
  }
}

interface MergeOptions {
  io: CliIo;
  signer: Awaited<ReturnType<typeof loadSigningKey>> | undefined;
  publicKey: KeyObject | undefined;
  quiet: boolean;
  out: string;
  outFolder: { cwd: string; home: string | undefined; shownAs: string; held: HeldReportFolder };
}

async function mergeShards(positionals: string[], options: MergeOptions): Promise<number> {
  const { io, signer, publicKey, outFolder } = options;
  const shards: ShardInput[] = [];
  const unsignedChecked: string[] = [];
  const inputs: ReceiptInput[] = [];
  // Each shard folder is a root of its own, so the merged report verifies wherever the shards are put.
  const roots: Record<string, ReceiptRootOption> = {};
  for (const [index, given] of positionals.entries()) {
    const path = resolve(io.cwd, given);
    const isDir = existsSync(path) && statSync(path).isDirectory();
    const file = isDir ? join(path, 'results.json') : path;
    const shownAs = isDir ? join(given, 'results.json') : given;
    // A shard that does not verify against its own receipts (and key) is refused before it is read;
    // something that is not a regular file (a FIFO, a device) is refused by the reader, naming what it is.
    if (isRegularFile(file)) {
      const verified = await verifyShardFolder(dirname(file), isDir ? given : dirname(given), publicKey ? { publicKey } : {});
      if (verified.signed && !publicKey) unsignedChecked.push(isDir ? given : dirname(given));
    }
    const result = await readResultsFile(file, shownAs);
    shards.push({ file: shownAs, result });
    const label = `shard ${result.shard?.index ?? '?'}/${result.shard?.count ?? '?'}`;
    const root = `shard-${index + 1}`;
    roots[root] = { dir: dirname(file), what: `the report folder of the shard given as ${given.slice(0, 200)}` };
    inputs.push({ kind: 'shard', path: file, label, root });
    // A shard's results.json (results@2) was read with its evidence file: both are inputs.
    const evidence = join(dirname(file), FULL_RESULTS_FILE);
    if (existsSync(evidence)) inputs.push({ kind: 'shard-evidence', path: evidence, label, root });
    const receipts = join(dirname(file), RECEIPTS_FILE);
    if (existsSync(receipts)) inputs.push({ kind: 'shard-receipts', path: receipts, label, root });
  }
  const merged = mergeShardResults(shards);
  // The shards' own receipts say what ran in each; this names the merging tool and the targets.
  const ran = await describeWhatRan(merged.targets.map(({ source: _source, ...target }) => target));
  const files = await writeRunReports(options.out, merged, { inputs, roots, ran, rootDir: getPackageRoot(), ...(signer ? { signer } : {}), ...outFolder });
  if (!options.quiet) {
    const s = merged.summary;
    io.stderr(`Merged ${shards.length} shards, each verified against its own receipts${publicKey ? ' and signed by the --key key' : ''}: ${s.total} cells: ${s.pass} pass, ${s.fail} fail, ${s.non_strict} non_strict, ${s.skip} skip, ${s.error} error, ${s.xfail} xfail, ${s.xpass} xpass\n`);
    if (unsignedChecked.length > 0) io.stderr(`NOTE: ${unsignedChecked.join(', ')} ${unsignedChecked.length === 1 ? 'is' : 'are'} signed, but no --key was given: the signatures were not checked\n`);
    io.stderr(`Reports written to ${options.out}/: ${files.join(', ')}\n`);
  }
  for (const line of describeUnmeasured(merged)) io.stderr(`${line}\n`);
  return hasUnexpected(merged) ? 1 : 0;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
