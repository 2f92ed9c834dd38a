// Runs the matrix: every selected case × version × target, then summarises.
import { availableParallelism, platform, release } from 'node:os';
import type { LoadedCase } from '../cases/case-types.js';
import type { CheckRequestMessage } from '../judge/judge-client.js';
import { getPackageVersion } from '../util/package-paths.js';
import { CELL_STATUSES, type Cell, type CaseSummary, type ProtocolVersion, type RunResult, type RunSummary, type SchemaInfo, type SchemaResult, type Target, type TargetInfo, type UnmeasuredTarget } from '../vocabulary/types.js';
import type { CellStore } from './cell-store.js';
import { waitsBesidePool } from './estimate-wait.js';
import { MatrixFailure } from './matrix-failure.js';
import { runCell } from './run-cell.js';
import type { ReproContext } from './repro.js';
import { createServerHosts } from './server-hosts.js';
import { runPool } from './run-pool.js';
import { createAdaptiveConcurrency } from './adaptive-concurrency.js';
import { confirmCells, findRerunReason } from './confirm-cells.js';

/** At most this many waiting cells (scripted hangs and delays) run at once beside the pool. */
const MAX_WAITING_LANES = 64;

export interface RunMatrixOptions {
  cases: LoadedCase[];
  targets: Target[];
  /** Only these versions. @default both */
  versions?: ProtocolVersion[];
  /** @default 'http' */
  mode?: 'http' | 'direct';
  /** Per-exchange time budget. @default 2000 */
  timeoutMs?: number;
  /** Cells at once (the start, when adaptive). @default the number of cores */
  concurrency?: number;
  /**
   * Back off from `concurrency` when cells come back starved (adaptive-concurrency.ts).
   * @default true when `concurrency` is not given, false when it is (a given number is pinned)
   */
  adaptive?: boolean;
  signal?: AbortSignal;
  /** Checks the scripted messages of a case under a version against the pinned schemas; null = schemas off. */
  checkSchemas?: ((loaded: LoadedCase, version: ProtocolVersion) => SchemaResult[]) | null;
  schemaInfo?: SchemaInfo[] | null;
  /** Validates each message a client target sent (e.g. `validator.checkRequestMessage`); null = off. */
  checkRequest?: CheckRequestMessage | null;
  /** Called after each cell of the main pass, for progress output. */
  onCell?: (cell: Cell, done: number, total: number) => void;
  /** Called when a cell was run again after the main pass (confirm-cells.ts), with the result kept and the first one. */
  onRerun?: (cell: Cell, first: Cell) => void;
  /** What each cell's repro line carries beyond the cell: the case table, the baseline, schemas off. */
  repro?: ReproContext;
  /**
   * Where each finished cell is kept, by its position in the plan (cell-store.ts). When given, the
   * result's `cells` is empty (its summary and unmeasured targets still count every cell): read
   * them from the store, which may hold them on disk. @default the result's array
   */
  cellStore?: CellStore;
}

/** What the summary and the unmeasured targets read of a cell. */
type CountedCell = Pick<Cell, 'target' | 'status' | 'reason' | 'conclusion'>;

interface PlannedCell {
  loaded: LoadedCase;
  protocolVersion: ProtocolVersion;
  target: Target;
}

/** Plans the cells in a stable order: target, then case id, then version. */
export function planCells(cases: LoadedCase[], targets: Target[], versions?: ProtocolVersion[]): PlannedCell[] {
  const planned: PlannedCell[] = [];
  for (const target of targets) {
    for (const loaded of cases) {
      for (const protocolVersion of loaded.case.versions) {
        if (!versions || versions.includes(protocolVersion)) planned.push({ loaded, protocolVersion, target });
      }
    }
  }
  return planned;
}

/**
 * Runs every planned cell and returns the whole result model. An internal error stops the
 * rest like an abort does and throws a MatrixFailure carrying the incomplete result.
 */
