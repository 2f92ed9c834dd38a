// The recorded observations of a default run (scripts/record-observations.ts writes them, the
// offline tests read them): each built-in client target's cells with what its library did per
// call and the wire context of the call, as the mapping contract takes it. Records repeat across
// cases and versions, so each distinct one is stored once.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { packagePath } from '../runner/util/package-paths.js';
import type { CallObservation, Cell, RecordedExchange, RunResult } from '../runner/vocabulary/types.js';

export const FIXTURE_PATH = packagePath('test', 'fixtures', 'default-run-observations.json.gz');

export interface MapContextRecord {
  protocolVersion: string;
  toolCallStatuses: number[];
  peerErrorCodes: number[];
}

export interface ObservationFixture {
  format: 'mcp-error-matrix/observations@1';
  /** When the run was made, and with which tool version. */
  recordedFrom: { startedAt: string; tool: string };
  /** target name → target kind (`ts-sdk`, `ai-sdk`, …). */
  targets: Record<string, string>;
  /** Distinct { kind, call, context } triples. */
  records: { kind: string; call: CallObservation; context: MapContextRecord }[];
  /** [target, case, protocol version, status, record index per call]. */
  cells: [string, string, string, string, number[]][];
}

/**
 * The fixture of a run: its built-in client targets' observed cells. Later results (a re-run of the
 * cells a loaded machine left unmeasured) replace earlier ones cell by cell.
 */
export function buildObservationFixture(results: readonly RunResult[]): ObservationFixture {
  const targets: Record<string, string> = {};
  const records: ObservationFixture['records'] = [];
  const index = new Map<string, number>();
  const cells: ObservationFixture['cells'] = [];
  const latest = new Map<string, Cell>();
  for (const result of results) for (const cell of result.cells) if (cell.observed) latest.set(JSON.stringify([cell.target, cell.case, cell.protocolVersion]), cell);
  for (const cell of latest.values()) {
    if (!cell.observed) continue;
    const kind = cell.target.replace(/@.*$/, '');
    targets[cell.target] = kind;
    const context = readContext(cell);
    const positions = cell.observed.calls.map((call) => {
      const key = JSON.stringify([kind, call, context]);
      let position = index.get(key);
      if (position === undefined) {
        position = records.push({ kind, call, context }) - 1;
        index.set(key, position);
      }
      return position;
    });
    cells.push([cell.target, cell.case, cell.protocolVersion, cell.status, positions]);
  }
  const first = results[0]!;
  cells.sort((a, b) => (a.join('\u0000') < b.join('\u0000') ? -1 : 1));
  return { format: 'mcp-error-matrix/observations@1', recordedFrom: { startedAt: first.startedAt, tool: `${first.tool.name} ${first.tool.version}` }, targets, records, cells };
}

/** Reads the fixture written by scripts/record-observations.ts. */
export function readObservationFixture(): ObservationFixture {
  return JSON.parse(gunzipSync(readFileSync(FIXTURE_PATH)).toString('utf8')) as ObservationFixture;
}

// The context of the cell's calls from its recording, as the truth corpus derives it: the status
// of each tools/call POST (0 without one) and the JSON-RPC error codes the server sent for their
// ids (a JSON body or an SSE event's data). A cell of several calls gets the whole cell's.
function readContext(cell: Cell): MapContextRecord {
  const statuses: number[] = [];
  const codes = new Set<number>();
  for (const exchange of cell.recording?.exchanges ?? []) {
    const rpc = exchange.request.rpc;
    if (exchange.request.method !== 'POST' || rpc?.method !== 'tools/call' || rpc.isNotification) continue;
    statuses.push(exchange.response?.status ?? 0);
    for (const code of readErrorCodes(exchange, rpc.id)) codes.add(code);
  }
  return { protocolVersion: cell.protocolVersion, toolCallStatuses: statuses, peerErrorCodes: [...codes] };
}

function readErrorCodes(exchange: RecordedExchange, id: unknown): number[] {
  // trimStart drops a leading BOM too (a body the client reads as Response.text() does).
  const body = (exchange.response?.body ?? '').trimStart();
  const texts = body.startsWith('{') || body.startsWith('[') ? [body] : body.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim());
  const codes: number[] = [];
  for (const text of texts) {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      continue;
    }
    for (const entry of Array.isArray(message) ? message : [message]) {
      if (entry === null || typeof entry !== 'object') continue;
      const record = entry as { id?: unknown; error?: { code?: unknown } };
      if (typeof record.error?.code === 'number' && JSON.stringify(record.id) === JSON.stringify(id)) codes.push(record.error.code);
    }
  }
  return codes;
}
