// Reading a results.json for what comparing needs — every field but the cells and cases, each
// cell's key and status, each case's id and digest — streamed: the file is read in chunks, each cell
// and case is parsed and checked against the results schema on its own and then dropped, so two 422 MB files are compared with the memory of
// their cell keys (issue 28 item 4: `compare` of two such files peaked at 2.4 GB). The same bytes
// give the same refusals as readResultsFile: not a regular file, over the cap, not UTF-8, not JSON,
// not results@1, not valid against schemas/results.schema.json (each error with its JSON pointer).
import { statSync } from 'node:fs';
import { describeSchemaErrors } from '../cases/case-errors.js';
import { RESULTS_CELL_MAX_BYTES, RESULTS_FILE_MAX_BYTES } from '../io/input-caps.js';
import { forEachUserFileChunk, UserFileError } from '../io/read-user-file.js';
import type { CaseSummary, Cell } from '../types.js';
import { getResultsDefinitionValidator, getResultsValidator, ResultsFileError, type StoredRunResult } from './results-file.js';
import { JsonMembersScanner, JsonScanError } from './scan-json-members.js';

/** What comparing reads of a cell. */
export type CellDigest = Pick<Cell, 'case' | 'target' | 'protocolVersion' | 'status'>;

/** What comparing reads of a case: which file it was. */
export type CaseDigest = Pick<CaseSummary, 'id' | 'sha256'>;

/** A results.json as comparing reads it: every field, the cells and cases as digests. */
export type ResultsDigest = Omit<StoredRunResult, 'cells' | 'cases'> & { cells: CellDigest[]; cases: CaseDigest[] };

/** Reads `file` streamed: its head and its cells' digests; throws ResultsFileError naming the file and what is wrong. */
export async function readResultsDigest(file: string, shownAs = file): Promise<ResultsDigest> {
  const head: Record<string, unknown> = {};
  const cells: CellDigest[] = [];
  const cases: CaseDigest[] = [];
  const intern = createInterner();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const validators = { cells: getResultsDefinitionValidator('cell'), cases: getResultsDefinitionValidator('case') };
  const scanner = new JsonMembersScanner(
    {
      onMember: (key, bytes) => {
        head[key] = parsePiece(bytes, `/${key}`);
      },
      onElement: (key, bytes, index) => {
        const pointer = `/${key}/${index}`;
        const value = parsePiece(bytes, pointer);
        const validate = validators[key as keyof typeof validators];
        if (!validate(value)) {
          const problems = describeSchemaErrors(shownAs, value, validate.errors ?? []).map((p) => `${pointer}${p.pointer === '/' ? '' : p.pointer}: ${p.message}`);
          throw new ResultsFileError(shownAs, `does not match schemas/results.schema.json:\n  - ${problems.join('\n  - ')}`);
        }
        if (key === 'cases') {
          const { id, sha256 } = value as CaseSummary;
          cases.push({ id: intern(id), sha256 });
        } else {
          const { case: caseId, target, protocolVersion, status } = value as Cell;
          cells.push({ case: intern(caseId), target: intern(target), protocolVersion, status });
        }
      },
    },
    { streamed: new Set(['cells', 'cases']), maxValueBytes: RESULTS_CELL_MAX_BYTES },
  );
  const parsePiece = (bytes: Buffer, pointer: string): unknown => {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new ResultsFileError(shownAs, `is not valid UTF-8 (in ${pointer}); expected a results.json written by \`run --out DIR\``);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ResultsFileError(shownAs, `not JSON (in ${pointer}: ${(error as Error).message}); expected a results.json written by \`run --out DIR\``);
    }
  };
  try {
    await forEachUserFileChunk(file, { maxBytes: RESULTS_FILE_MAX_BYTES, what: 'results file' }, (chunk) => scanner.feed(chunk));
    scanner.end();
  } catch (caught) {
    // The reader wraps what the chunk handler threw; the handler's own refusals come out as they are.
    const error = caught instanceof UserFileError && (caught.cause instanceof ResultsFileError || caught.cause instanceof JsonScanError) ? caught.cause : caught;
    if (error instanceof ResultsFileError) throw error;
    if (error instanceof JsonScanError) throw new ResultsFileError(shownAs, `${error.message}; expected a results.json written by \`run --out DIR\``);
    if (!(error instanceof UserFileError)) throw new ResultsFileError(shownAs, `cannot read: ${(error as Error).message}`);
    const isFolder = error.problem === 'not-regular' && isDirectory(file);
    throw new ResultsFileError(shownAs, error.problem === 'missing' ? 'no such file (expected a results.json written by `run --out DIR`)' : isFolder ? 'is a folder; give its results.json' : error.detail);
  }
  if (head['format'] !== 'mcp-error-matrix/results@1') {
    throw new ResultsFileError(shownAs, `format is ${JSON.stringify(head['format'])}, expected "mcp-error-matrix/results@1" (a results.json written by \`run --out DIR\`)`);
  }
  // Every field but the cells, checked as the whole document would be (the cells were, one by one).
  const validate = getResultsValidator();
  const rest = { ...head, cases: [], cells: [] };
  if (!validate(rest)) {
    const problems = describeSchemaErrors(shownAs, rest, validate.errors ?? []).map((p) => `${p.pointer === '' ? '/' : p.pointer}: ${p.message}`);
    throw new ResultsFileError(shownAs, `does not match schemas/results.schema.json:\n  - ${problems.slice(0, 10).join('\n  - ')}`);
  }
  return { ...(head as Omit<ResultsDigest, 'cells' | 'cases'>), cases, cells };
}

/** One string object per distinct value: a case id or target name repeated in 100,000 cells is held once. */
function createInterner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    seen.set(text, text);
    return text;
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
