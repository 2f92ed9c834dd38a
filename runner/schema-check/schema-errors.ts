// Errors raised while locating, downloading or verifying the pinned schemas. They are input
// errors (exit 2): each message names the file or URL, what was expected and how to fix it.
import { RunnerError } from '../util/errors.js';

export const SCHEMA_ERROR_CODES = [
  /** The bytes found differ from the pin. */
  'MEM_SCHEMA_MISMATCH',
  /** A directory given with --schemas or MCP_SCHEMAS_DIR lacks a version's schema.json. */
  'MEM_SCHEMA_NOT_FOUND',
  /** Nothing given, nothing cached, and the download was off or failed. */
  'MEM_SCHEMA_UNAVAILABLE',
  /** The file was found but is not readable JSON. */
  'MEM_SCHEMA_UNREADABLE',
  /** schemas/pins.json itself is missing or malformed (a packaging bug). */
  'MEM_SCHEMA_PINS',
] as const;
export type SchemaErrorCode = (typeof SCHEMA_ERROR_CODES)[number];

/** A pinned schema could not be loaded; `code` says why. */
export class SchemaLoadError extends RunnerError {
  declare readonly code: SchemaErrorCode;

  constructor(code: SchemaErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** One version that no source had: the cache file looked at and why the download did not help. */
export interface MissingSchema {
  version: string;
  sha256: string;
  cacheFile: string;
  why: string;
}

/**
 * No source had the pinned schema of one or more versions. The message names every missing
 * version and every remedy, so one failed run says all there is to fix.
 */
export class SchemaUnavailableError extends SchemaLoadError {
  constructor(
    readonly missing: readonly MissingSchema[],
    options?: { cause?: unknown },
  ) {
    const versions = missing.map((item) => item.version);
    super(
      'MEM_SCHEMA_UNAVAILABLE',
      `The pinned ${listInProse(versions)} schema${versions.length > 1 ? 's are' : ' is'} not available: ` +
        'no --schemas DIR or MCP_SCHEMAS_DIR was given, and\n' +
        missing.map((item) => `  - ${item.version}: ${item.cacheFile} does not exist, and ${item.why}\n`).join('') +
        'Any one of these fixes it:\n' +
        `  - pass --schemas DIR, or set MCP_SCHEMAS_DIR=DIR, where DIR holds <version>/schema.json (${missing
          .map((item) => `${item.version} with SHA-256 ${item.sha256}`)
          .join('; ')});\n` +
        '  - copy such a folder into the cache once: `mcp-error-matrix schemas fetch --from DIR`;\n' +
        '  - download them into the cache once, with network access: `mcp-error-matrix schemas fetch`;\n' +
        '  - run without schema checks: --no-schemas (every report then says the messages were not checked).',
      options,
    );
  }
}

/** A schema file whose SHA-256 differs from its pin. */
export class SchemaMismatchError extends SchemaLoadError {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      'MEM_SCHEMA_MISMATCH',
      `${file}: SHA-256 ${actual} does not match the pinned ${expected}. ` +
        'The file is not the pinned official schema (edited, truncated or another revision); ' +
        'replace it with the pinned bytes or run `mcp-error-matrix schemas fetch`.',
    );
  }
}

/** "a", "a and b", "a, b and c". */
function listInProse(items: readonly string[]): string {
  return items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
