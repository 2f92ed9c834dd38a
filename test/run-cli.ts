// Runs the CLI in-process and captures what it prints.
import { main } from '../runner/cli/cli.js';
import type { CliIo } from '../runner/cli/cli-io.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `mcp-error-matrix <argv>` in this process. */
export async function runCli(argv: string[], overrides: Partial<CliIo> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd: process.cwd(),
    env: { ...process.env, CI: 'true' },
    isTTY: false,
    ...overrides,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
