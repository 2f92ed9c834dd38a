// Per-cell details for the HTML matrix, embedded once as JSON and turned into DOM on click, so
// a 6,000-cell report does not carry 6,000 rendered transcripts. Repeated parts are stored once,
// and the bulky ones (checks, schema results, transcripts, target output: 95 % of the default
// run's 24 MB of details) in gzip blocks the page unpacks on click (issue 30). All text is
// sanitized here.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Cell, RecordedExchange, RunResult } from '../../runner/vocabulary/types.js';
import { describeMismatch, findMismatch } from '../model/index.js';
import { describeCases, markRepro, restoreRepro } from './html-details-text.js';
import { escapeJsonForScript } from './html-json-script.js';
import { SpilledParts } from './spilled-parts.js';
import { redactText, sanitizeHeaders, sanitizeText, sanitizeValue, stripControl } from '../redaction/redact.js';

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
 * a few parts; `mismatchPart` is its tooltip sentence; `detailsRef` is an evidence reference to
 * the list of the cell's other parts (CELL_PARTS), each an evidence reference too, where every
 * distinct value (transcript, checks, …) is stored once. A large run repeats them across
 * targets and versions: per-cell copies made the 100,000-cell report 160 MB, and per-cell
 * commands and part lists still made its details 13 MB, most of the time Chromium took to open
 * it. matrix.client.js rebuilds the cell from this row.
 */
export const CELL_ROW = ['case', 'target', 'version', 'status', 'ms', 'reproPart', 'mismatchPart', 'detailsRef'] as const;
export const CELL_PARTS = ['reason', 'expected', 'actual', 'checks', 'schema', 'url', 'transcript', 'run', 'observed'] as const;

export type CellRow = [number, number, number, string, number, number, number, number];

export interface DetailsData {
  cases: Record<string, unknown>;
  /** Sanitized case ids, target names and protocol versions, referenced by index from rows. */
  caseIds: string[];
  targets: string[];
  versions: string[];
  /** Parts by index (the commands and the tooltip sentences); a negative reference -1-e is evidence entry e. */
  parts: unknown[];
  evidence: EvidenceData;
  cells: CellRow[];
}

/**
 * Evidence entries in gzip blocks, each block a JSON array, gzip, base64. A reference -1-e names
 * entry e: block floor(e / BLOCK_REF_SPAN), position e % BLOCK_REF_SPAN in it.
 */
export interface EvidenceData {
  blocks: string[];
}

/** The span of evidence references per block (a block never holds more entries). */
export const BLOCK_REF_SPAN = 65_536;

// The kinds kept in evidence blocks: what the panel shows below the cell's sentence, and the
// cells' lists of them. Only the commands and the tooltips' sentences are plain.
const EVIDENCE_KINDS: ReadonlySet<string> = new Set([...CELL_PARTS, 'cell']);

// JSON characters per block. Larger blocks compress a little better; smaller ones unpack faster
// on the first click.
const EVIDENCE_BLOCK_CHARS = 128 * 1024;

/**
 * Evidence entries, one open block per kind (a block of transcripts compresses far better than
 * transcripts, checks and target output interleaved: the run's cells come target by target, so
 * the same case's transcripts are a target's worth of cells apart), sealed into gzip as they
 * fill, so a large run keeps only compressed bytes.
 */
class EvidenceBlocks {
  readonly blocks: (string | undefined)[] = [];
  private readonly open = new Map<string, { block: number; entries: string[]; chars: number }>();

  push(kind: string, value: unknown): number {
    const json = JSON.stringify(value) ?? 'null';
    let block = this.open.get(kind);
    if (!block) this.open.set(kind, (block = { block: this.blocks.push(undefined) - 1, entries: [], chars: 0 }));
    const ref = block.block * BLOCK_REF_SPAN + block.entries.length;
    block.entries.push(json);
    block.chars += json.length;
    if (block.chars >= EVIDENCE_BLOCK_CHARS || block.entries.length >= BLOCK_REF_SPAN) this.seal(kind);
    return ref;
  }

  /** Seals every open block; the data is complete after this (sealing again adds nothing). */
  finish(): EvidenceData {
    for (const kind of [...this.open.keys()]) this.seal(kind);
    return { blocks: this.blocks.map((block) => block ?? '') };
  }

  private seal(kind: string): void {
    const block = this.open.get(kind);
    if (!block) return;
    this.blocks[block.block] = gzipSync(`[${block.entries.join(',')}]`).toString('base64');
    this.open.delete(kind);
  }
}

