// Reading results.json files back (compare, merge, run --compare): parse, check the format
// against schemas/results.schema.json, and say which file is wrong and where. A results@2 file
// (this version's) is an index: the whole model is read from its evidence file beside it.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Comparison } from '../../reports/model/index.js';
import { describeSchemaErrors } from '../cases/case-errors.js';
import { RunnerError } from '../util/errors.js';
import { RESULTS_FILE_MAX_BYTES } from '../io/input-caps.js';
import { decodeUserText, formatByteCap, readUserFile, readUserText, UserFileError } from '../io/read-user-file.js';
import { packagePath } from '../util/package-paths.js';
import type { RunResult } from '../vocabulary/types.js';

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
let indexValidator: ValidateFunction | undefined;
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
  const ajv = getResultsAjv();
  validator = ajv.compile(schema);
  // results@2 refers to results@1's definitions: compiled in the same instance.
  indexValidator = ajv.compile(JSON.parse(readFileSync(packagePath('schemas', 'results-v2.schema.json'), 'utf8')) as object);
  return validator;
}

/** The compiled validator for schemas/results-v2.schema.json (results.json as this version writes it). */
export function getResultsIndexValidator(): ValidateFunction {
  getResultsValidator();
  return indexValidator!;
}

/**
 * One definition of the results schema (`$defs/cell`, `$defs/case`), for checking a file's cells or
 * cases one at a time; with `index`, results@2's cell (the index line; its cases are results@1's).
 */
export function getResultsDefinitionValidator(name: 'cell' | 'case', index = false): ValidateFunction {
  const key = `${index && name === 'cell' ? 'index' : 'full'}:${name}`;
  const known = definitionValidators.get(key);
  if (known) return known;
  const { $id } = (index && name === 'cell' ? getResultsIndexValidator() : getResultsValidator()).schema as { $id: string };
  const compiled = getResultsAjv().getSchema(`${$id}#/$defs/${name}`)!;
  definitionValidators.set(key, compiled);
  return compiled;
}

/** Problems of a value against the results schema (results@1, or results@2 with `index`); empty when it is valid. */
export function checkResults(value: unknown, file = 'results.json', index = false): string[] {
  const validate = index ? getResultsIndexValidator() : getResultsValidator();
  if (validate(value)) return [];
  return describeSchemaErrors(file, value, validate.errors ?? []).map((p) => `${p.pointer === '' ? '/' : p.pointer}: ${p.message}`);
}

/** Reads and validates one results.json; throws ResultsFileError naming the file and what is wrong. */
export async function readResultsFile(file: string, shownAs = file, caps: { maxBytes?: number } = {}): Promise<StoredRunResult> {
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
  if (format === RESULTS_INDEX_FORMAT) return readEvidence(file, shownAs, value, caps.maxBytes ?? RESULTS_FILE_MAX_BYTES);
  if (format !== FULL_RESULTS_FORMAT) {
    throw new ResultsFileError(shownAs, `format is ${JSON.stringify(format)}, expected "${RESULTS_INDEX_FORMAT}" (or "${FULL_RESULTS_FORMAT}" from an earlier version; a results.json written by \`run --out DIR\`)`);
  }
  const problems = checkResults(value, shownAs);
  if (problems.length > 0) {
    throw new ResultsFileError(shownAs, `does not match schemas/results.schema.json:\n  - ${problems.slice(0, 10).join('\n  - ')}`);
  }
  return value as StoredRunResult;
}

export const RESULTS_INDEX_FORMAT = 'mcp-error-matrix/results@2';
export const FULL_RESULTS_FORMAT = 'mcp-error-matrix/results@1';

/**
 * The whole model behind a results@2 index: its evidence file (results.full.json.gz, the only
 * name the schema allows, so it is always beside the index), read bounded, decompressed with
 * a cap, checked against results@1, and checked to hold the index's run and cells.
 */
async function readEvidence(file: string, shownAs: string, index: unknown, maxBytes: number): Promise<StoredRunResult> {
  const problems = checkResults(index, shownAs, true);
  if (problems.length > 0) throw new ResultsFileError(shownAs, `does not match schemas/results-v2.schema.json:\n  - ${problems.slice(0, 10).join('\n  - ')}`);
  const light = index as { evidence: { file: string } } & Omit<StoredRunResult, 'format' | 'cells'> & { cells: Pick<RunResult['cells'][number], 'case' | 'target' | 'protocolVersion' | 'status'>[] };
  const evidence = join(dirname(file), basename(light.evidence.file));
  const evidenceShown = join(dirname(shownAs), basename(light.evidence.file));
  const cap = { maxBytes, what: 'results evidence file' };
  let text: string;
  try {
    const bytes = await readUserFile(evidence, cap);
    // Decompression stops at the cap: a small file can expand without bound (a gzip bomb).
    text = decodeUserText(evidence, gunzipSync(bytes, { maxOutputLength: maxBytes }), cap.what);
  } catch (error) {
    if (error instanceof UserFileError && error.problem === 'missing') {
      throw new ResultsFileError(evidenceShown, `no such file: ${shownAs} keeps its cells' evidence here; copy the report folder whole (results.json with ${basename(light.evidence.file)})`);
    }
    const detail = error instanceof UserFileError ? error.detail : (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? `decompresses to more than the ${formatByteCap(maxBytes)} cap` : `not gzip (${(error as Error).message})`;
    throw new ResultsFileError(evidenceShown, detail);
  }
  let full: unknown;
  try {
    full = JSON.parse(text);
  } catch (error) {
    throw new ResultsFileError(evidenceShown, `not JSON once decompressed (${(error as Error).message})`);
  }
  const fullProblems = (full as { format?: unknown } | null)?.format === FULL_RESULTS_FORMAT ? checkResults(full, evidenceShown) : [`/format: expected "${FULL_RESULTS_FORMAT}"`];
  if (fullProblems.length > 0) throw new ResultsFileError(evidenceShown, `does not match schemas/results.schema.json:\n  - ${fullProblems.slice(0, 10).join('\n  - ')}`);
  const result = full as StoredRunResult;
  const mismatch = findIndexMismatch(light, result);
  if (mismatch) throw new ResultsFileError(evidenceShown, `is not the evidence of ${shownAs}: ${mismatch}; copy the report folder whole, as one run wrote it`);
  return result;
}

// Where an index and a full model disagree: another run's evidence, or an edited file.
function findIndexMismatch(index: { startedAt: string; finishedAt: string; tool: { version: string }; cells: Pick<RunResult['cells'][number], 'case' | 'target' | 'protocolVersion' | 'status'>[] }, full: RunResult): string | undefined {
  if (index.startedAt !== full.startedAt || index.finishedAt !== full.finishedAt || index.tool.version !== full.tool.version) return `it is of the run started ${full.startedAt}, not ${index.startedAt}`;
  if (index.cells.length !== full.cells.length) return `it holds ${full.cells.length} cells, results.json ${index.cells.length}`;
  for (const [i, cell] of index.cells.entries()) {
    const other = full.cells[i]!;
    if (cell.case !== other.case || cell.target !== other.target || cell.protocolVersion !== other.protocolVersion || cell.status !== other.status) {
      return `cell ${i + 1} is ${other.case} · ${other.target} · ${other.protocolVersion} (${other.status}) there, ${cell.case} · ${cell.target} · ${cell.protocolVersion} (${cell.status}) in results.json`;
    }
  }
  return undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
