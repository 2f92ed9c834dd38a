// Per-cell details for the HTML matrix, embedded once as JSON and turned into DOM on click, so
// a 6,000-cell report does not carry 6,000 rendered transcripts. Repeated parts are stored once.
// All text is sanitized here.
import { createHash } from 'node:crypto';
import type { Cell, RecordedExchange, RunResult } from '../runner/types.js';
import { indexCases } from './case-info.js';
import { describeMismatch, findMismatch } from './describe-mismatch.js';
import { resolveSpecReference } from './spec-references.js';
import { redactText, sanitizeHeaders, sanitizeText, sanitizeValue, stripControl } from './redact.js';

export interface DetailsOptions {
  /** Characters kept per request/response body and per SSE event. */
  maxBodyChars: number;
  /** Characters kept from the end of target stderr/stdout. */
  maxOutputChars: number;
}

interface ExchangeDetails {
  seq: number;
  at: number;
  request: { method: string; path: string; headers: [string, string][]; body: string; rpc?: string; step?: number };
  response?: { status: number | null; headers: [string, string][]; body: string; events?: { at: number; text: string }[]; ending: string; endedAt?: number };
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… [${text.length - max} more characters not shown]` : text;
}

function capTail(text: string, max: number): string {
  return text.length > max ? `[${text.length - max} earlier characters not shown] …\n${text.slice(-max)}` : text;
}

function describeExchange(exchange: RecordedExchange, options: DetailsOptions): ExchangeDetails {
  const { request, response } = exchange;
  const body = (text: string) => cap(sanitizeText(text), options.maxBodyChars);
  const rpc = request.rpc;
  return {
    seq: exchange.seq,
    at: exchange.at,
    request: {
      method: sanitizeText(request.method),
      path: sanitizeText(request.path),
      headers: sanitizeHeaders(request.headers),
      body: body(request.body),
      ...(rpc ? { rpc: sanitizeText(`${rpc.isResponse ? 'response' : rpc.isNotification ? 'notification' : 'request'} ${rpc.method ?? ''} id=${JSON.stringify(rpc.id) ?? '—'}`) } : {}),
      ...(request.scriptStep === undefined ? {} : { step: request.scriptStep }),
    },
    ...(response
      ? {
          response: {
            status: response.status ?? null,
            headers: sanitizeHeaders(response.headers),
            // SSE responses are shown event by event; the concatenated body would repeat them.
            body: response.events ? '' : body(response.body),
            ...(response.events ? { events: response.events.map((e) => ({ at: e.at, text: body(e.text) })) } : {}),
            ending: response.ending,
            ...(response.endedAt === undefined ? {} : { endedAt: response.endedAt }),
          },
        }
      : {}),
  };
}

function describeRun(run: NonNullable<Cell['targetRun']>, options: DetailsOptions) {
  return {
    exitCode: run.exitCode ?? null,
    signal: run.signal ?? null,
    timedOut: run.timedOut,
    ms: run.durationMs,
    stderr: capTail(sanitizeText(run.stderr ?? ''), options.maxOutputChars),
    stdout: capTail(sanitizeText(run.stdout ?? ''), options.maxOutputChars),
  };
}

/**
 * Positions in one cell's row of the details JSON. Each `*Part` is an index into `parts`, where
 * every distinct value (transcript, checks, schema results, expected list, …) is stored once:
 * a large run repeats them across targets and versions, and per-cell copies made the
 * 100,000-cell report 160 MB. matrix.client.js rebuilds the cell from this row.
 */
export const CELL_ROW = ['case', 'target', 'version', 'status', 'ms', 'repro', 'reasonPart', 'expectedPart', 'actualPart', 'checksPart', 'schemaPart', 'urlPart', 'transcriptPart', 'runPart', 'mismatchPart'] as const;

export type CellRow = [number, number, number, string, number, string, number, number, number, number, number, number, number, number, number];

export interface DetailsData {
  cases: Record<string, unknown>;
  /** Sanitized case ids, target names and protocol versions, referenced by index from rows. */
  caseIds: string[];
  targets: string[];
  versions: string[];
  parts: unknown[];
  cells: CellRow[];
}

// Parts are looked up by the JSON of their raw input (described once per distinct value). A long
// key is kept as its SHA-1 instead: keeping the JSON of every transcript as a key held a second
// copy of the details until the page was written (17 MB of the default run's 76 MB peak for
// matrix.html), and hashing costs about 2.5 µs per cell.
const LONG_KEY_CHARS = 256;
class PartPool {
  readonly parts: unknown[] = [];
  // One map per kind, keyed by the JSON itself (or its hash, in a map of its own, so no raw text
  // can ever equal one): a `kind:json` key was a second copy to hash.
  private readonly index = new Map<string, Map<string, number>>();

  add(kind: string, raw: unknown, describe: () => unknown): number {
    let json = typeof raw === 'string' ? raw : keyOf(raw);
    if (json === undefined) return this.parts.push(describe()) - 1;
    if (json.length > LONG_KEY_CHARS) {
      kind = `${kind}#`;
      json = createHash('sha1').update(json).digest('base64');
    }
    let index = this.index.get(kind);
    if (!index) this.index.set(kind, (index = new Map()));
    let position = index.get(json);
    if (position !== undefined) return position;
    position = this.parts.push(describe()) - 1;
    index.set(json, position);
    return position;
  }
}

