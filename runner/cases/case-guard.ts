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

let guard: CaseGuard | undefined;

/** Returns the shared case-file validator. */
export function getCaseGuard(): CaseGuard {
  if (guard) return guard;
  const schema = JSON.parse(readFileSync(packagePath('schemas', 'case.schema.json'), 'utf8')) as object;
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
  const validate: ValidateFunction = ajv.compile(schema);
  guard = {
    isCase: (document: unknown): document is Case => validate(document),
    describe: (file, document) => describeSchemaErrors(file, document, validate.errors ?? []),
  };
  return guard;
}
