// Compares one recorded cell of the truth corpus: the stack's mapping applied to what the library
// gave a plain application (the probe) against what the built-in adapter concluded, and the
// adapter's own record of the library against the probe's.
import type { TruthCell } from './truth-record.js';
import type { MapContext } from './wire-context.js';

/** The mapping contract (docs/adapter-observation.md): runner/targets/sdk/map-observation.mjs. */
export type MapObservation = (kind: string, call: unknown, context: MapContext) => MapResult;
export type MapResult = { verdict: { outcome: string; status?: number; code?: number; detail?: string } } | { gap: string } | { none: string };

export interface Disagreement {
  cell: string;
  call?: number;
  /** What the probe saw the library do. */
  probe: unknown;
  /** The mapping's reading of it; absent where two observations are compared. */
  mapped?: MapResult | 'connect failed';
  /** What the adapter concluded for the call (or the cell's status and reason), or its own observation. */
  adapter: unknown;
}

/** The calls of a cell where the mapping of the probe's observation is not the adapter's conclusion. */
export function findOutcomeDisagreements(kind: string, cell: TruthCell, mapObservation: MapObservation): Disagreement[] {
  const name = `${cell.case} @ ${cell.protocolVersion}`;
  const adapterCell = { status: cell.adapter.status, ...(cell.adapter.reason ? { reason: cell.adapter.reason } : {}) };
  // The probe could not even connect: the adapter has no conclusion to compare, only an error cell.
  if ('openFailed' in cell.probe) {
    return cell.adapter.status === 'error' ? [] : [{ cell: name, probe: cell.probe, mapped: 'connect failed', adapter: adapterCell }];
  }
  const found: Disagreement[] = [];
  cell.probe.calls.forEach((call, index) => {
    const mapped = mapObservation(kind, call.observation, call.context);
    const actual = cell.adapter.actual[index];
    if (!agrees(mapped, actual, cell.adapter.status)) {
      found.push({ cell: name, call: index + 1, probe: call, mapped, adapter: actual === undefined ? adapterCell : { ...adapterCell, actual } });
    }
  });
  return found;
}

function agrees(mapped: MapResult, actual: TruthCell['adapter']['actual'][number] | undefined, status: string): boolean {
  // A gap is our table's: the adapter must say so with an error cell, never a verdict of its own.
  if ('gap' in mapped) return status === 'error';
  // The library concluded nothing (it hung until the host aborted, or died): no verdict either.
  if ('none' in mapped) return status !== 'error' && (actual === null || actual === undefined);
  if (status === 'error' || !actual) return false;
  const want = mapped.verdict;
  return want.outcome === actual.outcome && want.status === actual.status && want.code === actual.code;
}

/** The parts of a record the adapter and the probe must both have seen alike. */
export interface ObservationKey {
  shape: 'returned' | 'threw' | 'hung' | 'missing';
  class?: string;
  instanceOf?: string[];
  code?: string | number;
  status?: number;
}

/** What identifies a library's answer: its shape, and for a throw its class, instanceOf, code and status. */
export function keyOf(observation: unknown): ObservationKey {
  if (!isRecord(observation)) return { shape: 'missing' };
  if ('returned' in observation) return { shape: 'returned' };
  if ('hung' in observation) return { shape: 'hung' };
  if (!isRecord(observation.threw)) return { shape: 'missing' };
  const thrown = observation.threw;
  return {
    shape: 'threw',
    ...(typeof thrown.class === 'string' ? { class: thrown.class } : {}),
    ...(Array.isArray(thrown.instanceOf) ? { instanceOf: [...(thrown.instanceOf as string[])].sort() } : {}),
    ...(typeof thrown.code === 'string' || typeof thrown.code === 'number' ? { code: thrown.code } : {}),
    ...(typeof thrown.status === 'number' ? { status: thrown.status } : {}),
  };
}

/** The calls where the adapter's record of the library (`observed`) differs from the probe's. */
export function findObservationDifferences(cell: TruthCell): Disagreement[] {
  if ('openFailed' in cell.probe || cell.adapter.status === 'skip') return [];
  const observed = isRecord(cell.adapter.observed) && Array.isArray(cell.adapter.observed.calls) ? (cell.adapter.observed.calls as unknown[]) : [];
  const found: Disagreement[] = [];
  cell.probe.calls.forEach((call, index) => {
    const probeKey = keyOf(call.observation);
    const adapterKey = keyOf(observed[index]);
    if (JSON.stringify(probeKey) !== JSON.stringify(adapterKey)) {
      found.push({ cell: `${cell.case} @ ${cell.protocolVersion}`, call: index + 1, probe: summarise(call.observation, probeKey), adapter: observed[index] === undefined ? 'no observed record' : summarise(observed[index], adapterKey) });
    }
  });
  return found;
}

/** One readable block per disagreement, for a failing test's message. */
export function formatDisagreements(target: string, disagreements: Disagreement[]): string {
  return disagreements
    .map((item) =>
      [
        `${target} ${item.cell}${item.call ? ` call ${item.call}` : ''}`,
        `  probe:   ${JSON.stringify(item.probe).slice(0, 1200)}`,
        ...(item.mapped === undefined ? [] : [`  mapped:  ${JSON.stringify(item.mapped).slice(0, 400)}`]),
        `  adapter: ${JSON.stringify(item.adapter).slice(0, 1200)}`,
      ].join('\n'),
    )
    .join('\n');
}

// The compared parts of an observation and the start of its message: enough to see the difference.
function summarise(observation: unknown, key: ObservationKey): unknown {
  const thrown = isRecord(observation) && isRecord(observation.threw) ? observation.threw : undefined;
  return thrown ? { ...key, message: String(thrown.message).slice(0, 200) } : key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