// Unserialisable values (a BigInt, a cycle) are simply not shared.
function keyOf(raw: unknown): string | undefined {
  try {
    return JSON.stringify(raw) ?? 'undefined';
  } catch {
    return undefined;
  }
}

class Indexer {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  of(value: string): number {
    let position = this.index.get(value);
    if (position === undefined) {
      position = this.values.push(value) - 1;
      this.index.set(value, position);
    }
    return position;
  }
}

// What went wrong, in one sentence: expected → actual with its cost when an outcome was judged
// wrong, else the first failed check's message, else why the cell was not measured.
function describeCellMismatch(cell: Cell): string {
  if (cell.status === 'pass' || cell.status === 'skip' || cell.status === 'xpass') return '';
  const mismatch = findMismatch(cell);
  if (mismatch) return describeMismatch(mismatch);
  const failed = cell.checks.find((check) => !check.passed && check.level !== 'INFO');
  return failed?.message ?? (cell.status === 'error' ? (cell.reason ?? '') : '');
}

/** The details payload: case texts by id, distinct parts once, and one row per cell in `cells` order. */
export function buildDetails(result: RunResult, cells: readonly Cell[], options: DetailsOptions): DetailsData {
  const cases: Record<string, unknown> = {};
  for (const [id, c] of indexCases(result)) {
    cases[sanitizeText(id)] = {
      title: sanitizeText(c.title),
      layer: sanitizeText(c.layer),
      origin: sanitizeText(c.origin),
      file: sanitizeText(c.file),
      description: sanitizeText(c.description ?? ''),
      expectation: sanitizeText(c.expectation ?? ''),
      policy: sanitizeText(c.policy ?? ''),
      // Only http(s) links become anchors; anything else is shown as text. A reference without its
      // own link gets the page its alias names, at the pinned commit, and that page's title.
      spec: (c.spec ?? []).map((s) => {
        const known = resolveSpecReference(s.ref);
        const url = s.url && /^https?:\/\//i.test(s.url) ? s.url : (known?.url ?? '');
        return { ref: sanitizeText(s.ref), url, title: known?.title ?? '', version: s.version ?? '' };
      }),
    };
  }
  const pool = new PartPool();
  const caseIds = new Indexer();
  const targets = new Indexer();
  const versions = new Indexer();
  const rows = cells.map((cell): CellRow => {
    const run = cell.targetRun;
    return [
      caseIds.of(sanitizeText(cell.case)),
      targets.of(sanitizeText(cell.target)),
      versions.of(cell.protocolVersion),
      cell.status,
      cell.durationMs,
      // One per cell and never repeated: through the shared cache it only evicted the repeated texts.
      redactText(stripControl(cell.repro)),
      pool.add('reason', cell.reason ?? '', () => sanitizeText(cell.reason ?? '')),
      pool.add('expected', cell.expected, () => cell.expected.map((e) => sanitizeValue(e))),
      pool.add('actual', cell.actual, () => cell.actual.map((a) => (a === null ? 'nothing reported' : sanitizeValue(a)))),
      pool.add('checks', cell.checks, () =>
        cell.checks.map((c) => ({
          id: sanitizeText(c.id),
          level: c.level,
          passed: c.passed,
          message: sanitizeText(c.message),
          expected: sanitizeValue(c.expected),
          actual: sanitizeValue(c.actual),
          ...(c.exchange === undefined ? {} : { exchange: c.exchange }),
        })),
      ),
      pool.add('schema', cell.schema, () =>
        cell.schema.map((r) => ({
          version: r.version,
          definition: sanitizeText(r.definition),
          valid: r.valid,
          errors: r.errors.map(sanitizeText),
          sender: r.sender,
          exchange: r.exchange,
        })),
      ),
      pool.add('url', cell.recording?.url ?? '', () => (cell.recording ? sanitizeText(cell.recording.url) : '')),
      pool.add('transcript', cell.recording?.exchanges ?? [], () => cell.recording?.exchanges.map((e) => describeExchange(e, options)) ?? []),
      pool.add('run', run ?? null, () => (run ? describeRun(run, options) : null)),
      // The cell's tooltip: expected → actual in one sentence, with what the mismatch costs.
      pool.add('mismatch', describeCellMismatch(cell), () => sanitizeText(describeCellMismatch(cell))),
    ];
  });
  return { cases, caseIds: caseIds.values, targets: targets.values, versions: versions.values, parts: pool.parts, cells: rows };
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the JS line
 * separators become \u escapes, so no `</script>` or `<!--` can end the block early.
 */
export function serializeJsonForScript(value: unknown): string {
  return escapeJsonForScript(JSON.stringify(value));
}

function escapeJsonForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

// Rows are small; this many go into one chunk so the writer is not called per row.
const ROWS_PER_CHUNK = 256;

/**
 * The same text as `serializeJsonForScript(data)`, in pieces (a part or a batch of rows each):
 * the whole payload as one string, plus the copies each escape pass made, was the largest
 * allocation of a default run's report writing.
 */
export function* serializeDetailsChunks(data: DetailsData): Generator<string> {
  const { parts, cells, ...head } = data;
  const headJson = JSON.stringify(head);
  yield escapeJsonForScript(`${headJson.slice(0, -1)}${headJson.length > 2 ? ',' : ''}"parts":[`);
  for (let i = 0; i < parts.length; i++) yield escapeJsonForScript(`${i ? ',' : ''}${JSON.stringify(parts[i]) ?? 'null'}`);
  yield '],"cells":[';
  for (let i = 0; i < cells.length; i += ROWS_PER_CHUNK) {
    const json = JSON.stringify(cells.slice(i, i + ROWS_PER_CHUNK));
    yield escapeJsonForScript(`${i ? ',' : ''}${json.slice(1, -1)}`);
  }
  yield ']}';
}

/** One cell of the details payload with its parts resolved, as matrix.client.js rebuilds it. */
export function expandCellRow(data: DetailsData, index: number): Record<string, unknown> | undefined {
  const row = data.cells[index];
  if (!row) return undefined;
  const part = (position: number) => data.parts[position];
  const expected = part(row[7]) as unknown[];
  const actual = part(row[8]) as unknown[];
  return {
    c: data.caseIds[row[0]],
    t: data.targets[row[1]],
    v: data.versions[row[2]],
    s: row[3],
    ms: row[4],
    repro: row[5],
    reason: part(row[6]),
    expected,
    actual,
    exchanges: Math.max(expected.length, actual.length),
    checks: part(row[9]),
    schema: part(row[10]),
    url: part(row[11]),
    transcript: part(row[12]),
    run: part(row[13]),
    mismatch: part(row[14]),
  };
}
