// The CLI as a process (bin/mcp-error-matrix.js, and the tests' entry): what only a process
// has. An exit guard: the process exits 0 only when the command returned 0, never because
// something called process.exit(0) or left nothing to wait for. Fatal errors (uncaught
// exceptions, unhandled rejections) stop the run through the signals' own mechanism
// (cli-io.ts stopRun): children killed, servers closed, reports written marked incomplete, exit 1
// within a bounded time. And a finished command exits even if a stray handle is still open.
import { main } from './cli.js';
import { endProcess, isProcessFinished, markProcessFinished, stopRun } from './cli-io.js';

/** After the command returned, the longest anything left open may keep the process alive. */
const EXIT_GRACE_MS = 5000;

/** Runs the CLI with `argv` as this process and sets its exit status. */
export async function runCliProcess(argv: string[]): Promise<void> {
  let fatal = false;
  process.on('exit', (code) => {
    if (isProcessFinished() || code !== 0) return;
    process.stderr.write('mcp-error-matrix: the process ended before the command finished (process.exit was called, or nothing was left to wait for); exit status 1\n');
    process.exitCode = 1;
  });
  const onFatal = (error: unknown): void => {
    if (!fatal) reportInternalError(error);
    fatal = true;
    stopRun('fatal');
  };
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  let code: number;
  try {
    code = await main(argv);
  } catch (error) {
    // Input errors are handled inside main(); anything here is a bug in mcp-error-matrix itself.
    reportInternalError(error);
    code = 1;
  }
  if (fatal && code === 0) code = 1;
  process.exitCode = code;
  markProcessFinished();
  setTimeout(() => endProcess(code), EXIT_GRACE_MS).unref();
}

function reportInternalError(error: unknown): void {
  const detail = process.env['MEM_DEBUG'] ? String((error as Error | undefined)?.stack ?? error) : String((error as Error | undefined)?.message ?? error);
  process.stderr.write(`mcp-error-matrix: internal error: ${detail}\n(set MEM_DEBUG=1 for the stack trace, and please report it)\n`);
}
