// Resolves the pinned official schemas: `--schemas DIR`, then MCP_SCHEMAS_DIR, then the user
// cache, then a one-time download into the cache. Every load is checked against its pin.
import { PROTOCOL_VERSIONS, type ProtocolVersion, type SchemaInfo } from '../vocabulary/types.js';
import { downloadPinnedSchema, getDownloadUrl, type DownloadOptions } from './download-schema.js';
import { getSchemaPins, type SchemaPin } from './pins.js';
import { SchemaLoadError, SchemaUnavailableError } from './schema-errors.js';
import {
  assertPinned,
  getCachedSchemaPath,
  getSchemaCacheDir,
  getSchemaPathInDir,
  parseSchemaBytes,
  readIfExists,
  writeFileAtomic,
} from './schema-files.js';

export type SchemaSource = 'flag' | 'env' | 'cache' | 'download';

export interface LoadedSchema {
  version: ProtocolVersion;
  source: SchemaSource;
  /** The file read, or for a download the cache file written (the URL if the cache was not writable). */
  path: string;
  sha256: string;
  /** Always true for a loaded schema: a mismatch is refused. Kept so reports can state it. */
  matchesPin: boolean;
  pin: SchemaPin;
  /** The parsed schema.json. */
  schema: unknown;
  /** Something the user may want to know, e.g. the cache could not be written. */
  note?: string;
}

export type LoadedSchemas = Partial<Record<ProtocolVersion, LoadedSchema>>;

export interface ResolveSchemasOptions extends DownloadOptions {
  /** `--schemas DIR`: a folder holding `<version>/schema.json`. */
  schemasDir?: string;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** @default getSchemaCacheDir(env) */
  cacheDir?: string;
  /** Download into the cache when nothing else has the schema. @default true */
  download?: boolean;
  /** @default every protocol version */
  versions?: readonly ProtocolVersion[];
}

/** Loads and verifies the pinned schema of each requested version (throws SchemaLoadError). */
export async function resolveSchemas(options: ResolveSchemasOptions = {}): Promise<LoadedSchemas> {
  const versions = options.versions ?? PROTOCOL_VERSIONS;
  const settled = await Promise.allSettled(versions.map((version) => resolveSchema(version, options)));
  const failures = settled.flatMap((item) => (item.status === 'rejected' ? [item.reason as unknown] : []));
  // Any other failure (a mismatch, an unreadable file) is the one to fix first.
  const other = failures.find((error) => !(error instanceof SchemaUnavailableError));
  if (other !== undefined) throw other;
  if (failures.length > 0) {
    const unavailable = failures as SchemaUnavailableError[];
    throw new SchemaUnavailableError(
      unavailable.flatMap((error) => error.missing),
      { cause: unavailable[0]!.cause },
    );
  }
  const loaded = settled.map((item) => (item as PromiseFulfilledResult<LoadedSchema>).value);
  return Object.fromEntries(loaded.map((schema) => [schema.version, schema])) as LoadedSchemas;
}

/** Loads and verifies one version's pinned schema, following the resolution order. */
export async function resolveSchema(version: ProtocolVersion, options: ResolveSchemasOptions = {}): Promise<LoadedSchema> {
  const pin = getSchemaPins()[version];
  const env = options.env ?? process.env;
  const explicit = getExplicitDir(options.schemasDir, env);
  if (explicit) return loadFromExplicitDir(pin, explicit);

  const cacheFile = getCachedSchemaPath(options.cacheDir ?? getSchemaCacheDir(env), pin);
  const cached = await readIfExists(cacheFile);
  if (cached) return makeLoaded(pin, 'cache', cacheFile, cached);

  if (options.download === false) throw makeUnavailableError(pin, cacheFile, 'downloading is off');
  let bytes: Buffer;
  try {
    bytes = await downloadPinnedSchema(pin, options);
  } catch (error) {
    if (error instanceof SchemaLoadError && error.code === 'MEM_SCHEMA_UNAVAILABLE') {
      throw makeUnavailableError(pin, cacheFile, error.message, error);
    }
    throw error;
  }
  try {
    await writeFileAtomic(cacheFile, bytes);
  } catch (error) {
    const note = `downloaded, but the cache file ${cacheFile} could not be written (${(error as Error).message})`;
    return { ...makeLoaded(pin, 'download', getDownloadUrl(pin, options.baseUrlOverride), bytes), note };
  }
  return makeLoaded(pin, 'download', cacheFile, bytes);
}

/** The folder named by --schemas (first) or MCP_SCHEMAS_DIR, with the source it came from. */
export function getExplicitDir(
  schemasDir: string | undefined,
  env: NodeJS.ProcessEnv,
): { source: 'flag' | 'env'; dir: string; label: string } | undefined {
  if (schemasDir) return { source: 'flag', dir: schemasDir, label: `--schemas ${schemasDir}` };
  const fromEnv = env.MCP_SCHEMAS_DIR;
  if (fromEnv) return { source: 'env', dir: fromEnv, label: `MCP_SCHEMAS_DIR=${fromEnv}` };
  return undefined;
}

/** The run-level summary of the loaded schemas, as RunResult.schemas carries it. */
export function toSchemaInfo(schemas: LoadedSchemas): SchemaInfo[] {
  return PROTOCOL_VERSIONS.flatMap((version) => {
    const loaded = schemas[version];
    return loaded ? [{ version, source: `${loaded.source}:${loaded.path}`, sha256: loaded.sha256, matchesPin: loaded.matchesPin }] : [];
  });
}

// A folder the user named must hold the file: silently falling back to the cache would hide a typo.
async function loadFromExplicitDir(pin: SchemaPin, explicit: NonNullable<ReturnType<typeof getExplicitDir>>): Promise<LoadedSchema> {
  const file = getSchemaPathInDir(explicit.dir, pin.version);
  const bytes = await readIfExists(file);
  if (!bytes) {
    throw new SchemaLoadError(
      'MEM_SCHEMA_NOT_FOUND',
      `${file}: not found. ${explicit.label} must be a folder holding <version>/schema.json for ` +
        `${PROTOCOL_VERSIONS.slice(0, -1).join(', ')} and ${PROTOCOL_VERSIONS.at(-1)} (the pinned files from ${pin.url.replace(pin.version, '<version>')}).`,
    );
  }
  return makeLoaded(pin, explicit.source, file, bytes);
}

function makeLoaded(pin: SchemaPin, source: SchemaSource, path: string, bytes: Buffer): LoadedSchema {
  const sha256 = assertPinned(path, bytes, pin);
  return { version: pin.version, source, path, sha256, matchesPin: true, pin, schema: parseSchemaBytes(path, bytes) };
}

function makeUnavailableError(pin: SchemaPin, cacheFile: string, why: string, cause?: unknown): SchemaUnavailableError {
  return new SchemaUnavailableError([{ version: pin.version, sha256: pin.sha256, cacheFile, why }], { cause });
}
