// One Ajv (+ formats) per protocol version, holding that version's official schema: the class
// follows the schema's `$schema` (draft-07 for 2025-03-26/2025-06-18 with `definitions`, draft
// 2020-12 from 2025-11-25 with `$defs`); a validator per definition is made on first use: from
// pinned standalone code (validator-code.ts) when a code cache is given, else compiled by ajv.
import type { ErrorObject } from 'ajv';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../vocabulary/types.js';
import { capErrors, formatAjvErrors } from './format-errors.js';
import type { LoadedSchemas } from './load-schemas.js';
import { checkRequestMessage, checkResponseMessage, type MessageCheck } from './message-checks.js';
import { detectAndValidate, type DetectOptions, type DetectResult } from './detect.js';
import { RunnerError } from '../util/errors.js';
import { SchemaDefinitionError, type DefinitionValidator } from './definition-validator.js';
import { createAjv, loadPinnedValidator, SCHEMA_KEY, type DefsContainer, type UsedValidatorCode, type ValidateCode } from './validator-code.js';

export { SchemaDefinitionError, type DefinitionResult } from './definition-validator.js';

/** Every loaded version's schema, queried by `$defs` name; what message-checks.ts and detect.ts build on. */
export interface SchemaValidator extends DefinitionValidator {
  /** Checks a tools/call response (result or JSON-RPC error), dispatching on resultType first. */
  checkResponseMessage(version: ProtocolVersion, message: unknown): MessageCheck;
  /** Checks a request or notification a client sent (tools/call, its MRTR follow-up, initialize, ...). */
  checkRequestMessage(version: ProtocolVersion, message: unknown): MessageCheck;
  /** Detects request vs response and checks it under one or all loaded versions. */
  detectAndValidate(message: unknown, options?: DetectOptions): DetectResult;
  /** The pinned validator code each definition used so far was judged by (empty without a code cache). */
  listUsedCode(): (UsedValidatorCode & { version: ProtocolVersion })[];
}

export interface SchemaValidatorOptions {
  /** @default 8 */
  maxErrors?: number;
  /** A folder for pinned standalone validator code (validator-code.ts); without it ajv compiles each run. */
  codeCacheDir?: string;
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
      instance = createVersionInstance(loaded.schema, options.codeCacheDir === undefined ? undefined : { dir: options.codeCacheDir, schemaSha256: loaded.sha256 });
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
    listUsedCode: () => [...instances].flatMap(([version, instance]) => instance.used.map((used) => ({ version, ...used }))),
  };
  return validator;
}

interface VersionInstance {
  defs: Record<string, unknown>;
  /** Validates against a definition; the raw errors, or null when valid. */
  run(definition: string, value: unknown): ErrorObject[] | null;
  /** The pinned code each definition used so far came from. */
  used: UsedValidatorCode[];
}

function createVersionInstance(schema: unknown, codeCache: { dir: string; schemaSha256: string } | undefined): VersionInstance {
  const dialect = getDialect(schema);
  const defs = getDefs(schema, dialect.container);
  let ajv: ReturnType<typeof createAjv> | undefined;
  const used: UsedValidatorCode[] = [];
  const compiled = new Map<string, ValidateCode>();
  const make = (definition: string): ValidateCode => {
    const pinned = codeCache && loadPinnedValidator(codeCache.dir, codeCache.schemaSha256, schema, dialect.container, definition);
    if (pinned) {
      used.push(pinned.used);
      return pinned.validate;
    }
    ajv ??= createAjv(schema, dialect.container);
    const validate = ajv.getSchema(`${SCHEMA_KEY}#/${dialect.container}/${definition}`);
    if (!validate) throw new Error(`ajv could not resolve #/${dialect.container}/${definition}`);
    return validate;
  };
  const run = (definition: string, value: unknown): ErrorObject[] | null => {
    let validate = compiled.get(definition);
    if (!validate) compiled.set(definition, (validate = make(definition)));
    return validate(value) ? null : [...(validate.errors ?? [])];
  };
  return { defs, run, used };
}

interface Dialect {
  container: DefsContainer;
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
