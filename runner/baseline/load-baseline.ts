// Reading an expected-failures baseline (YAML or JSON): the entries with where each one sits,
// so every later error can name the file, the entry and its line.
import { createHash } from 'node:crypto';
import { loadYaml } from '../util/lazy-yaml.js';
import { closest } from '../cases/case-errors.js';
import { RunnerError } from '../util/errors.js';
import { BASELINE_FILE_MAX_BYTES } from '../io/input-caps.js';
import { decodeUserText, readUserFile, UserFileError } from '../io/read-user-file.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../vocabulary/types.js';

export const BASELINE_FORMAT = 'mcp-error-matrix/baseline@1';

/** One expected failure: a whole cell (`case`) or one check of it (`case:check`). */
export interface BaselineEntry {
  target: string;
  case: string;
  check?: string;
  /** Only this protocol version. @default every version */
  version?: ProtocolVersion;
  reason: string;
  /** 1-based position in the file's entry list. */
  index: number;
  /** 1-based line of the entry in the file, when known. */
  line?: number;
}

export interface Baseline {
  /** As shown to the user: the path given, or `baselines/default.yaml` for the bundled one. */
  file: string;
  sha256: string;
  entries: BaselineEntry[];
}

/** A baseline file is missing, unparseable, or names something that does not exist. */
export class BaselineError extends RunnerError {
  constructor(file: string, problem: string) {
    super('MEM_BASELINE', `baseline ${file}: ${problem}`);
  }
}

const ENTRY_FIELDS = ['target', 'case', 'check', 'version', 'reason'];

/** Where an entry sits, for messages: `file:line (entry n)`. */
export function describeEntryLocation(baseline: Pick<Baseline, 'file'>, entry: BaselineEntry): string {
  return `${baseline.file}${entry.line === undefined ? '' : `:${entry.line}`} (entry ${entry.index})`;
}

/** Reads a baseline file; `shownAs` is the name used in messages and reports. */
export async function loadBaselineFile(path: string, shownAs = path): Promise<Baseline> {
  let bytes: Buffer;
  let text: string;
  try {
    bytes = await readUserFile(path, { maxBytes: BASELINE_FILE_MAX_BYTES, what: 'baseline' });
    text = decodeUserText(path, bytes, 'baseline');
  } catch (error) {
    // Both describe every failure as a UserFileError (an fs error included); anything else is a bug.
    if (!(error instanceof UserFileError)) throw error;
    throw new BaselineError(shownAs, error.problem === 'missing' ? 'no such file; create it with `run --write-baseline FILE`' : error.detail);
  }
  return { ...parseBaselineText(text, shownAs), sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Parses baseline text (YAML, of which JSON is a subset): `entries: [...]`, or a bare list. */
export function parseBaselineText(text: string, file: string): Omit<Baseline, 'sha256'> {
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const document = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    // Without prettyErrors the parser leaves linePos unset: the line comes from the error's offset.
    const first = document.errors[0]!;
    throw new BaselineError(file, `not valid YAML or JSON at line ${lineCounter.linePos(first.pos[0]).line}: ${first.message.split('\n')[0]}`);
  }
  const root = toPlainValue(document, file);
  const list = Array.isArray(root) ? root : isRecord(root) ? root['entries'] : undefined;
  if (isRecord(root)) {
    for (const key of Object.keys(root)) {
      if (key !== 'entries' && key !== 'format') throw new BaselineError(file, `unknown top-level field "${key}"; expected "entries" (and optionally "format")`);
    }
    if (root['format'] !== undefined && root['format'] !== BASELINE_FORMAT) {
      throw new BaselineError(file, `format ${JSON.stringify(root['format'])} is not supported; expected "${BASELINE_FORMAT}"`);
    }
  }
  if (root === null || root === undefined) return { file, entries: [] };
  if (!Array.isArray(list)) throw new BaselineError(file, 'expected a list of entries, or an object with an "entries" list');
  const entryNodes = Array.isArray(root) ? document.contents : document.get('entries', true);
  const items = (entryNodes as { items?: { range?: [number, number, number] }[] } | null)?.items ?? [];
  return {
    file,
    entries: list.map((raw: unknown, i) => {
      const offset = items[i]?.range?.[0];
      const line = offset === undefined ? undefined : lineCounter.linePos(offset).line;
      return readEntry(raw, i + 1, line, file);
    }),
  };
}

function readEntry(raw: unknown, index: number, line: number | undefined, file: string): BaselineEntry {
  const where = `${file}${line === undefined ? '' : `:${line}`} (entry ${index})`;
  const fail = (problem: string): never => {
    throw new BaselineError(where, problem);
  };
  if (!isRecord(raw)) return fail('expected an object with target, case and reason');
  for (const key of Object.keys(raw)) {
    if (!ENTRY_FIELDS.includes(key)) {
      const guess = closest(key, ENTRY_FIELDS);
      fail(`unknown field "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}; use ${ENTRY_FIELDS.join(', ')}`);
    }
  }
  const text = (key: string, required: boolean): string | undefined => {
    const value = raw[key];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') return fail(`"${key}" must be a non-empty string, found ${JSON.stringify(value) ?? 'nothing'}`);
    return value.trim();
  };
  const target = text('target', true)!;
  let caseId = text('case', true)!;
  let check = text('check', false);
  // `case: id:check` is shorthand for `case: id` + `check: check`.
  const colon = caseId.indexOf(':');
  if (colon > 0) {
    if (check !== undefined) fail(`"case" ${JSON.stringify(caseId)} names a check and "check" is set too; use one`);
    check = caseId.slice(colon + 1);
    caseId = caseId.slice(0, colon);
  }
  const version = text('version', false);
  if (version !== undefined && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    fail(`"version" ${JSON.stringify(version)} is not a protocol version; use ${PROTOCOL_VERSIONS.join(' or ')}, or leave it out for every version`);
  }
  const reason = text('reason', true)!;
  return {
    target,
    case: caseId,
    ...(check === undefined ? {} : { check }),
    ...(version === undefined ? {} : { version: version as ProtocolVersion }),
    reason,
    index,
    ...(line === undefined ? {} : { line }),
  };
}

/** Upper bound on alias expansions while turning the document into values (yaml's own default, stated). */
const MAX_ALIAS_COUNT = 100;

/**
 * The document as plain values. A document whose aliases expand beyond MAX_ALIAS_COUNT (a
 * "billion laughs") or that is nested past the stack is refused by name: the yaml package throws
 * a ReferenceError or a RangeError there, which must not reach the user as an internal error.
 */
function toPlainValue(document: { toJS(options: { maxAliasCount: number }): unknown }, file: string): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const why = /alias/i.test(message)
      ? `it uses YAML aliases (*name) that expand past ${MAX_ALIAS_COUNT} copies (the shape of a "billion laughs" document)`
      : `${message.split('\n')[0]} (nested too deep?)`;
    throw new BaselineError(file, `cannot be read as a baseline: ${why}; write each entry out in full`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
