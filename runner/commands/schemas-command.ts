// `mcp-error-matrix schemas` (where each pinned schema is found and whether it matches its
// pin) and `schemas fetch [--from DIR]` (fill the user cache, verified).
import { resolve } from 'node:path';
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { UsageError } from '../util/errors.js';
import { downloadPinnedSchema, getDownloadUrl } from '../schema-check/download-schema.js';
import { getExplicitDir, resolveSchema } from '../schema-check/load-schemas.js';
import { getSchemaPins, type SchemaPin } from '../schema-check/pins.js';
import { SchemaLoadError, SchemaMismatchError } from '../schema-check/schema-errors.js';
import {
  assertPinned,
  getCachedSchemaPath,
  getSchemaCacheDir,
  getSchemaPathInDir,
  hashBytes,
  readIfExists,
  writeFileAtomic,
} from '../schema-check/schema-files.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';

export const SCHEMAS_USAGE = `Usage:
  mcp-error-matrix schemas [--schemas DIR]     show where each pinned schema is found and whether it matches its pin
  mcp-error-matrix schemas fetch [--from DIR]  fill the user cache (download, or import verified files from DIR)

  --schemas DIR   a folder holding <version>/schema.json (else MCP_SCHEMAS_DIR, else the user cache)
  --from DIR      with fetch: import the files from DIR (verified against the pins) instead of downloading

Exit 0 when every pinned schema is usable, 2 when one is missing or does not match its pin, or on a usage error.
`;

/** The `schemas` command: status by default, `fetch` to fill the cache. Exit 0 ok, 2 missing/mismatch/usage. */
export async function runSchemasCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandFlags('schemas', { args, allowPositionals: true, options: { schemas: { type: 'string' }, from: { type: 'string' } } });
  const [sub, ...rest] = positionals;
  if (rest.length > 0 || (sub !== undefined && sub !== 'fetch')) {
    throw new UsageError(`schemas: unexpected argument ${JSON.stringify(sub === 'fetch' ? rest[0] : sub)}\n${SCHEMAS_USAGE}`);
  }
  const schemasDir = values.schemas === undefined ? undefined : resolve(io.cwd, values.schemas);
  if (sub === 'fetch') {
    if (schemasDir) throw new UsageError('schemas fetch: use --from DIR to import files (--schemas only chooses where to read them from)');
    return fetchIntoCache(io, values.from === undefined ? undefined : resolve(io.cwd, values.from));
  }
  if (values.from) throw new UsageError('schemas: --from only applies to `schemas fetch`');
  return showSchemas(io, schemasDir);
}

async function showSchemas(io: CliIo, schemasDir: string | undefined): Promise<number> {
  const env = io.env;
  const cacheDir = io.schemaCacheDir ?? getSchemaCacheDir(env);
  const explicit = getExplicitDir(schemasDir, env);
  const pins = getSchemaPins();
  let ok = true;
  io.stdout(`Pinned: ${pins[PROTOCOL_VERSIONS[0]].url.replace(/\/schema\/[^/]+\/schema\.json$/, '')}\n`);
  io.stdout(`Cache:  ${cacheDir}\n`);
  for (const version of PROTOCOL_VERSIONS) {
    const pin = pins[version];
    try {
      const loaded = await resolveSchema(version, { schemasDir, env, cacheDir, download: false });
      io.stdout(`${version}  from ${explicit?.label ?? 'the cache'}\n  path    ${loaded.path}\n  sha256  ${loaded.sha256} (matches the pin)\n`);
    } catch (error) {
      if (!(error instanceof SchemaLoadError)) throw error;
      ok = false;
      if (error instanceof SchemaMismatchError) {
        io.stdout(`${version}  MISMATCH\n  path    ${error.file}\n  sha256  ${error.actual}\n  pinned  ${error.expected}\n`);
      } else {
        const path = explicit ? getSchemaPathInDir(explicit.dir, version) : getCachedSchemaPath(cacheDir, pin);
        io.stdout(`${version}  NOT FOUND\n  looked  ${path}${explicit ? ` (${explicit.label})` : ''}\n  pinned  ${pin.sha256}\n`);
      }
    }
  }
  if (!ok) {
    io.stderr('mcp-error-matrix schemas: not every pinned schema is usable. Pass --schemas DIR (or set MCP_SCHEMAS_DIR) to a folder ' +
      'holding <version>/schema.json, or run `mcp-error-matrix schemas fetch` with network access.\n');
  }
  return ok ? 0 : 2;
}

async function fetchIntoCache(io: CliIo, fromDir: string | undefined): Promise<number> {
  const env = io.env;
  const cacheDir = io.schemaCacheDir ?? getSchemaCacheDir(env);
  for (const version of PROTOCOL_VERSIONS) {
    const pin = getSchemaPins()[version];
    const target = getCachedSchemaPath(cacheDir, pin);
    io.stdout(`${version}  ${await fetchOne(pin, target, fromDir, io)}\n`);
  }
  return 0;
}

async function fetchOne(pin: SchemaPin, target: string, fromDir: string | undefined, io: CliIo): Promise<string> {
  const present = await readIfExists(target);
  const presentOk = present !== undefined && hashBytes(present) === pin.sha256;
  if (fromDir) {
    const source = getSchemaPathInDir(fromDir, pin.version);
    const bytes = await readIfExists(source);
    if (!bytes) throw new SchemaLoadError('MEM_SCHEMA_NOT_FOUND', `${source}: not found (--from ${fromDir} must hold <version>/schema.json)`);
    assertPinned(source, bytes, pin);
    if (!presentOk) await writeFileAtomic(target, bytes);
    return `${presentOk ? 'already cached' : 'imported'}: ${source} -> ${target}`;
  }
  if (presentOk) return `already cached: ${target}`;
  const bytes = await downloadPinnedSchema(pin, io.schemaDownload);
  await writeFileAtomic(target, bytes);
  return `${present ? 'replaced a corrupt cache file' : 'downloaded'}: ${getDownloadUrl(pin, io.schemaDownload?.baseUrlOverride)} -> ${target}`;
}
