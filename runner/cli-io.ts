// The process surface the CLI talks to, injectable so tests run the CLI in-process.
import type { DownloadOptions } from './schema-check/download-schema.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is an interactive terminal (progress output). */
  isTTY: boolean;
  /** Aborted on SIGINT/SIGTERM. */
  signal?: AbortSignal;
  /** Reads all of standard input (`validate -`). @default reads process.stdin */
  readStdin?: () => Promise<string>;
  /** The pinned-schema cache folder (`schemas`, `validate`). @default from env (XDG_CACHE_HOME) */
  schemaCacheDir?: string;
  /** How `schemas fetch` downloads (tests point it at a local server). */
  schemaDownload?: DownloadOptions;
}

/** Exit statuses of a run stopped by a signal: 128 + the signal number, as a shell reports it. */
export const SIGNAL_EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };

let processSignal: AbortSignal | undefined;

/**
 * The first SIGINT/SIGTERM aborts the command, which says what stopping means for it (`run`
 * kills its children and marks its output incomplete; `serve` closes its server); a second
 * one exits at once. Installed once per process.
 */
function getProcessSignal(): AbortSignal {
  if (processSignal) return processSignal;
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(SIGNAL_EXIT_CODES[name] ?? 1);
    process.stderr.write(`\nmcp-error-matrix: ${name}: stopping (send it again to exit at once)\n`);
    controller.abort(name);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return (processSignal = controller.signal);
}

/** The exit status for an aborted run: 130 for SIGINT, 143 for SIGTERM; undefined when not aborted. */
export function getSignalExitCode(signal: AbortSignal | undefined): number | undefined {
  if (!signal?.aborted) return undefined;
  return SIGNAL_EXIT_CODES[String(signal.reason)] ?? 130;
}

/** The real process. */
export function createProcessIo(): CliIo {
  // A closed pipe (`mcp-error-matrix list | head`) is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
    signal: getProcessSignal(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
    readStdin: readProcessStdin,
  };
}

/** Reads all of process.stdin as UTF-8. */
async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
