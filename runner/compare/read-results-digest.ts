// Reading a results.json for what comparing needs — every field but the cells and cases, each
// cell's key and status, each case's id and digest — streamed: the file is read in chunks, each cell
// and case is parsed and checked against the results schema on its own and then dropped, so two 422 MB files are compared with the memory of
// their cell keys (issue 28 item 4: `compare` of two such files peaked at 2.4 GB). The same bytes
// give the same refusals as readResultsFile: not a regular file, over the cap, not UTF-8, not JSON,
// not results@1 or results@2, not valid against its schema (each error with its JSON pointer). A
// results@2 index is read with its evidence file beside it (results.full.json.gz), decompressed as
// it is scanned, capped, each full cell checked against results@1 and against the index's line.
import { statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { describeSchemaErrors } from '../cases/case-errors.js';
import { RESULTS_CELL_MAX_BYTES, RESULTS_FILE_MAX_BYTES } from '../io/input-caps.js';
import { formatByteCap, forEachUserFileChunk, readUserFile, UserFileError } from '../io/read-user-file.js';
import type { CaseSummary, Cell } from '../vocabulary/types.js';
import { checkResults, FULL_RESULTS_FORMAT, getResultsDefinitionValidator, ResultsFileError, RESULTS_INDEX_FORMAT, type StoredRunResult } from './results-file.js';
import { JsonMembersScanner, JsonScanError } from './scan-json-members.js';

/** What comparing reads of a cell. */
export type CellDigest = Pick<Cell, 'case' | 'target' | 'protocolVersion' | 'status'>;

/** What comparing reads of a case: which file it was. */
export type CaseDigest = Pick<CaseSummary, 'id' | 'sha256'>;

/** A results.json as comparing reads it: every field, the cells and cases as digests. */
export type ResultsDigest = Omit<StoredRunResult, 'cells' | 'cases'> & { cells: CellDigest[]; cases: CaseDigest[] };

const EXPECTED = 'expected a results.json written by `run --out DIR`';

/**
 * Reads `file` streamed: its head and its cells' digests; throws ResultsFileError naming the file and
 * what is wrong. `caps.maxBytes` bounds each file and the evidence once decompressed (as readResultsFile's).
 */
export async function readResultsDigest(file: string, shownAs = file, caps: { maxBytes?: number } = {}): Promise<ResultsDigest> {
  const maxBytes = caps.maxBytes ?? RESULTS_FILE_MAX_BYTES;
  const feedFile = (feed: (chunk: Buffer) => void) => forEachUserFileChunk(file, { maxBytes, what: 'results file' }, feed);
  const format = await findFormat(file, shownAs, feedFile);
  if (format !== RESULTS_INDEX_FORMAT && format !== FULL_RESULTS_FORMAT) {
    throw new ResultsFileError(shownAs, `format is ${JSON.stringify(format)}, expected "${RESULTS_INDEX_FORMAT}" (or "${FULL_RESULTS_FORMAT}" from an earlier version; a results.json written by \`run --out DIR\`)`);
  }
  const index = format === RESULTS_INDEX_FORMAT;
  const read = await scanResults(file, shownAs, feedFile, { index });
  if (!index) return read;
  return readEvidenceDigest(file, shownAs, read, maxBytes);
}

interface ScanOptions {
  /** The document is a results@2 index (its cells are index lines). */
  index: boolean;
  /** What a refusal says was expected. @default EXPECTED */
  expected?: string;
  /** Called with each cell's digest and position as it is read (the index's check of its evidence). */
  onCell?: (cell: CellDigest, position: number) => void;
}

/** One pass over a document's bytes: its head, its cells' and cases' digests, each piece checked against the schema. */
async function scanResults(file: string, shownAs: string, feedAll: (feed: (chunk: Buffer) => void) => Promise<unknown>, options: ScanOptions): Promise<ResultsDigest> {
  const head: Record<string, unknown> = {};
  const cells: CellDigest[] = [];
  const cases: CaseDigest[] = [];
  const intern = createInterner();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const expected = options.expected ?? EXPECTED;
  const validators: Record<string, ValidateFunction> = { cells: getResultsDefinitionValidator('cell', options.index), cases: getResultsDefinitionValidator('case') };
  const schemaName = options.index ? 'schemas/results-v2.schema.json' : 'schemas/results.schema.json';
  const parsePiece = (bytes: Buffer, pointer: string): unknown => {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new ResultsFileError(shownAs, `is not valid UTF-8 (in ${pointer}); ${expected}`);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ResultsFileError(shownAs, `not JSON (in ${pointer}: ${(error as Error).message}); ${expected}`);
    }
  };
  const scanner = new JsonMembersScanner(
    {
      onMember: (key, bytes) => {
        head[key] = parsePiece(bytes, `/${key}`);
      },
      onElement: (key, bytes, position) => {
        const pointer = `/${key}/${position}`;
        const value = parsePiece(bytes, pointer);
        const validate = validators[key]!;
        if (!validate(value)) {
          const problems = describeSchemaErrors(shownAs, value, validate.errors ?? []).map((p) => `${pointer}${p.pointer === '/' ? '' : p.pointer}: ${p.message}`);
          throw new ResultsFileError(shownAs, `does not match ${schemaName}:\n  - ${problems.join('\n  - ')}`);
        }
        if (key === 'cases') {
          const { id, sha256 } = value as CaseSummary;
          cases.push({ id: intern(id), sha256 });
        } else {
          const { case: caseId, target, protocolVersion, status } = value as Cell;
          const digest = { case: intern(caseId), target: intern(target), protocolVersion, status };
          options.onCell?.(digest, position);
          cells.push(digest);
        }
      },
    },
    { streamed: new Set(['cells', 'cases']), maxValueBytes: RESULTS_CELL_MAX_BYTES },
  );
  await feedScanner(file, shownAs, scanner, feedAll, expected);
  // Every field but the cells and cases, checked as the whole document would be (they were, one by one).
  const problems = checkResults({ ...head, cases: [], cells: [] }, shownAs, options.index);
  if (problems.length > 0) throw new ResultsFileError(shownAs, `does not match ${schemaName}:\n  - ${problems.slice(0, 10).join('\n  - ')}`);
  return { ...(head as Omit<ResultsDigest, 'cells' | 'cases'>), cases, cells };
}

