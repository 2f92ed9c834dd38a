// Runs one cell (case × version × target): mock server, target, recording, judging.
import type { LoadedCase } from '../cases/case-types.js';
import { decideCellStatus } from '../judge/cell-status.js';
import { judgeClient, type CheckRequestMessage } from '../judge/judge-client.js';
import { getAlternatives, getExpectedVerdicts, judgeVerdicts } from '../judge/judge-verdicts.js';
import { startMockServer, type MockServer } from '../mock-server/server.js';
import type { ServerHosts } from './server-hosts.js';
import type { Cell, ProtocolVersion, Recording, SchemaResult, Target, TargetOutcome } from '../types.js';
import { describeThrownMessage } from '../safe-copy.js';
import { copyTargetOutcome } from './copy-target-outcome.js';
import { buildReproCommand, type ReproContext } from './repro.js';
import { CELL_BUDGET_GRACE_MS, getCellBudgetMs } from './cell-budget.js';
import { readStallsSince, setStallAwareTimeout, watchLoopStalls, type LoopStall, type StallAwareTimeout } from '../loop-stall.js';
import { findHarmfulStallMs } from './harmful-stall.js';
import { createCellAbort } from './cell-signal.js';

/**
 * One stall of this process longer than this share of the per-exchange timeout, and than
 * MIN_CLIENT_STALL_MS, leaves a real client's timing unmeasured. Stalls of a few hundred ms are
 * common on a loaded 2-core machine and within what a client's timeout allows for.
 */
const MAX_CLIENT_STALL_SHARE = 0.5;
const MIN_CLIENT_STALL_MS = 1000;

export interface RunCellOptions {
  loaded: LoadedCase;
  protocolVersion: ProtocolVersion;
  target: Target;
  mode: 'http' | 'direct';
  timeoutMs: number;
  signal: AbortSignal;
  /** Schema results of the scripted messages for this case and version (same for every target). */
  schema: SchemaResult[];
  /** Validates the messages a client target sent; none when schemas are off. */
  checkRequest?: CheckRequestMessage | undefined;
  /** The run's shared mock-server listener and connections (classifier targets only); without it each cell starts its own server. */
  hosts?: ServerHosts | undefined;
  /** What the repro line carries beyond the cell (case table, baseline, schemas off). */
  repro?: ReproContext | undefined;
}

/** Runs and judges one cell. Never throws: a broken harness or target becomes an `error` cell. */
export async function runCell(options: RunCellOptions): Promise<Cell> {
  const { loaded, protocolVersion, target, mode } = options;
  const started = performance.now();
  let recording: Recording | undefined;
  let outcome: TargetOutcome;
  const skip = target.skipReason?.(protocolVersion);
  if (skip !== undefined) {
    outcome = { verdicts: [], skip };
  } else {
    const stopWatching = watchLoopStalls();
    const targetStarted = performance.now();
    try {
      const result = await runTarget(options);
      outcome = refuseStalledClientTiming(options, result, readStallsSince(targetStarted));
      recording = result.recording;
    } catch (error) {
      outcome = { verdicts: [], error: `harness error: ${describeThrownMessage(error)}` };
    } finally {
      stopWatching();
    }
  }
  outcome = copyTargetOutcome(outcome);
  const judged = outcome.error === undefined && outcome.skip === undefined;
  const { expected, checks, schema, conclusion } = judgeOutcome(options, outcome, recording, judged);
  const { status, reason } = decideCellStatus(outcome, checks);
  return {
    case: loaded.case.id,
    target: target.info.name,
    protocolVersion,
    status,
    ...(reason === undefined ? {} : { reason }),
    ...(status === 'error' && outcome.errorKind !== undefined ? { errorKind: outcome.errorKind } : {}),
    checks,
    expected,
    actual: expected.map((_, index) => outcome.verdicts[index] ?? null),
    schema,
    ...(recording ? { recording } : {}),
    ...(outcome.run ? { targetRun: outcome.run } : {}),
    ...(judged ? { conclusion } : {}),
    durationMs: Math.round(performance.now() - started),
    repro: buildReproCommand({ ...options.repro, caseId: loaded.case.id, target: target.info.name, protocolVersion, mode, timeoutMs: options.timeoutMs }),
  };
}

/**
 * A real client keeps its own deadlines, in its own process, against the mock server in this one.
 * When this process's event loop stalled at one time, while the server held a request of the cell
 * it was still to answer (harmful-stall.ts), for half the per-exchange timeout or more and at least
 * a second (an overloaded machine), the server may have answered late by that much, and a correct
 * client may have given up: its timing was not measured, so the cell is `error`, its verdicts kept
 * as evidence. A stall while nothing of the cell was in flight (the client still starting) cannot
 * have made the server late. Classifier cells need no such guard: the harness's
 * deadlines do not count stalls (runner/loop-stall.ts), and a harness timeout the script does not
 * cause is an error there (targets/classifier-target.ts).
 */
