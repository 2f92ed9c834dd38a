// Build step (after tsc): writes the case-file validator as standalone code next to the compiled
// case-guard.js, so the CLI does not load ajv's compiler at start-up. Without it (e.g. under
// vitest, which runs the sources) the guard compiles the schema at run time as before.
// Usage: node dist/runner/cases/build-case-validator.js
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../util/package-paths.js';
import { GENERATED_VALIDATOR_FILE, generateCaseValidatorCode } from './case-validator-code.js';
import { writeCheckedBundledCases } from './checked-cases.js';
import { loadCasesSync } from './load-cases.js';

/** Generates the validator into `dir` (default: this module's folder); returns the file written. */
export function buildCaseValidator(dir = dirname(fileURLToPath(import.meta.url))): string {
  const code = generateCaseValidatorCode(readFileSync(packagePath('schemas', 'case.schema.json'), 'utf8'));
  const file = join(dir, GENERATED_VALIDATOR_FILE);
  // Write then rename, so a concurrent CLI start never requires a half-written file.
  writeFileSync(`${file}.tmp-${process.pid}`, code);
  renameSync(`${file}.tmp-${process.pid}`, file);
  return file;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`wrote ${buildCaseValidator()}\n`);
  // Then the list of bundled case files validated in full by that validator and the rules.
  process.stdout.write(`wrote ${writeCheckedBundledCases(loadCasesSync({ checkAll: true }))}\n`);
}
