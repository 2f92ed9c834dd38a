// Errors in the user's input (case files, flags, baselines, configuration). Each carries a
// stable code, and its message names the file, field or flag, what was expected, what was
// found, and how to fix it. Only runner/cli/cli.ts turns them into exit codes.

export class RunnerError extends Error {
  readonly code: string;
  readonly exitCode = 2 as const;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A command-line flag or argument is wrong. */
export class UsageError extends RunnerError {
  constructor(message: string) {
    super('MEM_USAGE', message);
  }
}

/** A --target spec could not be resolved. */
export class TargetSpecError extends RunnerError {
  constructor(spec: string, problem: string) {
    super('MEM_TARGET', `--target ${spec}: ${problem}`);
  }
}

/** Whether an error is one of ours (an input error with an exit code), not a harness bug. */
export function isRunnerError(error: unknown): error is RunnerError {
  return error instanceof RunnerError;
}

/**
 * The report folder (`--out`) was refused (it holds someone else's files, or is the working
 * directory, an ancestor of it, the home directory or `/`), or could not be written (no space,
 * permission denied, read-only, busy...). Nothing the tool did not create was touched.
 */
export class OutputFolderError extends RunnerError {
  constructor(kind: 'refused' | 'unwritable', message: string, options?: { cause?: unknown }) {
    super(kind === 'refused' ? 'MEM_OUT_REFUSED' : 'MEM_OUT_UNWRITABLE', message, options);
  }
}
