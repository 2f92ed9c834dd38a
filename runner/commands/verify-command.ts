// `mcp-error-matrix verify <dir>`: recomputes every receipt of a report folder.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { verifyReport } from '../../reports/verify.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandFlags } from '../command-flags.js';
import { UsageError } from '../errors.js';
import { getSchemaCacheDir } from '../schema-check/schema-files.js';

export const VERIFY_USAGE = `Usage: mcp-error-matrix verify <report dir> [--root DIR] [--allow DIR]…
  Recomputes the SHA-256 of every input and output recorded in the folder's receipts and lists mismatches.
  Only files inside the report folder, the root, this tool's folder, the current folder, the schema
  cache, MCP_SCHEMAS_DIR and each --allow DIR are ever read.

  --root DIR    the folder the recorded input paths are relative to (default: the one the receipts record)
  --allow DIR   one more folder a recorded input may be read from (repeatable)

Exit 0 when everything matches, 1 on any mismatch, 2 on a usage error.
`;

/** Exit 0 when every recorded input and output still has its SHA-256, 1 on any mismatch. */
export async function runVerifyCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseCommandFlags('verify', { args, options: { root: { type: 'string' }, allow: { type: 'string', multiple: true } }, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError('verify: expected one report folder, e.g. `mcp-error-matrix verify report`');
  const dir = resolve(io.cwd, positionals[0]!);
  if (!existsSync(dir)) throw new UsageError(`verify ${positionals[0]}: no such folder`);
  const result = await verifyReport(dir, {
    ...(values.root ? { rootDir: resolve(io.cwd, values.root) } : {}),
    allowDirs: getDefaultAllowedDirs(io, values.allow ?? []),
  });
  for (const mismatch of result.mismatches) {
    io.stdout(`MISMATCH ${mismatch.path}: expected ${mismatch.expected}, found ${mismatch.actual}\n`);
  }
  io.stdout(`${result.ok ? 'OK' : 'FAILED'}: ${result.checked} files checked, ${result.mismatches.length} mismatch${result.mismatches.length === 1 ? '' : 'es'}\n`);
  return result.ok ? 0 : 1;
}

/**
 * Where a receipt's file may be read besides the report folder, --root and the tool's own folder:
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