export async function runMatrix(options: RunMatrixOptions): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const mode = options.mode ?? 'http';
  // One stop for the caller's signal and for an internal error: cells check and pass on this one.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const signal = stop.signal;
  let failure: { error: unknown } | undefined;
  const planned = planCells(options.cases, options.targets, options.versions);
  // A case's schema results are the same for every target: checked once, kept until its last cell took them.
  const schemaCache = new Map<string, { results: SchemaResult[]; uses: number }>();
  const schemaUses = new Map<string, number>();
  const schemaKey = (loaded: LoadedCase, version: ProtocolVersion): string => `${loaded.case.id}@${version}`;
  if (options.checkSchemas) {
    for (const cell of planned) {
      const key = schemaKey(cell.loaded, cell.protocolVersion);
      schemaUses.set(key, (schemaUses.get(key) ?? 0) + 1);
    }
  }
  const schemaFor = (loaded: LoadedCase, version: ProtocolVersion): SchemaResult[] => {
    if (!options.checkSchemas) return [];
    const key = schemaKey(loaded, version);
    const entry = schemaCache.get(key) ?? { results: options.checkSchemas(loaded, version), uses: schemaUses.get(key) ?? 1 };
    if (--entry.uses > 0) schemaCache.set(key, entry);
    else schemaCache.delete(key);
    return entry.results;
  };
  let done = 0;
  const store = options.cellStore;
  const planIndex = store ? new Map(planned.map((cell, index) => [cell, index])) : undefined;
  // With a store, only what the counts need stays here.
  const counted: (CountedCell | undefined)[] = [];
  const keepInStore = (cell: PlannedCell, result: Cell): void => {
    const index = planIndex!.get(cell)!;
    store!.put(index, result);
    counted[index] = { target: result.target, status: result.status, ...(result.reason === undefined ? {} : { reason: result.reason }), ...(result.conclusion === undefined ? {} : { conclusion: result.conclusion }) };
  };
  // With a store, a cell stays in memory only while it may be run again (confirm-cells.ts): few.
  const keep = (cell: PlannedCell, result: Cell): Cell | undefined => {
    if (!store) return result;
    keepInStore(cell, result);
    return findRerunReason(result) === undefined ? undefined : result;
  };
  const timeoutMs = options.timeoutMs ?? 2000;
  const cores = availableParallelism();
  const concurrency = createAdaptiveConcurrency({ start: options.concurrency ?? cores, pinned: !(options.adaptive ?? options.concurrency === undefined) });
  const hosts = mode === 'http' ? createServerHosts() : undefined;
  // One cell, once; an internal error stops everything else (the cell, if it ran, is kept).
  const runOnce = async (cell: PlannedCell): Promise<Cell | undefined> => {
    // Interrupted: cells not yet started are left out (the reports say the run is incomplete).
    if (signal.aborted) return undefined;
    try {
      return await runCell({
        ...cell,
        mode,
        timeoutMs,
        signal,
        schema: schemaFor(cell.loaded, cell.protocolVersion),
        checkRequest: options.checkRequest ?? undefined,
        hosts,
        repro: options.repro,
      });
    } catch (error) {
      failure ??= { error };
      stop.abort('fatal');
      return undefined;
    }
  };
  const run = async (cell: PlannedCell): Promise<Cell | undefined> => {
    const epoch = concurrency.begin();
    const result = await runOnce(cell);
    if (result === undefined) return undefined;
    concurrency.onCellDone(epoch, result);
    try {
      options.onCell?.(result, ++done, planned.length);
    } catch (error) {
      failure ??= { error };
      stop.abort('fatal');
    }
    return keep(cell, result);
  };
  // A cell that mostly waits (a scripted hang or delay, a reset's settle) would hold a CPU slot doing
  // nothing: such cells start at once in lanes of their own, so their waits overlap with everything else.
  const waits = (cell: PlannedCell): boolean => cell.target.usesServer(mode) && waitsBesidePool(cell.loaded.case, timeoutMs, cell.target.info.kind === 'classifier');
  const waitsOf = new Set(planned.filter(waits));
  const waiting = planned.filter((cell) => waitsOf.has(cell));
  const busy = planned.filter((cell) => !waitsOf.has(cell));
  let cells: Cell[];
  let reruns: RunResult['reruns'];
  try {
    const [waited, worked] = await Promise.all([runPool(waiting, MAX_WAITING_LANES, run), runPool(busy, concurrency, run)]);
    const byCell = new Map<PlannedCell, Cell | undefined>();
    waiting.forEach((cell, index) => byCell.set(cell, waited[index]!));
    busy.forEach((cell, index) => byCell.set(cell, worked[index]!));
    const ran = planned.flatMap((cell) => {
      const result = byCell.get(cell);
      return result === undefined ? [] : [{ planned: cell, cell: result }];
    });
    // Confirm before judging: cells the load may have decided run again, few at a time (confirm-cells.ts).
    ({ cells, reruns } = await confirmCells({ cells: ran, rerun: runOnce, waits, cores, signal, ...(options.onRerun ? { onRerun: options.onRerun } : {}) }));
    // With a store, `ran` held only the cells to confirm: the results kept replace their first ones there.
    if (store) {
      cells.forEach((result, position) => keepInStore(ran[position]!.planned, result));
      cells = [];
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await hosts?.close();
  }
  const countable: readonly CountedCell[] = store ? counted.filter((cell): cell is CountedCell => cell !== undefined) : cells;
  const unmeasured = findUnmeasuredTargets(options.targets.map((target) => target.info), countable, options.versions);
  const result: RunResult = {
    format: 'mcp-error-matrix/results@1',
    tool: { name: 'mcp-error-matrix', version: getPackageVersion() },
    startedAt,
    finishedAt: new Date().toISOString(),
    complete: !signal.aborted,
    mode,
    node: process.version,
    platform: `${platform()} ${release()}`,
    schemas: options.schemaInfo ?? null,
    cases: summariseCases(options.cases),
    targets: options.targets.map((target) => target.info),
    cells,
    summary: summariseCells(countable),
    ...(unmeasured.length > 0 ? { unmeasured } : {}),
    ...(reruns ? { reruns } : {}),
    concurrency: concurrency.info(),
  };
  if (failure) throw new MatrixFailure(failure.error, result);
  return result;
}

