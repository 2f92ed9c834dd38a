// The pins file (schemas/pins.json): which upstream bytes each protocol version is checked against.
import { readFileSync } from 'node:fs';
import { packagePath } from '../util/package-paths.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../vocabulary/types.js';
import { SchemaLoadError } from './schema-errors.js';

export interface SchemaPin {
  version: ProtocolVersion;
  /** Raw URL of `schema/<version>/schema.json` at the pinned commit. */
  url: string;
  commit: string;
  sha256: string;
  bytes: number;
}

export type SchemaPins = Record<ProtocolVersion, SchemaPin>;

const cache = new Map<string, SchemaPins>();

/** Reads and checks schemas/pins.json (once per process). */
export function getSchemaPins(file = packagePath('schemas', 'pins.json')): SchemaPins {
  const known = cache.get(file);
  if (known) return known;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SchemaLoadError('MEM_SCHEMA_PINS', `${file}: cannot read the schema pins (${describe(error)})`, { cause: error });
  }
  const pins = parsePins(file, document);
  cache.set(file, pins);
  return pins;
}

function parsePins(file: string, document: unknown): SchemaPins {
  const versions = isRecord(document) && isRecord(document.versions) ? document.versions : undefined;
  const result: Partial<SchemaPins> = {};
  for (const version of PROTOCOL_VERSIONS) {
    const entry = versions?.[version];
    if (
      !isRecord(entry) ||
      typeof entry.url !== 'string' ||
      typeof entry.commit !== 'string' ||
      typeof entry.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(entry.sha256) ||
      typeof entry.bytes !== 'number'
    ) {
      throw new SchemaLoadError('MEM_SCHEMA_PINS', `${file}: versions.${version} must have url, commit, sha256 (64 hex digits) and bytes`);
    }
    result[version] = { version, url: entry.url, commit: entry.commit, sha256: entry.sha256, bytes: entry.bytes };
  }
  return result as SchemaPins;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
