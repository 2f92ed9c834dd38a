// The ajv guard that narrows an unknown document to a Case (built once per process). The
// validator is the standalone code the build generated when present and current; otherwise ajv
// compiles the schema here (sources under vitest, or a schema edited since the build).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject } from 'ajv';
import { packagePath } from '../util/package-paths.js';
import { describeSchemaErrors, type CaseProblem } from './case-errors.js';
import type { Case } from './case-types.js';
import { compileCaseSchema, GENERATED_VALIDATOR_FILE, hashSchemaText } from './case-validator-code.js';

export { CASE_AJV_OPTIONS } from './case-validator-code.js';

export interface CaseGuard {
  isCase(document: unknown): document is Case;
  /** Problems from the last failed isCase call. */
  describe(file: string, document: unknown): CaseProblem[];
}

/** What the guard needs of a validator: ajv's compiled and standalone functions both fit. */
export interface CaseValidateFunction {
  (document: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let guard: CaseGuard | undefined;

/** Returns the shared case-file validator. */
export function getCaseGuard(): CaseGuard {
  if (guard) return guard;
  const schemaText = readFileSync(packagePath('schemas', 'case.schema.json'), 'utf8');
  const validate: CaseValidateFunction = loadGeneratedValidator(schemaText) ?? compileCaseSchema(schemaText).validate;
  guard = {
    isCase: (document: unknown): document is Case => validate(document),
    describe: (file, document) => describeSchemaErrors(file, document, validate.errors ?? []),
  };
  return guard;
}

/** The build's standalone validator, or undefined when absent or generated from other schema text. */
export function loadGeneratedValidator(schemaText: string, dir = dirname(fileURLToPath(import.meta.url))): CaseValidateFunction | undefined {
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)(join(dir, GENERATED_VALIDATOR_FILE));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  const validate = loaded as CaseValidateFunction & { schemaSha256?: unknown };
  if (typeof validate !== 'function' || validate.schemaSha256 !== hashSchemaText(schemaText)) return undefined;
  return validate;
}
