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
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
  };
}
