// `mcp-error-matrix verify <dir>`: recomputes every receipt of a report folder.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadVerifyKey } from '../../reports/receipts/index.js';
import { verifyReport } from '../../reports/receipts/index.js';
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { UsageError } from '../util/errors.js';
import { getSchemaPins } from '../schema-check/pins.js';
import { getSchemaCacheDir, getValidatorCodeCacheDir } from '../schema-check/schema-files.js';

export const VERIFY_USAGE = `Usage: mcp-error-matrix verify <report dir> [--root NAME=DIR]… [--allow DIR]… [--key PUB]
  Recomputes the SHA-256 of every input and output recorded in the folder's receipts and lists mismatches.
  Inputs are recorded relative to named roots (receipts.json "roots"): "report" is the report folder,
  "package" the mcp-error-matrix package (by default this tool's own: check a report against a checkout
  of the commit it records), and others such as "cases", "schemas", "baseline", "classifier",
  "command", "shard-1" where the user's files were. An input whose root is not found here, or is
  found only outside the folders verify may read (below), is NOT CHECKED (never a pass): give its
  folder with --root NAME=DIR. "schemas" falls back to
  MCP_SCHEMAS_DIR or the schema cache (the pinned schemas are the same files everywhere), and
  "validator-code" to your own validator code cache (pinned code; a run with schemas fills it).
  Only files inside the report folder, each --root, this tool's folder, the current folder, the schema
  cache, MCP_SCHEMAS_DIR and each --allow DIR are ever read.

  --root NAME=DIR  where the root NAME is on this machine (repeatable); --root DIR alone means package=DIR
  --allow DIR      one more folder a recorded input may be read from (repeatable)
  --key PUB        the Ed25519 public key (PEM) receipts.json must be signed with (run --sign KEY);
                   a missing or wrong signature is a mismatch

Receipts prove the files are unchanged since the run and which inputs produced them, not who produced
them: without --key, anyone can rewrite a report and its receipts.
Exit 0 when everything matches, 1 on any mismatch or input not checked, 2 on a usage error.
`;

/** Exit 0 when every recorded input and output still has its SHA-256, 1 on any mismatch or input not checked. */
export async function runVerifyCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseCommandFlags('verify', {
    args,
    options: { root: { type: 'string', multiple: true }, allow: { type: 'string', multiple: true }, key: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new UsageError('verify: expected one report folder, e.g. `mcp-error-matrix verify report`');
  const dir = resolve(io.cwd, positionals[0]!);
  if (!existsSync(dir)) throw new UsageError(`verify ${positionals[0]}: no such folder`);
  const roots = parseRoots(values.root ?? [], io.cwd);
  const publicKey = values.key === undefined ? undefined : await loadVerifyKey(resolve(io.cwd, values.key), '--key', values.key);
  const result = await verifyReport(dir, {
    roots,
    // The schemas are pinned by content: your own pinned copies stand in for the run's.
    // So is the validator code (named by its pinned SHA-256): any run of this version with schemas caches the same files.
    fallbackRoots: { schemas: getOwnSchemaDirs(io), 'validator-code': [getValidatorCodeCacheDir(io.env)] },
    ...(publicKey ? { publicKey } : {}),
    allowDirs: getDefaultAllowedDirs(io, values.allow ?? []),
  });
  for (const mismatch of result.mismatches) {
    io.stdout(`MISMATCH ${mismatch.path}: expected ${mismatch.expected}, found ${mismatch.actual}\n`);
  }
  for (const item of result.notChecked ?? []) io.stdout(`NOT CHECKED ${item.path}: ${item.reason}\n`);
  if (result.signature === 'valid') io.stdout(`SIGNED: receipts.json is signed by the --key key\n`);
  if (result.signature === 'unchecked') io.stdout(`NOTE: the receipts are signed, but no --key was given: the signature is not checked\n`);
  const notChecked = result.notChecked?.length ?? 0;
  const status = result.mismatches.length > 0 ? 'FAILED' : notChecked > 0 ? 'INCOMPLETE' : 'OK';
  io.stdout(
    `${status}: ${result.checked} files checked, ${result.mismatches.length} mismatch${result.mismatches.length === 1 ? '' : 'es'}${notChecked > 0 ? `, ${notChecked} not checked` : ''}\n`,
  );
  return result.ok ? 0 : 1;
}

/** `--root NAME=DIR` (repeatable); `--root DIR` alone is the "package" root (and the root of receipts@1). */
function parseRoots(values: string[], cwd: string): Record<string, string> {
  const roots: Record<string, string> = {};
  for (const value of values) {
    const named = /^([a-z][a-z0-9-]*)=(.+)$/.exec(value);
    const [name, dir] = named ? [named[1]!, named[2]!] : ['package', value];
    if (name === 'report' || name === 'absolute') throw new UsageError(`verify --root ${value}: "${name}" is not a root that can be moved (the report root is the report folder itself)`);
    if (Object.hasOwn(roots, name)) throw new UsageError(`verify --root ${value}: the root "${name}" is given twice; give each root once`);
    const absolute = resolve(cwd, dir);
    if (!existsSync(absolute)) throw new UsageError(`verify --root ${value}: no such folder ${absolute}`);
    roots[name] = absolute;
  }
  // receipts@1 called the package root "root".
  if (roots['package'] !== undefined && roots['root'] === undefined) roots['root'] = roots['package'];
  return roots;
}

/** Where this machine keeps the pinned schemas: MCP_SCHEMAS_DIR, then the cache folder of each pinned commit. */
function getOwnSchemaDirs(io: CliIo): string[] {
  const commits = new Set(Object.values(getSchemaPins()).map((pin) => pin.commit));
  return [...(io.env.MCP_SCHEMAS_DIR ? [resolve(io.cwd, io.env.MCP_SCHEMAS_DIR)] : []), ...[...commits].map((commit) => join(getSchemaCacheDir(io.env), commit))];
}

/**
 * Where a receipt's file may be read besides the report folder, each --root and the tool's own folder:
 * the current folder (shard results, your classifier), the schema cache and MCP_SCHEMAS_DIR, and
 * every --allow DIR. The current folder counts only when it is not `/` or the home folder, so
 * receipts naming /etc/shadow or ~/.ssh are never hashed unless asked for.
 */
function getDefaultAllowedDirs(io: CliIo, allow: string[]): string[] {
  const env = io.env;
  const cwd = resolve(io.cwd);
  const home = resolve(env.HOME || homedir());
  return [
    ...(cwd === resolve('/') || cwd === home ? [] : [cwd]),
    getSchemaCacheDir(env),
    ...(env.MCP_SCHEMAS_DIR ? [resolve(io.cwd, env.MCP_SCHEMAS_DIR)] : []),
    ...allow.map((dir) => resolve(io.cwd, dir)),
  ];
}
