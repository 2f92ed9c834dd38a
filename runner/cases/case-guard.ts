// The ajv guard that narrows an unknown document to a Case (compiled once per process).
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { packagePath } from '../package-paths.js';
import { describeSchemaErrors, type CaseProblem } from './case-errors.js';
import type { Case } from './case-types.js';

export interface CaseGuard {
  isCase(document: unknown): document is Case;
  /** Problems from the last failed isCase call. */
  describe(file: string, document: unknown): CaseProblem[];
}

/** The Ajv options the case schema is compiled with (the test adds the meta-schema check). */
export const CASE_AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true } as const;

let guard: CaseGuard | undefined;

/** Returns the shared case-file validator. */
export function getCaseGuard(): CaseGuard {
  if (guard) return guard;
  const schema = JSON.parse(readFileSync(packagePath('schemas', 'case.schema.json'), 'utf8')) as object;
  // validateSchema: false skips compiling the draft 2020-12 meta-schema at every start-up (a
  // third of the guard's cost); the schema ships with the package and case-guard.test.ts checks
  // it against the meta-schema instead. strict mode still rejects unknown keywords at compile.
  const ajv = new Ajv2020({ ...CASE_AJV_OPTIONS, validateSchema: false });
  const validate: ValidateFunction = ajv.compile(schema);
  guard = {
    isCase: (document: unknown): document is Case => validate(document),
    describe: (file, document) => describeSchemaErrors(file, document, validate.errors ?? []),
  };
  return guard;
}
