// The process surface the CLI talks to, injectable so tests run the CLI in-process; and the one
// shutdown mechanism of the process: SIGINT, SIGTERM and fatal errors all go through stopRun().
import { describeProcessInvocation } from './cli-invocation.js';
import type { DownloadOptions } from '../schema-check/download-schema.js';
import { VALIDATE_INPUT_MAX_BYTES } from '../io/input-caps.js';
import { formatByteCap } from '../io/read-user-file.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is an interactive terminal (progress output). */
  isTTY: boolean;
  /** Aborted on SIGINT/SIGTERM (while the stop mode is 'abort') or on a fatal error; the reason is the StopReason. */
  signal?: AbortSignal;
  /** What the first SIGINT/SIGTERM does from now on (see StopMode); absent when not a real process. */
  setStopMode?(mode: StopMode, note?: string, deadlineMs?: number): void;
  /** Reads all of standard input (`validate -`). @default reads process.stdin */
  readStdin?: () => Promise<string>;
  /** The pinned-schema cache folder (`schemas`, `validate`). @default from env (XDG_CACHE_HOME) */
  schemaCacheDir?: string;
  /** How `schemas fetch` downloads (tests point it at a local server). */
  schemaDownload?: DownloadOptions;
  /** The words that started this CLI (cli-invocation.ts), which repro lines begin with. @default DEFAULT_INVOCATION */
  invocation?: readonly string[];
}

/**
 * What the first SIGINT/SIGTERM does:
 * - 'exit': exit at once with 130/143 (the default: commands with nothing to save);
 * - 'abort': abort io.signal and let the command wind down (`run`: children killed, reports
 *   written marked incomplete; `serve`: the server closed), within STOP_DEADLINE_MS;
 * - 'finish': the results are complete and being written: finish them, exit per result.
 * A second signal always exits at once.
 */
export type StopMode = 'exit' | 'abort' | 'finish';
export type StopReason = 'SIGINT' | 'SIGTERM' | 'fatal';

/** Exit statuses of a stopped process: 128 + the signal number, as a shell reports it; 1 for a fatal error. */
export const SIGNAL_EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, fatal: 1 };
/** A process that started to stop exits by then at the latest, whatever still runs. */
export const STOP_DEADLINE_MS = 20_000;

const DEFAULT_NOTES: Record<StopMode, string> = {
  exit: 'stopped',
  abort: 'stopping; the reports will be marked incomplete',
  finish: 'the run is complete; finishing its reports',
};

let controller: AbortController | undefined;
let stopMode: StopMode = 'exit';
let stopNote = DEFAULT_NOTES.exit;
let signals = 0;
let deadline: NodeJS.Timeout | undefined;
/** How long a stop may take before the process exits anyway (a command writing much may ask for more). */
let stopDeadlineMs = STOP_DEADLINE_MS;
let finished = false;

/** From now on, exiting with the status already set is planned (the exit guard lets it through). */
export function markProcessFinished(): void {
  finished = true;
}

/** Exits on purpose with `code` (the exit guard lets it through). */
export function endProcess(code: number): never {
  finished = true;
  process.exit(code);
}

/** Whether the process reached a planned end (the command returned, or endProcess was called). */
export function isProcessFinished(): boolean {
  return finished;
}

/**
 * Starts stopping the process: in 'abort' mode aborts io.signal (the command winds down and
 * returns); in 'exit' mode exits at once. Either way the process exits within STOP_DEADLINE_MS.
 */
export function stopRun(reason: StopReason): void {
  const code = SIGNAL_EXIT_CODES[reason] ?? 1;
  if (stopMode === 'exit') process.exit(code);
  if (stopMode === 'abort' && controller && !controller.signal.aborted) controller.abort(reason);
  deadline ??= setTimeout(() => {
    process.stderr.write(`mcp-error-matrix: still not stopped ${stopDeadlineMs / 1000} s after ${reason}; exiting now (reports may be missing)\n`);
    process.exit(code);
  }, stopDeadlineMs).unref();
}

function getProcessSignal(): AbortSignal {
  if (controller) return controller.signal;
  controller = new AbortController();
  const onSignal = (name: 'SIGINT' | 'SIGTERM'): void => {
    const code = SIGNAL_EXIT_CODES[name] ?? 1;
    if (++signals > 1 || stopMode === 'exit') {
      process.stderr.write(`\nmcp-error-matrix: ${name}: ${signals > 1 ? 'exiting at once' : stopNote}\n`);
      process.exit(code);
    }
    process.stderr.write(`\nmcp-error-matrix: ${name}: ${stopNote} (send it again to exit at once)\n`);
    // Finishing complete reports: the signal changes neither the result nor the exit status.
    if (stopMode === 'abort') stopRun(name);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}

/** The exit status for an aborted run: 130 for SIGINT, 143 for SIGTERM, 1 for a fatal error; undefined when not aborted. */
export function getSignalExitCode(signal: AbortSignal | undefined): number | undefined {
  if (!signal?.aborted) return undefined;
  return SIGNAL_EXIT_CODES[String(signal.reason)] ?? 130;
}

/** The real process. */
export function createProcessIo(): CliIo {
  // A closed pipe (`mcp-error-matrix list | head`) is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') endProcess(Number(process.exitCode ?? 0));
      throw error;
    });
  }
  return {
    signal: getProcessSignal(),
    setStopMode: (mode, note, deadlineMs) => {
      stopMode = mode;
      stopNote = note ?? DEFAULT_NOTES[mode];
      stopDeadlineMs = deadlineMs ?? STOP_DEADLINE_MS;
    },
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
    readStdin: () => readProcessStdin(),
    invocation: describeProcessInvocation(),
  };
}

/** Reads all of process.stdin as UTF-8, refusing more than `maxBytes` (a pipe can be endless). */
async function readProcessStdin(maxBytes = VALIDATE_INPUT_MAX_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += buffer.length;
    if (total > maxBytes) throw new Error(`standard input is larger than the ${formatByteCap(maxBytes)} a message may have`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
