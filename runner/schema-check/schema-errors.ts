// Errors raised while locating, downloading or verifying the pinned schemas. They are input
// errors (exit 2): each message names the file or URL, what was expected and how to fix it.
import { RunnerError } from '../errors.js';

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