/**
 * The document's `format`. Both writers put it first, so this reads a few bytes; a document whose
 * format comes later (written by hand) is scanned once for it, its other values dropped as they end.
 */
async function findFormat(file: string, shownAs: string, feedAll: (feed: (chunk: Buffer) => void) => Promise<unknown>, expected = EXPECTED): Promise<unknown> {
  let format: unknown;
  let found = false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stop = new Error('found');
  const scanner = new JsonMembersScanner(
    {
      onMember: (key, bytes) => {
        if (key !== 'format') return;
        try {
          format = JSON.parse(decoder.decode(bytes));
        } catch {
          throw new ResultsFileError(shownAs, `not JSON (in /format); ${expected}`);
        }
        found = true;
        throw stop;
      },
      onElement: () => undefined,
    },
    { streamed: new Set(['cells', 'cases']), maxValueBytes: RESULTS_CELL_MAX_BYTES },
  );
  try {
    await feedScanner(file, shownAs, scanner, feedAll, expected);
  } catch (error) {
    if (!found) throw error;
  }
  return format;
}

/** Feeds every byte to the scanner and ends it; a refusal names the file and what is wrong. */
async function feedScanner(file: string, shownAs: string, scanner: JsonMembersScanner, feedAll: (feed: (chunk: Buffer) => void) => Promise<unknown>, expected: string): Promise<void> {
  try {
    await feedAll((chunk) => scanner.feed(chunk));
    scanner.end();
  } catch (caught) {
    // The reader wraps what the chunk handler threw; the handler's own refusals come out as they are.
    const error = caught instanceof UserFileError && (caught.cause instanceof ResultsFileError || caught.cause instanceof JsonScanError) ? caught.cause : caught;
    if (error instanceof ResultsFileError) throw error;
    if (error instanceof JsonScanError) throw new ResultsFileError(shownAs, `${error.message}; ${expected}`);
    if (!(error instanceof UserFileError)) throw error;
    const isFolder = error.problem === 'not-regular' && isDirectory(file);
    throw new ResultsFileError(shownAs, error.problem === 'missing' ? 'no such file (expected a results.json written by `run --out DIR`)' : isFolder ? 'is a folder; give its results.json' : error.detail);
  }
}

