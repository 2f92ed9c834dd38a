// Runs one cell (case × version × target): mock server, target, recording, judging.
import type { LoadedCase } from '../cases/case-types.js';
import { decideCellStatus } from '../judge/cell-status.js';
import { judgeClient, type CheckRequestMessage } from '../judge/judge-client.js';
import { getAlternatives, getExpectedVerdicts, judgeVerdicts } from '../judge/judge-verdicts.js';
import { startMockServer, type MockServer } from '../mock-server/server.js';
import type { ServerHosts } from './server-hosts.js';
import type { Cell, CellTiming, ProcessStarvation, ProtocolVersion, Recording, SchemaResult, Target, TargetOutcome } from '../vocabulary/types.js';
import { describeThrownMessage } from '../util/safe-copy.js';
import { copyTargetOutcome } from './copy-target-outcome.js';
import { buildReproCommand, type ReproContext } from './repro.js';
import { CELL_BUDGET_GRACE_MS, getCellBudgetMs } from './cell-budget.js';
import { setStallAwareTimeout, watchLoopStalls, type StallAwareTimeout } from '../starvation/loop-stall.js';
import { describeStarvedCell, describeStarvedError, isDeadlineBound, markStarved } from '../starvation/judge-starvation.js';
import { startRunnerMeter } from '../starvation/measure-runner.js';
import { findAnswerWindows, isCallAnswerDue } from '../starvation/answer-windows.js';
import { createCellAbort } from './cell-signal.js';

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
  let timing: CellTiming | undefined;
  let clockOrigin: number | undefined;
  const skip = target.skipReason?.(protocolVersion);
  if (skip !== undefined) {
    outcome = { verdicts: [], skip };
  } else {
    const stopWatching = watchLoopStalls();
    const meter = startRunnerMeter();
    try {
      const result = await runTarget(options);
      recording = result.recording;
      clockOrigin = result.clockOrigin;
      outcome = result.outcome;
    } catch (error) {
      outcome = { verdicts: [], error: `harness error: ${describeThrownMessage(error)}` };
    }
    // In direct mode no deadline runs: the scripted bytes are handed over as they are.
    if (target.usesServer(mode)) {
      const answers = recording && clockOrigin !== undefined ? { recording, clockOrigin, case: loaded.case } : undefined;
      const windows = answers ? findAnswerWindows(answers, meter.readStalls()) : [];
      ({ outcome, timing } = judgeStarvation(options, outcome, meter.stop(windows), answers ? isCallAnswerDue(answers) : true));
    }
    stopWatching();
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
    ...(status === 'error' && outcome.errorKind !== undefined ? { errorKind: outcome.errorKind } : {}),
    ...(outcome.observed ? { observed: { calls: outcome.observed.calls, toolCallsSent: outcome.observed.toolCallsSent ?? countToolCalls(recording) } } : {}),
    ...(timing ? { timing } : {}),
    durationMs: Math.round(performance.now() - started),
    repro: buildReproCommand({ ...options.repro, caseId: loaded.case.id, target: target.info.name, protocolVersion, mode, timeoutMs: options.timeoutMs }),
  };
}

/** The tools/call requests the mock server received: what a library sent when it cannot count its own (mcp-remote). */
function countToolCalls(recording: Recording | undefined): number {
  return (recording?.exchanges ?? []).filter((exchange) => exchange.request.method === 'POST' && exchange.request.rpc?.method === 'tools/call' && !exchange.request.rpc.isNotification).length;
}

/**
 * How starved each process that timed the cell was (the runner's own meter, and what the target
 * measured of its worker or client processes), and whether that leaves the outcome unmeasured: when
 * a deadline produced it (judge-starvation.ts isDeadlineBound) while a process was starved past the
 * threshold, the load may have decided it. A real client keeps its own deadlines in its own
 * process, against the mock server in this one; the harness of a classifier counts its deadlines in
 * time this process could run (loop-stall.ts), but at most twice their time, so a runner that
 * stood still longer still ends them early (a reference cell concluded NO_RESPONSE instead of
 * STREAM_INCOMPLETE at load 27-39, its runner still for 5.4 s of 6.4). Such a cell is `error` (kind
 * `starved`), its verdicts kept as evidence; runMatrix runs it again after the main pass
 * (confirm-cells.ts). So is a target's own error while a process was starved: the load may have
 * caused it. An outcome the answer produced stands whatever the load: it was seen.
 */
function judgeStarvation(options: RunCellOptions, outcome: TargetOutcome, runner: ProcessStarvation, callAnswerDue: boolean): { outcome: TargetOutcome; timing: CellTiming } {
  const processes = markStarved([runner, ...(outcome.starvation ?? [])], options.timeoutMs, options.target.info.kind === 'classifier');
  const deadlineBound = outcome.skip === undefined && isDeadlineBound(outcome);
  const timing: CellTiming = { ...(deadlineBound ? { deadlineBound: true as const } : {}), processes };
  const starved = processes.filter((process) => process.starved);
  const { starvation: _measured, ...rest } = outcome;
  // No tools/call answer was ever due (each hung from the start): the client ends the same on any
  // machine. An interrupted run stopped the target itself: nothing to run again.
  if (!callAnswerDue || starved.length === 0 || outcome.errorKind !== undefined || options.signal.aborted) return { outcome: rest, timing };
  // A target that failed while starved (an SDK worker's connect that broke off at load 20-30, its
  // runner still for 14.6 s of 15) has not shown that the failure is its own.
  if (outcome.error !== undefined) return { outcome: { ...rest, error: describeStarvedError(outcome.error, starved, options.timeoutMs), errorKind: 'starved' }, timing };
  if (!deadlineBound) return { outcome: rest, timing };
  return { outcome: { ...rest, error: describeStarvedCell(starved, options.timeoutMs), errorKind: 'starved' }, timing };
}

/** Classifiers are judged per exchange; real clients (command, SDK adapters) per explicit call and on the wire. */
function judgeOutcome(options: RunCellOptions, outcome: TargetOutcome, recording: Recording | undefined, judged: boolean) {
  const { loaded, protocolVersion, target } = options;
  if (target.info.kind === 'classifier') {
    const expected = getExpectedVerdicts(loaded.case, protocolVersion);
    return { expected, checks: judged ? judgeVerdicts(expected, outcome, getAlternatives(loaded.case, protocolVersion)) : [], schema: options.schema, conclusion: 'verdict' as const };
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
 * read that; a client that leaves a response open past its conclusion costs at most this. Counted
 * in time this process could run (server.settle is stall-aware, loop-stall.ts): a loop that
 * stalled or waited for a CPU meanwhile gets that time again, up to twice the wait.
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
    return late === 'gone' ? { verdicts: [], error, errorKind: 'timeout' } : { ...late, error, errorKind: 'timeout' };
  } finally {
    timer?.clear();
  }
}
