// Per-cell details for the HTML matrix, embedded once as JSON and turned into DOM on click, so
// a 6,000-cell report does not carry 6,000 rendered transcripts. Repeated parts are stored once.
// All text is sanitized here.
import { createHash } from 'node:crypto';
import type { Cell, RecordedExchange, RunResult } from '../runner/types.js';
import { describeMismatch, findMismatch } from './describe-mismatch.js';
import { describeCases, markRepro, restoreRepro } from './html-details-text.js';
import { escapeJsonForScript } from './html-json-script.js';
import { SpilledParts } from './spilled-parts.js';
import { redactText, sanitizeHeaders, sanitizeText, sanitizeValue, stripControl } from './redact.js';

export interface DetailsOptions {
  /** Characters kept per request/response body and per SSE event. */
  maxBodyChars: number;
  /** Characters kept from the end of target stderr/stdout. */
  maxOutputChars: number;
  /** Keep the distinct parts in a temporary file until they are written (a large run). @default false */
  spillParts?: boolean;
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
 * Positions in one cell's row of the details JSON. `reproPart` is the cell's command with its
 * case id, target and version written as markers (REPRO_MARKS), so the commands of a run share
 * a few parts; `partsPart` is a part listing the cell's other parts (CELL_PARTS), each an index
 * into `parts`, where every distinct value (transcript, checks, …) is stored once. A large run
 * repeats them across targets and versions: per-cell copies made the 100,000-cell report
 * 160 MB, and per-cell commands and part lists still made its details 13 MB, most of the time
 * Chromium took to open it. matrix.client.js rebuilds the cell from this row.
 */
export const CELL_ROW = ['case', 'target', 'version', 'status', 'ms', 'reproPart', 'partsPart'] as const;
export const CELL_PARTS = ['reason', 'expected', 'actual', 'checks', 'schema', 'url', 'transcript', 'run', 'mismatch'] as const;

export type CellRow = [number, number, number, string, number, number, number];

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

  /** With `spilled`, each new part goes there as the text it is written as (`parts` stays empty). */
  constructor(readonly spilled?: SpilledParts) {}

  add(kind: string, raw: unknown, describe: () => unknown): number {
    let json = typeof raw === 'string' ? raw : keyOf(raw);
    if (json === undefined) return this.keep(describe());
    if (json.length > LONG_KEY_CHARS) {
      kind = `${kind}#`;
      json = createHash('sha1').update(json).digest('base64');
    }
    let index = this.index.get(kind);
    if (!index) this.index.set(kind, (index = new Map()));
    let position = index.get(json);
    if (position !== undefined) return position;
    position = this.keep(describe());
    index.set(json, position);
    return position;
  }

  private keep(part: unknown): number {
    if (!this.spilled) return this.parts.push(part) - 1;
    const position = this.spilled.count;
    return this.spilled.push(escapeJsonForScript(`${position ? ',' : ''}${JSON.stringify(part) ?? 'null'}`));
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

// Rows are small; this many go into one chunk so the writer is not called per row.
const ROWS_PER_CHUNK = 256;

/**
 * The details payload, built cell by cell in the order the cells come (one pass, no cell kept):
 * each row joins a batch that is serialized as soon as it is full, so the rows exist as text only.
 * The case texts, the distinct parts and the name tables are complete once every cell is added.
 */
export class DetailsBuilder {
  readonly cases: Record<string, unknown>;
  private readonly pool: PartPool;
  private readonly caseIds = new Indexer();
  private readonly targets = new Indexer();
  private readonly versions = new Indexer();
  private batch: CellRow[] = [];
  private written = 0;

  constructor(
    result: Pick<RunResult, 'cases'>,
    private readonly options: DetailsOptions,
  ) {
    this.cases = describeCases(result);
    this.pool = new PartPool(options.spillParts ? new SpilledParts() : undefined);
  }

  /** The parts as the text they are written as, when they were kept on disk (`spillParts`); the file goes once read. */
  partChunks(): Iterable<string> | undefined {
    return this.pool.spilled?.read();
  }

  /** Adds the next cell; returns a chunk of serialized rows when a batch is full. */
  add(cell: Cell): string | undefined {
    this.batch.push(this.describeRow(cell));
    return this.batch.length >= ROWS_PER_CHUNK ? this.flush() : undefined;
  }

  /** The rows not yet returned, serialized (continuing the list the earlier chunks began). */
  flush(): string | undefined {
    if (!this.batch.length) return undefined;
    const json = JSON.stringify(this.batch);
    const chunk = escapeJsonForScript(`${this.written ? ',' : ''}${json.slice(1, -1)}`);
    this.written += this.batch.length;
    this.batch = [];
    return chunk;
  }

  /** Everything but the rows: case texts, name tables and parts (complete after the last cell). */
  finish(): Omit<DetailsData, 'cells'> {
    return { cases: this.cases, caseIds: this.caseIds.values, targets: this.targets.values, versions: this.versions.values, parts: this.pool.parts };
  }

  private describeRow(cell: Cell): CellRow {
    const { pool, options } = this;
    const run = cell.targetRun;
    const caseId = sanitizeText(cell.case);
    const target = sanitizeText(cell.target);
    // One per cell unless marked: through the shared cache it only evicted the repeated texts.
    const repro = markRepro(redactText(stripControl(cell.repro)), caseId, target, cell.protocolVersion);
    const parts = [
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
    const list = JSON.stringify(parts);
    return [this.caseIds.of(caseId), this.targets.of(target), this.versions.of(cell.protocolVersion), cell.status, cell.durationMs, pool.add('repro', repro, () => repro), pool.add('cell', list, () => parts)];
  }
}

/** One cell of the details payload with its parts resolved, as matrix.client.js rebuilds it. */
export function expandCellRow(data: DetailsData, index: number): Record<string, unknown> | undefined {
  const row = data.cells[index];
  if (!row) return undefined;
  const [c, t, v] = [data.caseIds[row[0]]!, data.targets[row[1]]!, data.versions[row[2]]!];
  const list = data.parts[row[6]] as number[];
  const part = (name: (typeof CELL_PARTS)[number]) => data.parts[list[CELL_PARTS.indexOf(name)]!];
  const expected = part('expected') as unknown[];
  const actual = part('actual') as unknown[];
  return {
    c,
    t,
    v,
    s: row[3],
    ms: row[4],
    repro: restoreRepro(data.parts[row[5]] as string, c, t, v),
    reason: part('reason'),
    expected,
    actual,
    exchanges: Math.max(expected.length, actual.length),
    checks: part('checks'),
    schema: part('schema'),
    url: part('url'),
    transcript: part('transcript'),
    run: part('run'),
    mismatch: part('mismatch'),
  };
}
