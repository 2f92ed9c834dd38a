// The schema-check folder's public surface: loading the pinned schemas, validating
// messages (the `schemas` and `validate` commands live in runner/commands/).
export { resolveSchema, resolveSchemas, toSchemaInfo, type LoadedSchema, type LoadedSchemas, type ResolveSchemasOptions, type SchemaSource } from './load-schemas.js';
export { getSchemaPins, type SchemaPin, type SchemaPins } from './pins.js';
export { SchemaLoadError, SchemaMismatchError, type SchemaErrorCode } from './schema-errors.js';
export { getSchemaCacheDir, getValidatorCodeCacheDir } from './schema-files.js';
export { createSchemaValidator, SchemaDefinitionError, type SchemaValidator, type DefinitionResult } from './validator.js';
export type { MessageCheck, MessageKind } from './message-checks.js';
export type { DetectOptions, DetectResult } from './detect.js';
export { checkScriptedResponses, getScriptedMessage, type ScriptedMessage } from './scripted-message.js';
export type { UsedValidatorCode } from './validator-code.js';
