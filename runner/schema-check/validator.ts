// One Ajv (draft 2020-12 + formats) per protocol version, holding that version's official
// schema; a validator per definition is compiled on first use and kept for the run.
import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv2020Class, ErrorObject } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../types.js';
import { capErrors, formatAjvErrors } from './format-errors.js';
import type { LoadedSchemas } from './load-schemas.js';
import { checkRequestMessage, checkResponseMessage, type MessageCheck } from './message-checks.js';
import { detectAndValidate, type DetectOptions, type DetectResult } from './detect.js';
import { RunnerError } from '../errors.js';
import { getFormatsCode, getValidatorCacheDir, readCachedValidator, writeCachedValidator, type CachedValidate } from './validator-cache.js';

// ajv and ajv-formats (CommonJS) are required when a definition is first compiled: with the
// compiled-code cache warm, a run never loads them.
const require = createRequire(import.meta.url);

/** The name the schema is registered under inside each Ajv instance. */
const SCHEMA_KEY = 'mcp-schema.json';

export interface DefinitionResult {
  valid: boolean;
  /** Short lines like `/result/content: must be array`, at most `maxErrors`. */
  errors: string[];
}

export interface SchemaValidator {
  /** The versions whose schema was loaded. */
  readonly versions: readonly ProtocolVersion[];
  hasDefinition(version: ProtocolVersion, definition: string): boolean;
  listDefinitions(version: ProtocolVersion): string[];
  /** The raw `$defs` entry, or undefined. */
  getDefinitionSchema(version: ProtocolVersion, definition: string): unknown;
  /** Validates a value against `#/$defs/<definition>`; an unknown definition throws SchemaDefinitionError. */
  validateDefinition(version: ProtocolVersion, definition: string, value: unknown): DefinitionResult;
  /** Checks a tools/call response (result or JSON-RPC error), dispatching on resultType first. */
  checkResponseMessage(version: ProtocolVersion, message: unknown): MessageCheck;
  /** Checks a request or notification a client sent (tools/call, its MRTR follow-up, initialize, ...). */
  checkRequestMessage(version: ProtocolVersion, message: unknown): MessageCheck;
  /** Detects request vs response and checks it under one or all loaded versions. */
  detectAndValidate(message: unknown, options?: DetectOptions): DetectResult;
}

export interface SchemaValidatorOptions {
  /** @default 8 */
  maxErrors?: number;
  /** A folder for compiled validators (see validator-cache.ts); without it every run compiles. */
  codeCacheDir?: string;
}

/** A definition name that the version's schema does not have. */
export class SchemaDefinitionError extends RunnerError {
  constructor(versions: string, definition: string, known: string[]) {
    const near = suggest(definition, known);
    super('MEM_SCHEMA_DEFINITION', `--def ${definition}: no such definition in the ${versions} schema${near ? `; did you mean ${near}?` : ''}`);
  }
}

/** Builds the validator over the loaded schemas (compiles nothing until a definition is used). */
export function createSchemaValidator(schemas: LoadedSchemas, options: SchemaValidatorOptions = {}): SchemaValidator {
  const maxErrors = options.maxErrors ?? 8;
  const versions = PROTOCOL_VERSIONS.filter((v) => schemas[v] !== undefined);
  const instances = new Map<ProtocolVersion, VersionInstance>();

  const getInstance = (version: ProtocolVersion): VersionInstance => {
    let instance = instances.get(version);
    if (!instance) {
      const loaded = schemas[version];
      if (!loaded) throw new RunnerError('MEM_SCHEMA_VERSION', `--version ${version}: the ${version} schema was not loaded`);
      instance = createVersionInstance(loaded.schema, options.codeCacheDir === undefined ? undefined : getValidatorCacheDir(options.codeCacheDir, loaded.sha256, AJV_OPTIONS));
      instances.set(version, instance);
    }
    return instance;
  };

  const validator: SchemaValidator = {
    versions,
    hasDefinition: (version, definition) => Object.hasOwn(getInstance(version).defs, definition),
    listDefinitions: (version) => Object.keys(getInstance(version).defs).sort(),
    getDefinitionSchema: (version, definition) => {
      const defs = getInstance(version).defs;
      return Object.hasOwn(defs, definition) ? defs[definition] : undefined;
    },
    validateDefinition(version, definition, value) {
      const instance = getInstance(version);
      if (!Object.hasOwn(instance.defs, definition)) throw new SchemaDefinitionError(version, definition, Object.keys(instance.defs));
      const errors = instance.run(definition, value);
      if (!errors) return { valid: true, errors: [] };
      return { valid: false, errors: capErrors(formatAjvErrors(errors, instance.defs, instance.run), maxErrors) };
    },
    checkResponseMessage: (version, message) => checkResponseMessage(validator, version, message),
    checkRequestMessage: (version, message) => checkRequestMessage(validator, version, message),
    detectAndValidate: (message, detectOptions) => detectAndValidate(validator, message, detectOptions),
  };
  return validator;
}

interface VersionInstance {
  defs: Record<string, unknown>;
  /** Validates against a definition; the raw errors, or null when valid. */
  run(definition: string, value: unknown): ErrorObject[] | null;
}

// strict: false because the upstream schema uses union types (RequestId) and annotation-only
// keywords that strict mode rejects; verbose: true gives errors their data for format-errors.ts.
// validateSchema: false because the bytes are SHA-256-pinned (load-schemas.ts): checking them
// against the draft 2020-12 meta-schema compiled that meta-schema and cost about 1 s per run.
const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;

function createVersionInstance(schema: unknown, cacheDir: string | undefined): VersionInstance {
  const defs = getDefs(schema);
  let ajv: Ajv2020Class | undefined;
  const getAjv = (): Ajv2020Class => {
    if (ajv) return ajv;
    const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020Class };
    // With a cache, ajv keeps each function's source for standalone code; formats are then named
    // by a require() the generated file can run.
    ajv = new Ajv2020({ ...AJV_OPTIONS, ...(cacheDir === undefined ? {} : { code: { source: true, formats: getFormatsCode() as never } }) });
    (require('ajv-formats') as FormatsPlugin)(ajv);
    ajv.addSchema(schema as object, SCHEMA_KEY);
    return ajv;
  };
  const compiled = new Map<string, CachedValidate>();
  const run = (definition: string, value: unknown): ErrorObject[] | null => {
    let validate = compiled.get(definition);
    if (!validate) {
      validate = cacheDir === undefined ? undefined : readCachedValidator(cacheDir, definition);
      if (!validate) {
        const fresh = getAjv().getSchema(`${SCHEMA_KEY}#/$defs/${definition}`);
        if (!fresh) throw new Error(`ajv could not resolve #/$defs/${definition}`);
        if (cacheDir !== undefined) writeCachedValidator(cacheDir, definition, getAjv(), fresh);
        validate = fresh;
      }
      compiled.set(definition, validate);
    }
    return validate(value) ? null : [...(validate.errors ?? [])];
  };
  return { defs, run };
}

function getDefs(schema: unknown): Record<string, unknown> {
  const defs = typeof schema === 'object' && schema !== null ? (schema as { $defs?: unknown }).$defs : undefined;
  if (typeof defs !== 'object' || defs === null) throw new Error('schema.json has no $defs');
  return defs as Record<string, unknown>;
}

function suggest(name: string, known: string[]): string | undefined {
  const lower = name.toLowerCase();
  const exact = known.find((k) => k.toLowerCase() === lower);
  if (exact) return exact;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= 3 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