// Parts are looked up by the JSON of their raw input (described once per distinct value). A long
// key is kept as its SHA-1 instead: keeping the JSON of every transcript as a key held a second
// copy of the details until the page was written (17 MB of the default run's 76 MB peak for
// matrix.html), and hashing costs about 2.5 µs per cell.
const LONG_KEY_CHARS = 256;
class PartPool {
  readonly parts: unknown[] = [];
  readonly evidence = new EvidenceBlocks();
  // One map per kind, keyed by the JSON itself (or its hash, in a map of its own, so no raw text
  // can ever equal one): a `kind:json` key was a second copy to hash.
  private readonly index = new Map<string, Map<string, number>>();

  /** With `spilled`, each new part goes there as the text it is written as (`parts` stays empty). */
  constructor(readonly spilled?: SpilledParts) {}

  add(kind: string, raw: unknown, describe: () => unknown): number {
    const inEvidence = EVIDENCE_KINDS.has(kind);
    const store = (value: unknown) => (inEvidence ? -1 - this.evidence.push(kind, value) : this.keep(value));
    let json = typeof raw === 'string' ? raw : keyOf(raw);
    if (json === undefined) return store(describe());
    if (json.length > LONG_KEY_CHARS) {
      kind = `${kind}#`;
      json = createHash('sha1').update(json).digest('base64');
    }
    let index = this.index.get(kind);
    if (!index) this.index.set(kind, (index = new Map()));
    let position = index.get(json);
    if (position !== undefined) return position;
    position = store(describe());
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
    return { cases: this.cases, caseIds: this.caseIds.values, targets: this.targets.values, versions: this.versions.values, evidence: this.pool.evidence.finish(), parts: this.pool.parts };
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
      // What the library did with each call, before any mapping, shown beside the mapped outcome.
      pool.add('observed', cell.observed ?? null, () => describeObserved(cell.observed)),
    ];
    const list = JSON.stringify(parts);
    // The cell's tooltip: expected → actual in one sentence, with what the mismatch costs.
    const mismatch = describeCellMismatch(cell);
    return [
      this.caseIds.of(caseId),
      this.targets.of(target),
      this.versions.of(cell.protocolVersion),
      cell.status,
      cell.durationMs,
      pool.add('repro', repro, () => repro),
      pool.add('mismatch', mismatch, () => sanitizeText(mismatch)),
      pool.add('cell', list, () => parts),
    ];
  }
}

// Each payload's evidence, unpacked once (tests expand every cell of a page).
const unpacked = new WeakMap<EvidenceData, unknown[][]>();

/** Every evidence block of a payload, unpacked (what the page does block by block, on click). */
export function unpackEvidence(evidence: EvidenceData): unknown[][] {
  let blocks = unpacked.get(evidence);
  if (!blocks) {
    blocks = evidence.blocks.map((block) => JSON.parse(gunzipSync(Buffer.from(block, 'base64')).toString('utf8')) as unknown[]);
    unpacked.set(evidence, blocks);
  }
  return blocks;
}

/** Evidence entry e (a reference -1-e) of a payload. */
export function findEvidence(evidence: EvidenceData, entry: number): unknown {
  return unpackEvidence(evidence)[Math.floor(entry / BLOCK_REF_SPAN)]?.[entry % BLOCK_REF_SPAN];
}

/** One cell of the details payload with its parts resolved, as matrix.client.js rebuilds it. */
export function expandCellRow(data: DetailsData, index: number): Record<string, unknown> | undefined {
  const row = data.cells[index];
  if (!row) return undefined;
  const [c, t, v] = [data.caseIds[row[0]]!, data.targets[row[1]]!, data.versions[row[2]]!];
  const resolve = (ref: number) => (ref < 0 ? findEvidence(data.evidence, -1 - ref) : data.parts[ref]);
  const list = resolve(row[7]) as number[];
  const part = (name: (typeof CELL_PARTS)[number]) => resolve(list[CELL_PARTS.indexOf(name)]!);
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
    mismatch: data.parts[row[6]],
    observed: part('observed'),
  };
}

/** The observation as the detail panel shows it: one sanitized JSON text per call, and the tools/call count. */
function describeObserved(observed: Cell['observed']): { calls: string[]; sent: number } | null {
  if (!observed) return null;
  return { calls: observed.calls.map((call) => sanitizeValue(call)), sent: observed.toolCallsSent };
}
