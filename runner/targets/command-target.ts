// `command:<command line>`: any client in any language as a target. Per cell the runner runs
// the command through the shell with the mock server's URL appended as the last argument,
// reads what the client reported, and leaves the judging of the wire to judge-client.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERDICT_FILE_MAX_BYTES } from '../io/input-caps.js';
import { readUserText, UserFileError } from '../io/read-user-file.js';
import { getDefaultTargetLimitMs } from '../run/cell-budget.js';
import type { ProtocolVersion, Target, TargetContext, TargetInfo, TargetOutcome, TargetRunInfo } from '../vocabulary/types.js';
import { buildClientEnv } from './command/client-env.js';
import { findCommandSource, parseCommandSpec, type CommandSpec } from './command/parse-command-spec.js';
import { readClientReport } from './command/read-client-report.js';
import { createMarkToken, killMarkedProcesses, RUN_MARK_VARIABLE } from './command/process-marks.js';
import { spawnClient, type ClientProcessResult } from './command/spawn-client.js';
import { PersistentPool } from './command/persistent-pool.js';
import { describeOutsideStop, findStopSignal } from './stop-signals.js';

/** Exit status a client uses to say "I do not speak this case or version" (the automake SKIP code). */
export const SKIP_EXIT_CODE = 77;

export interface CommandTargetOptions extends CommandSpec {
  /** The name in reports. @default `command:<command line>` */
  name?: string;
  /** @default process.cwd() */
  cwd?: string;
  /** Bytes of stdout/stderr kept from the start of each. @default 1 MiB */
  maxOutputBytes?: number;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** Resolves a `command:<command line>[ #versions=…&timeout=…]` spec. */
export function resolveCommandTarget(spec: string, options: { cwd: string }): Target {
  return createCommandTarget({ ...parseCommandSpec(spec), name: spec, cwd: options.cwd });
}

/** A target that runs a client process per cell. */
export function createCommandTarget(options: CommandTargetOptions): Target {
  const cwd = options.cwd ?? process.cwd();
  const source = findCommandSource(options.command, cwd);
  const info: TargetInfo = { name: options.name ?? `command:${options.command}`, kind: 'command', ...(source ? { source } : {}) };
  // Every client this target starts carries the mark; each cell kills what its client left, and
  // close() (the end of the run) kills anything of this target's that is still there.
  const runMark = createMarkToken();
  // `#persistent[=N]`: the client is started once per process of the pool and takes cells as lines.
  const pool =
    options.persistent === undefined
      ? undefined
      : new PersistentPool({ command: options.command, cwd, env: options.env ?? process.env, runMark, processes: options.persistent });
  return {
    info,
    usesServer: () => true,
    startsProcessPerCell: pool === undefined,
    skipReason: (version: ProtocolVersion) =>
      options.versions && !options.versions.includes(version) ? `the client speaks only ${options.versions.join(', ')} (target option versions=)` : undefined,
    run: (context) => (pool ? runPersistentCell(pool, options, context) : runCommandClient(options, cwd, context, runMark)),
    close: async () => {
      await pool?.close();
      await killMarkedProcesses(RUN_MARK_VARIABLE, runMark);
    },
    // The client's own `#timeout` is honoured: the runner's cell budget grows to fit it (up to a ceiling).
    getCellLimitMs: () => options.timeoutMs,
  };
}

async function runCommandClient(options: CommandTargetOptions, cwd: string, context: TargetContext, runMark: string): Promise<TargetOutcome> {
  if (!context.serverUrl) return { verdicts: [], error: 'command target without a server URL (harness bug)' };
  const calls = context.case.client?.calls ?? 1;
  const dir = await mkdtemp(join(tmpdir(), 'mcp-error-matrix-'));
  try {
    const verdictFile = join(dir, 'verdict.json');
    const result = await spawnClient({
      command: `${options.command} ${quoteForShell(context.serverUrl)}`,
      env: buildClientEnv(context, verdictFile, options.env),
      cwd,
      timeoutMs: options.timeoutMs ?? getDefaultCellTimeout(context),
      signal: context.signal,
      runMark,
      ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
    });
    const run = toRunInfo(result);
    if (result.spawnError !== undefined) return { verdicts: [], run, error: `the client could not be started: ${result.spawnError}` };
    const starvation = result.starvation ? { starvation: [result.starvation] } : {};
    const verdict = await readVerdictFile(verdictFile);
    if (typeof verdict === 'object') return { verdicts: [], run, error: `the client's verdict file was refused: ${verdict.problem}` };
    const report = readClientReport({ fileText: verdict, lastStdoutLine: result.lastStdoutLine, calls });
    const reported = { verdicts: report.verdicts, ...(report.invalidVerdicts.length ? { invalidVerdicts: report.invalidVerdicts } : {}), run, ...starvation };
    // Stopped from outside (the run was interrupted, or the cell budget ran out): what the client
    // had reported by then is kept as evidence beside the error.
    if (result.aborted) return { ...reported, error: 'interrupted: the run was aborted' };
    // Killed by a stop signal the runner did not send (Ctrl-C, `timeout` or a CI cancel reach the
    // whole process group): not the client's conclusion, so not judged. Other crashes are (below).
    const stopped = result.crashed ? findStopSignal(result) : undefined;
    if (stopped !== undefined) return { ...reported, error: describeOutsideStop('the client', stopped), errorKind: 'interrupted' };
    if (report.skip !== undefined) return { verdicts: [], run, skip: report.skip };
    if (result.exitCode === SKIP_EXIT_CODE && !result.timedOut && report.source === 'none') {
      return { verdicts: [], run, skip: getLastLine(result.stderr) ?? `the client exited with ${SKIP_EXIT_CODE} (skip)` };
    }
    // Any other crash (a signal the runner did not send) is judged like any exit: without a
    // verdict, the exit status is the client's conclusion (judge-exit-status.ts).
    return reported;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runPersistentCell(pool: PersistentPool, options: CommandTargetOptions, context: TargetContext): Promise<TargetOutcome> {
  if (!context.serverUrl) return Promise.resolve({ verdicts: [], error: 'command target without a server URL (harness bug)' });
  return pool.run(context, context.serverUrl, options.timeoutMs ?? getDefaultCellTimeout(context));
}

/** The per-cell limit when the target sets none: room for every scripted exchange to time out once, capped (cell-budget.ts). */
export function getDefaultCellTimeout(context: Pick<TargetContext, 'timeoutMs' | 'case'>): number {
  return getDefaultTargetLimitMs(context.timeoutMs, context.case.exchanges.length);
}

function toRunInfo(result: ClientProcessResult): TargetRunInfo {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    crashed: result.crashed,
    outputTruncated: result.outputTruncated,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: result.durationMs,
  };
}

// The client writes the verdict file, so it is read like any user-supplied file: a FIFO, a link to
// /dev/zero or a file over the cap is refused at once (issue 11 items 4, 5). Absent means "no report".
async function readVerdictFile(file: string): Promise<string | undefined | { problem: string }> {
  try {
    return await readUserText(file, { maxBytes: VERDICT_FILE_MAX_BYTES, what: 'verdict file' });
  } catch (error) {
    if (error instanceof UserFileError && error.problem === 'missing') return undefined;
    return { problem: error instanceof UserFileError ? error.detail : (error as Error).message };
  }
}

function getLastLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  return lines.at(-1);
}

function quoteForShell(word: string): string {
  if (process.platform === 'win32') return `"${word}"`;
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
