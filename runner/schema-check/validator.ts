// One Ajv (+ formats) per protocol version, holding that version's official schema: the class
// follows the schema's `$schema` (draft-07 for 2025-03-26/2025-06-18 with `definitions`, draft
// 2020-12 from 2025-11-25 with `$defs`); a validator per definition is compiled on first use.
import { Ajv as AjvDraft07 } from 'ajv';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../types.js';
import { capErrors, formatAjvErrors } from './format-errors.js';
import type { LoadedSchemas } from './load-schemas.js';
import { checkRequestMessage, checkResponseMessage, type MessageCheck } from './message-checks.js';
import { detectAndValidate, type DetectOptions, type DetectResult } from './detect.js';
import { RunnerError } from '../errors.js';
import { SchemaDefinitionError, type DefinitionValidator } from './definition-validator.js';

export { SchemaDefinitionError, type DefinitionResult } from './definition-validator.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
// At runtime module.exports is the plugin and also carries it as `.default`.
const addFormats = (addFormatsModule as unknown as { default: FormatsPlugin }).default;

/** The name the schema is registered under inside each Ajv instance. */
const SCHEMA_KEY = 'mcp-schema.json';

/** Every loaded version's schema, queried by `$defs` name; what message-checks.ts and detect.ts build on. */
export interface SchemaValidator extends DefinitionValidator {
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
  const dialect = getDialect(schema);
  const defs = getDefs(schema, dialect.container);
  // strict: false because the upstream schema uses union types (RequestId) and annotation-only
  // keywords that strict mode rejects; verbose: true gives errors their data for format-errors.ts.
  // validateSchema: false because the bytes are SHA-256-pinned (load-schemas.ts): checking them
  // against the draft 2020-12 meta-schema compiled that meta-schema and cost about 1 s per run.
  const options = { allErrors: true, strict: false, verbose: true, validateSchema: false };
  const ajv = dialect.container === '$defs' ? new Ajv2020(options) : new AjvDraft07(options);
  addFormats(ajv);
  ajv.addSchema(schema as object, SCHEMA_KEY);
  const compiled = new Map<string, ValidateFunction>();
  const run = (definition: string, value: unknown): ErrorObject[] | null => {
    let validate = compiled.get(definition);
    if (!validate) {
      validate = ajv.getSchema(`${SCHEMA_KEY}#/${dialect.container}/${definition}`);
      if (!validate) throw new Error(`ajv could not resolve #/${dialect.container}/${definition}`);
      compiled.set(definition, validate);
    }
    return validate(value) ? null : [...(validate.errors ?? [])];
  };
  return { defs, run };
}

interface Dialect {
  /** Where the definitions live: draft-07 `definitions`, draft 2020-12 `$defs`. */
  container: 'definitions' | '$defs';
}

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema$/;

// The pinned files name their dialect; an unknown one is refused rather than read under the wrong rules.
function getDialect(schema: unknown): Dialect {
  const declared = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof declared === 'string' && DRAFT_07.test(declared)) return { container: 'definitions' };
  if (typeof declared === 'string' && DRAFT_2020_12.test(declared)) return { container: '$defs' };
  throw new Error(`schema.json declares $schema ${JSON.stringify(declared)}; expected draft-07 or draft 2020-12`);
}

function getDefs(schema: unknown, container: Dialect['container']): Record<string, unknown> {
  const defs = (schema as Record<string, unknown>)[container];
  if (typeof defs !== 'object' || defs === null) throw new Error(`schema.json has no ${container}`);
  return defs as Record<string, unknown>;
}