function refuseStalledClientTiming(options: RunCellOptions, result: TargetResult, stalls: LoopStall[]): TargetOutcome {
  const { outcome, recording, clockOrigin } = result;
  if (options.target.info.kind === 'classifier' || !recording || clockOrigin === undefined) return outcome;
  if (outcome.error !== undefined || outcome.skip !== undefined) return outcome;
  const longestStallMs = findHarmfulStallMs({ stalls, recording, clockOrigin, case: options.loaded.case });
  if (longestStallMs < Math.max(options.timeoutMs * MAX_CLIENT_STALL_SHARE, MIN_CLIENT_STALL_MS)) return outcome;
  const error =
    `not measured: this process's event loop stalled for ${Math.round(longestStallMs)} ms at once while the mock server held a request of the cell (the machine was overloaded), ` +
    `so the mock server may have answered the client late against its own ${options.timeoutMs} ms timeout; ` +
    'run the cell again on a less loaded machine, or with a higher --timeout or a lower --concurrency';
  return { ...outcome, error };
}

/** Classifiers are judged per exchange; real clients (command, SDK adapters) per explicit call and on the wire. */
function judgeOutcome(options: RunCellOptions, outcome: TargetOutcome, recording: Recording | undefined, judged: boolean) {
  const { loaded, protocolVersion, target } = options;
  if (target.info.kind === 'classifier') {
    const expected = getExpectedVerdicts(loaded.case, protocolVersion);
    return { expected, checks: judged ? judgeVerdicts(expected, outcome, getAlternatives(loaded.case)) : [], schema: options.schema, conclusion: 'verdict' as const };
  }
  const client = judgeClient({ case: loaded.case, protocolVersion, outcome, recording, checkRequest: options.checkRequest });
  return { expected: client.expected, checks: judged ? client.checks : [], schema: [...options.schema, ...client.schema], conclusion: client.conclusion };
}

/** What a target run hands back: its outcome and, when it used the mock server, the recording and the clock it counts from. */
interface TargetResult {
  outcome: TargetOutcome;
  recording?: Recording;
  clockOrigin?: number;
}

async function runTarget(options: RunCellOptions): Promise<TargetResult> {
  // The cell's own signal: aborted by the run's, or by the cell budget (the target then stops
  // and hands over what it has, which is kept as evidence). The cells in flight share one
  // listener on the run's signal (cell-signal.ts), so dozens of them do not pile listeners on it.
  const cell = createCellAbort(options.signal);
  try {
    return await runTargetWithin(options, cell.controller);
  } finally {
    cell.release();
  }
}

async function runTargetWithin(options: RunCellOptions, budget: AbortController): Promise<TargetResult> {
  const { loaded, protocolVersion, target, mode } = options;
  const context = { case: loaded.case, protocolVersion, mode, timeoutMs: options.timeoutMs, signal: budget.signal };
  const budgetMs = getCellBudgetMs(options.timeoutMs, loaded.case.exchanges.length, target.getCellLimitMs?.(context));
  if (!target.usesServer(mode)) return { outcome: await withBudget(target.run(context), budgetMs, budget) };
  // Only the built-in harness is known to be done with the server when run() settles (it closes
  // its connections first); client processes may keep connections of their own alive across
  // cells, or send stragglers, so they get a listener of their own.
  if (options.hosts && target.info.kind === 'classifier') {
    const { server, connections } = await options.hosts.open(loaded.case, protocolVersion);
    try {
      const outcome = await withBudget(target.run({ ...context, serverUrl: server.url, ...(connections ? { connections } : {}) }), budgetMs, budget);
      return { outcome, recording: await readSettledRecording(server), clockOrigin: server.clockOrigin };
    } finally {
      // A target past its budget that still sends reaches a closed path: a 404 recorded nowhere.
      await server.close();
    }
  }
  const server = await startMockServer({ case: loaded.case, protocolVersion });
  try {
    const outcome = await withBudget(target.run({ ...context, serverUrl: server.url }), budgetMs, budget);
    return { outcome, recording: await readSettledRecording(server), clockOrigin: server.clockOrigin };
  } finally {
    await server.close();
  }
}

/**
 * How long the recording waits for the server to see a response end once the target is done. The
 * harness closes what it gave up on before it settles, so its cells wait only for the server to
 * read that; a client that leaves a response open past its conclusion costs at most this.
 */
export const RECORDING_SETTLE_MS = 500;

/** The recording once the server has seen the target's last closes (server.settle): the same cell records the same ending every run. */
async function readSettledRecording(server: MockServer): Promise<Recording> {
  await server.settle(RECORDING_SETTLE_MS);
  return server.recording();
}

/**
 * Stops waiting for a target that does not settle within the cell budget: the cell becomes
 * `error`. The target is told to stop (its signal) and given a short grace to hand over what it
 * has; whatever verdict and run record it returns are kept as evidence beside the error.
 */
async function withBudget(run: Promise<TargetOutcome>, budgetMs: number, budget: AbortController): Promise<TargetOutcome> {
  const error = `the target did not finish within the cell budget of ${budgetMs} ms`;
  let timer: StallAwareTimeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setStallAwareTimeout(() => resolve('expired'), budgetMs);
  });
  try {
    const first = await Promise.race([run, expired]);
    if (first !== 'expired') return first;
    budget.abort(new Error(error));
    const grace = new Promise<'gone'>((resolve) => {
      timer = setStallAwareTimeout(() => resolve('gone'), CELL_BUDGET_GRACE_MS);
    });
    const late = await Promise.race([run.catch(() => 'gone' as const), grace]);
    return late === 'gone' ? { verdicts: [], error } : { ...late, error };
  } finally {
    timer?.clear();
  }
}
