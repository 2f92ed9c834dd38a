// Reading results.json files back (compare, merge, run --compare): parse, check the format
// against schemas/results.schema.json, and say which file is wrong and where.
import { readFileSync, statSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Comparison } from '../../reports/compare-types.js';
import { describeSchemaErrors } from '../cases/case-errors.js';
import { RunnerError } from '../errors.js';
import { RESULTS_FILE_MAX_BYTES } from '../io/input-caps.js';
import { readUserText, UserFileError } from '../io/read-user-file.js';
import { packagePath } from '../package-paths.js';
import type { RunResult } from '../types.js';

/** Run metadata this project adds to RunResult; optional, stored in results.json. */
export interface RunResultExtras {
  /** The expected-failures baseline applied after judging. */
  baseline?: { file: string; sha256: string; entries: number; applied: number; stale: number };
  /** The slice of the plan this result holds (run --shard), or the shards a merge combined. */
  shard?: { index?: number; count: number; planDigest: string; plannedCells: number; merged?: number[] };
  /** Regressions and fixes against a previous run (run --compare). */
  comparison?: Comparison;
}

/** A results.json value as this version reads and writes it. */
export type StoredRunResult = RunResult & RunResultExtras;

/** A results file that cannot be read or is not a results@1 document. */
export class ResultsFileError extends RunnerError {
  constructor(file: string, problem: string) {
    super('MEM_RESULTS_FILE', `${file}: ${problem}`);
  }
}

let validator: ValidateFunction | undefined;
const definitionValidators = new Map<string, ValidateFunction>();
let ajv: Ajv2020 | undefined;

function getResultsAjv(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
  // ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;
  addFormats(ajv);
  return ajv;
}

/** The compiled validator for schemas/results.schema.json (compiled once per process). */
export function getResultsValidator(): ValidateFunction {
  if (validator) return validator;
  const schema = JSON.parse(readFileSync(packagePath('schemas', 'results.schema.json'), 'utf8')) as object;
  validator = getResultsAjv().compile(schema);
  return validator;
}

/** One definition of the results schema (`$defs/cell`, `$defs/case`), for checking a file's cells or cases one at a time. */
export function getResultsDefinitionValidator(name: 'cell' | 'case'): ValidateFunction {
  const known = definitionValidators.get(name);
  if (known) return known;
  const { $id } = getResultsValidator().schema as { $id: string };
  const compiled = getResultsAjv().getSchema(`${$id}#/$defs/${name}`)!;
  definitionValidators.set(name, compiled);
  return compiled;
}

/** Problems of a value against the results schema; empty when it is valid. */
export function checkResults(value: unknown, file = 'results.json'): string[] {
  const validate = getResultsValidator();
  if (validate(value)) return [];
  return describeSchemaErrors(file, value, validate.errors ?? []).map((p) => `${p.pointer === '' ? '/' : p.pointer}: ${p.message}`);
}

/** Reads and validates one results.json; throws ResultsFileError naming the file and what is wrong. */
export async function readResultsFile(file: string, shownAs = file): Promise<StoredRunResult> {
  let text: string;
  try {
    text = await readUserText(file, { maxBytes: RESULTS_FILE_MAX_BYTES, what: 'results file' });
  } catch (error) {
    if (!(error instanceof UserFileError)) throw new ResultsFileError(shownAs, `cannot read: ${(error as Error).message}`);
    const isFolder = error.problem === 'not-regular' && isDirectory(file);
    throw new ResultsFileError(shownAs, error.problem === 'missing' ? 'no such file (expected a results.json written by `run --out DIR`)' : isFolder ? 'is a folder; give its results.json' : error.detail);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ResultsFileError(shownAs, `not JSON (${(error as Error).message}); expected a results.json written by \`run --out DIR\``);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== 'mcp-error-matrix/results@1') {
    throw new ResultsFileError(shownAs, `format is ${JSON.stringify(format)}, expected "mcp-error-matrix/results@1" (a results.json written by \`run --out DIR\`)`);
  }
  const problems = checkResults(value, shownAs);
  if (problems.length > 0) {
    throw new ResultsFileError(shownAs, `does not match schemas/results.schema.json:\n  - ${problems.slice(0, 10).join('\n  - ')}`);
  }
  return value as StoredRunResult;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
