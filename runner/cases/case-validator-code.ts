// The case-file validator as standalone code: ajv compiles case.schema.json once at build time
// and the CLI loads the result with require(), instead of importing and running ajv's compiler
// at every start-up (most of a small run's fixed cost).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import type standaloneCode from 'ajv/dist/standalone/index.js';

// ajv is CommonJS; required on use so that importing this module (as case-guard.ts does) stays cheap.
const require = createRequire(import.meta.url);

/** Where the build writes the generated validator, next to the compiled case-guard.js. */
export const GENERATED_VALIDATOR_FILE = 'case-validator.generated.cjs';

/** The Ajv options the case schema is compiled with (the test adds the meta-schema check). */
export const CASE_AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true } as const;

/** The fingerprint a generated validator records, so a stale one (schema edited since) is ignored. */
export function hashSchemaText(schemaText: string): string {
  return createHash('sha256').update(schemaText).digest('hex');
}

/** Compiles the case schema (JSON text) with the guard's options; `source` keeps code for standalone. */
export function compileCaseSchema(schemaText: string, source = false) {
  // validateSchema: false skips compiling the draft 2020-12 meta-schema; the schema ships with
  // the package and case-guard.test.ts checks it against the meta-schema instead. strict mode
  // still rejects unknown keywords at compile.
  const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020Class };
  const ajv = new Ajv2020({ ...CASE_AJV_OPTIONS, validateSchema: false, ...(source ? { code: { source: true } } : {}) });
  return { ajv, validate: ajv.compile(JSON.parse(schemaText) as object) };
}

/** CommonJS source of the validator for this schema text, tagged with the text's hash. */
export function generateCaseValidatorCode(schemaText: string): string {
  const { ajv, validate } = compileCaseSchema(schemaText, true);
  // ajv's standalone module is CommonJS with the function as module.exports.
  const generate = (require('ajv/dist/standalone/index.js') as typeof standaloneCode).default;
  const code = generate(ajv, validate);
  return `// Generated from schemas/case.schema.json by runner/cases/build-case-validator.ts; do not edit.\n${code}\nmodule.exports.schemaSha256 = ${JSON.stringify(hashSchemaText(schemaText))};\n`;
}