/**
 * Targets that got no measured cell: every cell skipped, or none planned (e.g. a `--version`
 * the target's cases do not have). Nothing measured is not green: such a run exits 1.
 */
export function findUnmeasuredTargets(targets: TargetInfo[], cells: readonly Pick<Cell, 'target' | 'status' | 'reason'>[], versions?: ProtocolVersion[]): UnmeasuredTarget[] {
  const byTarget = new Map<string, Pick<Cell, 'target' | 'status' | 'reason'>[]>(targets.map((target) => [target.name, []]));
  for (const cell of cells) byTarget.get(cell.target)?.push(cell);
  const unmeasured: UnmeasuredTarget[] = [];
  for (const [target, own] of byTarget) {
    if (own.some((cell) => cell.status !== 'skip')) continue;
    const reasons = [...new Set(own.map((cell) => cell.reason ?? 'skipped'))];
    const reason =
      own.length === 0
        ? `no cell was run for it${versions ? ` (selected versions: ${versions.join(', ')})` : ''}`
        : `all ${own.length} of its cells were skipped: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more reasons` : ''}`;
    unmeasured.push({ target, reason });
  }
  return unmeasured;
}

/** Counts cells per status. */
export function summariseCells(cells: Iterable<Pick<Cell, 'status' | 'conclusion'>>): RunSummary {
  const summary = Object.fromEntries(CELL_STATUSES.map((status) => [status, 0])) as RunSummary;
  summary.total = 0;
  summary.pass_exit_status = 0;
  summary.pass_wire_only = 0;
  for (const cell of cells) {
    summary.total++;
    summary[cell.status]++;
    // A pass whose conclusion the client never stated is counted apart (docs/targets.md § Your own client: command targets).
    if (cell.status === 'pass' && cell.conclusion === 'exit_status') summary.pass_exit_status++;
    if (cell.status === 'pass' && cell.conclusion === 'wire_only') summary.pass_wire_only++;
  }
  return summary;
}

/**
 * The cases as the result lists them. Equal texts and lists are held once: a table generated from a
 * template repeats its titles, descriptions and references, and a result of 100,000 cases held each
 * copy apart (60 MB of one description and its like; issue 28 item 4).
 */
function summariseCases(cases: readonly LoadedCase[]): CaseSummary[] {
  const shared = new Map<string, unknown>();
  const once = <T>(value: T): T => {
    const key = typeof value === 'string' ? `s${value}` : `j${JSON.stringify(value)}`;
    const known = shared.get(key);
    if (known !== undefined) return known as T;
    shared.set(key, value);
    return value;
  };
  return cases.map((loaded) => {
    const item = loaded.case;
    return {
      id: item.id,
      title: once(item.title),
      layer: once(item.layer),
      origin: once(item.origin),
      description: once(item.description),
      ...(item.expectation === undefined ? {} : { expectation: once(item.expectation) }),
      ...(item.policy === undefined ? {} : { policy: once(item.policy) }),
      spec: once(item.spec),
      file: loaded.relativeFile,
      sha256: loaded.sha256,
      versions: once(item.versions),
    };
  });
}
