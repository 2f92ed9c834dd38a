// What the schema commands need from their caller, and the one place they turn their own
// input errors into exit code 2 (runner/cli.ts does the same for every other command).
import { isRunnerError } from '../errors.js';
import { formatByteCap } from '../io/read-user-file.js';
import type { DownloadOptions } from './download-schema.js';

export interface CommandIO {
  /** Receives whole lines, each ending in a newline. */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Overrides for tests: cache folder, fetch implementation, download origin. */
  cacheDir?: string;
  download?: DownloadOptions;
  /** Reads standard input, for `validate -`. @default reads process.stdin */
  readStdin?: () => Promise<string>;
}

/** Runs a command body; a RunnerError becomes its message on stderr and exit code 2. */
export async function runReportingInputErrors(command: string, io: CommandIO, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (!isRunnerError(error)) throw error;
    io.stderr(`mcp-error-matrix ${command}: ${error.message}\n`);
    return error.exitCode;
  }
}

/** Reads all of process.stdin as UTF-8. */
export async function readProcessStdin(maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
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
