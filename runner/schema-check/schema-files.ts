// Byte-level helpers for schema files: where the cache lives, hashing, verified reads and
// atomic writes. Nothing here decides the resolution order (see load-schemas.ts).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { SCHEMA_FILE_MAX_BYTES } from '../io/input-caps.js';
import { readUserFile, UserFileError } from '../io/read-user-file.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import type { SchemaPin } from './pins.js';
import { SchemaLoadError, SchemaMismatchError } from './schema-errors.js';

/** The cache folder: `$XDG_CACHE_HOME/mcp-error-matrix/schemas`, else `~/.cache/mcp-error-matrix/schemas`. */
export function getSchemaCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  // XDG Base Directory spec: a relative XDG_CACHE_HOME is invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME;
  const root = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache');
  return join(root, 'mcp-error-matrix', 'schemas');
}

/** Where pinned standalone validator code is cached (validator-code.ts): beside the schemas, where `verify` may read. */
export function getValidatorCodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(getSchemaCacheDir(env), 'validator-code');
}

/** Where a version's schema sits inside a `--schemas DIR` / `MCP_SCHEMAS_DIR` folder. */
export function getSchemaPathInDir(dir: string, version: ProtocolVersion): string {
  return join(dir, version, 'schema.json');
}

/** Where a pinned schema sits in the cache: keyed by commit, so a new pin never reuses old bytes. */
export function getCachedSchemaPath(cacheDir: string, pin: SchemaPin): string {
  return join(cacheDir, pin.commit, pin.version, 'schema.json');
}

/** Hex SHA-256 of some bytes. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Throws SchemaMismatchError unless the bytes are the pinned ones; `file` names them in the message. */
export function assertPinned(file: string, bytes: Uint8Array, pin: SchemaPin): string {
  const actual = hashBytes(bytes);
  if (actual !== pin.sha256) throw new SchemaMismatchError(file, pin.sha256, actual);
  return actual;
}

/** Parses verified schema bytes; the pinned files are JSON objects. */
export function parseSchemaBytes(file: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  } catch (error) {
    throw new SchemaLoadError('MEM_SCHEMA_UNREADABLE', `${file}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
}

/**
 * Reads a schema file (bounded, regular files only), or returns undefined when it does not exist.
 * Anything else (a FIFO, a device, over the cap, unreadable) is an input error.
 */
export async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await readUserFile(file, { maxBytes: SCHEMA_FILE_MAX_BYTES, what: 'schema file' });
  } catch (error) {
    if (error instanceof UserFileError && error.problem === 'missing') return undefined;
    const detail = error instanceof UserFileError ? error.detail : `cannot read (${(error as Error).message})`;
    throw new SchemaLoadError('MEM_SCHEMA_UNREADABLE', `${file}: ${detail}`, { cause: error });
  }
}

/** Writes bytes so that readers see the old file or the whole new one, never a partial file. */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