/**
 * A results@2 index's evidence (results.full.json.gz beside it, the only name its schema allows),
 * read as readResultsFile reads it — bounded, decompressed with a cap, checked against results@1
 * and against the index, cell by cell — but streamed: decompressed as it is scanned.
 */
async function readEvidenceDigest(file: string, shownAs: string, index: ResultsDigest & { evidence?: { file: string } }, maxBytes: number): Promise<ResultsDigest> {
  const name = basename(index.evidence?.file ?? 'results.full.json.gz');
  const evidence = join(dirname(file), name);
  const evidenceShown = join(dirname(shownAs), name);
  const cap = { maxBytes, what: 'results evidence file' };
  let compressed: Buffer;
  try {
    compressed = await readUserFile(evidence, cap);
  } catch (error) {
    if (error instanceof UserFileError && error.problem === 'missing') {
      throw new ResultsFileError(evidenceShown, `no such file: ${shownAs} keeps its cells' evidence here; copy the report folder whole (results.json with ${name})`);
    }
    throw new ResultsFileError(evidenceShown, error instanceof UserFileError ? error.detail : (error as Error).message);
  }
  let mismatch: string | undefined;
  const onCell = (cell: CellDigest, position: number) => {
    const other = index.cells[position];
    if (mismatch === undefined && other !== undefined && (cell.case !== other.case || cell.target !== other.target || cell.protocolVersion !== other.protocolVersion || cell.status !== other.status)) {
      mismatch = `cell ${position + 1} is ${cell.case} · ${cell.target} · ${cell.protocolVersion} (${cell.status}) there, ${other.case} · ${other.target} · ${other.protocolVersion} (${other.status}) in results.json`;
    }
  };
  const feedDecompressed = async (feed: (chunk: Buffer) => void): Promise<void> => {
    let total = 0;
    const gunzip = Readable.from([compressed]).pipe(createGunzip());
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        total += chunk.length;
        // Decompression stops at the cap: a small file can expand without bound (a gzip bomb).
        if (total > cap.maxBytes) throw new ResultsFileError(evidenceShown, `decompresses to more than the ${formatByteCap(cap.maxBytes)} cap`);
        feed(chunk);
      }
    } catch (error) {
      if (error instanceof ResultsFileError || error instanceof JsonScanError) throw error;
      if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new ResultsFileError(evidenceShown, `not gzip (${(error as Error).message})`);
      throw error;
    } finally {
      gunzip.destroy();
    }
  };
  // Its refusals say where, once decompressed.
  const expected = `once decompressed; expected the evidence of ${shownAs}, as \`run --out DIR\` wrote it`;
  const format = await findFormat(evidence, evidenceShown, feedDecompressed, expected);
  if (format !== FULL_RESULTS_FORMAT) throw new ResultsFileError(evidenceShown, `does not match schemas/results.schema.json:\n  - /format: expected "${FULL_RESULTS_FORMAT}"`);
  const full = await scanResults(evidence, evidenceShown, feedDecompressed, { index: false, onCell, expected });
  const head = full as ResultsDigest & { tool: { version: string } };
  if (index.startedAt !== head.startedAt || index.finishedAt !== head.finishedAt || index.tool.version !== head.tool.version) mismatch = `it is of the run started ${head.startedAt}, not ${index.startedAt}`;
  else if (index.cells.length !== full.cells.length) mismatch = `it holds ${full.cells.length} cells, results.json ${index.cells.length}`;
  if (mismatch) throw new ResultsFileError(evidenceShown, `is not the evidence of ${shownAs}: ${mismatch}; copy the report folder whole, as one run wrote it`);
  return full;
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
