// The process surface the CLI talks to, injectable so tests run the CLI in-process.

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is an interactive terminal (progress output). */
  isTTY: boolean;
  /** Aborted on SIGINT/SIGTERM. */
  signal?: AbortSignal;
}

/** Exit statuses of a run stopped by a signal: 128 + the signal number, as a shell reports it. */
export const SIGNAL_EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };

let processSignal: AbortSignal | undefined;

/**
 * The first SIGINT/SIGTERM aborts the run (children are killed, reports are written marked
 * incomplete); a second one exits at once. Installed once per process.
 */
function getProcessSignal(): AbortSignal {
  if (processSignal) return processSignal;
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(SIGNAL_EXIT_CODES[name] ?? 1);
    process.stderr.write(`\nmcp-error-matrix: ${name}: stopping; the reports will be marked incomplete (send it again to exit at once)\n`);
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
  };
}
