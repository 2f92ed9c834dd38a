// One Ajv (draft 2020-12 + formats) per protocol version, holding that version's official
// schema; a validator per definition is compiled on first use and kept for the run.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../types.js';
import { capErrors, formatAjvErrors } from './format-errors.js';
import type { LoadedSchemas } from './load-schemas.js';
import { checkRequestMessage, checkResponseMessage, type MessageCheck } from './message-checks.js';
import { detectAndValidate, type DetectOptions, type DetectResult } from './detect.js';
import { RunnerError } from '../errors.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
// At runtime module.exports is the plugin and also carries it as `.default`.
const addFormats = (addFormatsModule as unknown as { default: FormatsPlugin }).default;

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
      instance = createVersionInstance(loaded.schema);
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

function createVersionInstance(schema: unknown): VersionInstance {
  const defs = getDefs(schema);
  // strict: false because the upstream schema uses union types (RequestId) and annotation-only
  // keywords that strict mode rejects; verbose: true gives errors their data for format-errors.ts.
  // validateSchema: false because the bytes are SHA-256-pinned (load-schemas.ts): checking them
  // against the draft 2020-12 meta-schema compiled that meta-schema and cost about 1 s per run.
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(schema as object, SCHEMA_KEY);
  const compiled = new Map<string, ValidateFunction>();
  const run = (definition: string, value: unknown): ErrorObject[] | null => {
    let validate = compiled.get(definition);
    if (!validate) {
      validate = ajv.getSchema(`${SCHEMA_KEY}#/$defs/${definition}`);
      if (!validate) throw new Error(`ajv could not resolve #/$defs/${definition}`);
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
