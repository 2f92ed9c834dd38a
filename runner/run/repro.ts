// The one-line command that reruns a single cell: pasted into a shell in the directory the run
// started from, it gives that cell again with the same status. So it starts the CLI the way this
// run was started (cli-invocation.ts), and carries everything that decides the cell: the full
// target spec, the case table when it is not the bundled one, the mode, a timeout other than the
// default, the baseline applied and whether schemas were off.
import { DEFAULT_INVOCATION } from '../cli/cli-invocation.js';
import { DEFAULT_TIMEOUT_MS } from '../cli/options.js';
import type { ProtocolVersion } from '../vocabulary/types.js';

/** What a repro line carries beyond the cell itself, the same for every cell of a run. */
export interface ReproContext {
  /** The words that start the CLI, as this run's were invoked. @default DEFAULT_INVOCATION (`npx --no mcp-error-matrix`) */
  program?: readonly string[] | undefined;
  /** `--cases` as given, when the table is not the bundled one. */
  cases?: readonly string[] | undefined;
  /** The baseline file the run applied, as a path from the run's directory. */
  baseline?: string | undefined;
  /** Schema checks were off (`--no-schemas`). */
  noSchemas?: boolean | undefined;
}

export interface ReproCell extends ReproContext {
  caseId: string;
  /** The full `--target` spec (e.g. `classifier:./x.js#fn`, `command:node client.mjs`). */
  target: string;
  protocolVersion: ProtocolVersion;
  mode: 'http' | 'direct';
  /** Per-exchange timeout of the run. @default DEFAULT_TIMEOUT_MS */
  timeoutMs?: number | undefined;
}

/** A shell command that reruns one cell, safe to paste (arguments single-quoted when needed). */
export function buildReproCommand(options: ReproCell): string {
  const parts = [...(options.program ?? DEFAULT_INVOCATION), 'run', '--target', options.target];
  for (const source of options.cases ?? []) parts.push('--cases', source);
  parts.push('--case', options.caseId, '--version', options.protocolVersion);
  if (options.mode === 'direct') parts.push('--mode', 'direct');
  if (options.timeoutMs !== undefined && options.timeoutMs !== DEFAULT_TIMEOUT_MS) parts.push('--timeout', String(options.timeoutMs));
  if (options.baseline !== undefined) parts.push('--baseline', options.baseline);
  if (options.noSchemas) parts.push('--no-schemas');
  return parts.map(quoteShellWord).join(' ');
}

/** A word sh reads back unchanged: bare when it has only safe characters, else single-quoted. */
export function quoteShellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
