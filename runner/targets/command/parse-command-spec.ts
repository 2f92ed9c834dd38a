// `command:<command line>[ #option=value&option=value]`: the command line, plus target options
// written as a trailing shell comment, so the same text still runs unchanged in a shell.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { TargetSpecError } from '../../util/errors.js';
import { MAX_TARGET_CELL_MS } from '../../run/cell-budget.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../vocabulary/types.js';

export interface CommandSpec {
  /** The command line without the option comment. */
  command: string;
  /** Only these versions are run; the others are `skip`. @default every version */
  versions?: ProtocolVersion[];
  /** Per-cell time limit in ms, at most MAX_TARGET_CELL_MS. @default the run's per-exchange timeout × max(3, exchanges + 1), at most × 10 */
  timeoutMs?: number;
  /** `#persistent[=N]`: the persistent lane with N client processes (docs/targets.md § The persistent lane). */
  persistent?: number;
}

/** The most client processes `#persistent=N` may ask for. */
export const MAX_PERSISTENT_PROCESSES = 16;

// The option comment: whitespace, `#`, then key=value pairs (or the bare flag `persistent`) joined
// by `&`, at the very end. Any other trailing comment stays part of the command line.
const OPTION = String.raw`(?:[a-z]+=[^\s&]*|persistent)`;
const OPTIONS_PATTERN = new RegExp(String.raw`\s#\s*(${OPTION}(?:&${OPTION})*)\s*$`);

/** Parses the argument after `command:`; throws a TargetSpecError for an empty line or a bad option. */
export function parseCommandSpec(spec: string): CommandSpec {
  const body = spec.replace(/^command:/, '');
  const match = OPTIONS_PATTERN.exec(body);
  const command = (match ? body.slice(0, match.index) : body).trim();
  if (command === '') throw new TargetSpecError(spec, 'the command line is empty; write e.g. command:node my-client.mjs');
  const parsed: CommandSpec = { command };
  for (const pair of match?.[1]?.split('&') ?? []) {
    const [key, value] = pair.split('=') as [string, string?];
    if (key === 'persistent') parsed.persistent = parsePersistent(spec, value);
    else if (key === 'versions') parsed.versions = parseVersions(spec, value ?? '');
    else if (key === 'timeout') parsed.timeoutMs = parseTimeout(spec, value ?? '');
    else throw new TargetSpecError(spec, `unknown option "${key}" in the trailing "#…" comment; known: versions=V[,V], timeout=MS, persistent[=N]`);
  }
  return parsed;
}

// Options that change how the runner asks the client (how long a cell may take, which versions it
// is asked at), not what the client is or how it runs.
const RUN_OPTIONS = new Set(['timeout', 'versions']);

/**
 * The `command:` spec without its `#timeout=` and `#versions=` options (other options kept, in
 * order): the name a baseline keys the client by, so raising a timeout keeps its known failures.
 * Any other spec is returned as it is.
 */
export function stripCommandRunOptions(spec: string): string {
  if (!spec.startsWith('command:')) return spec;
  const body = spec.slice('command:'.length);
  const match = OPTIONS_PATTERN.exec(body);
  if (!match) return spec;
  const kept = match[1]!.split('&').filter((pair) => !RUN_OPTIONS.has(pair.split('=')[0]!));
  return `command:${body.slice(0, match.index).trimEnd()}${kept.length > 0 ? ` #${kept.join('&')}` : ''}`;
}

function parseVersions(spec: string, value: string): ProtocolVersion[] {
  const versions = value.split(',').filter(Boolean);
  const bad = versions.find((version) => !(PROTOCOL_VERSIONS as readonly string[]).includes(version));
  if (versions.length === 0 || bad !== undefined) {
    throw new TargetSpecError(spec, `versions=${value}: expected a comma-separated list of ${PROTOCOL_VERSIONS.join(', ')}`);
  }
  return versions as ProtocolVersion[];
}

function parsePersistent(spec: string, value: string | undefined): number {
  if (value === undefined) return 1;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > MAX_PERSISTENT_PROCESSES) {
    throw new TargetSpecError(spec, `persistent=${value}: expected a number of client processes from 1 to ${MAX_PERSISTENT_PROCESSES}`);
  }
  return number;
}

function parseTimeout(spec: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new TargetSpecError(spec, `timeout=${value}: expected a positive whole number of milliseconds`);
  if (number > MAX_TARGET_CELL_MS) throw new TargetSpecError(spec, `timeout=${value}: a cell may take at most ${MAX_TARGET_CELL_MS} ms; write a smaller #timeout=`);
  return number;
}

// Interpreters whose first file argument is the real client, for receipts.
const INTERPRETERS = new Set(['node', 'nodejs', 'python', 'python3', 'deno', 'bun', 'tsx', 'ruby', 'php', 'perl', 'bash', 'sh', 'uv', 'java']);

/**
 * The file the client runs from, for receipts: the script an interpreter is given when it
 * exists, else the executable (a path, or found on PATH); undefined when neither is found.
 */
export function findCommandSource(command: string, cwd: string, path = process.env.PATH ?? ''): string | undefined {
  const words = command.split(/\s+/).filter((word) => word !== '' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const executable = words[0]?.replace(/^['"]|['"]$/g, '');
  if (executable === undefined) return undefined;
  const name = executable.split(/[\\/]/).pop() ?? executable;
  if (INTERPRETERS.has(name.replace(/\.exe$/, ''))) {
    const script = words.slice(1).find((word) => !word.startsWith('-'));
    const file = script === undefined ? undefined : resolve(cwd, script.replace(/^['"]|['"]$/g, ''));
    if (file !== undefined && isFile(file)) return file;
  }
  if (executable.includes('/') || executable.includes('\\') || isAbsolute(executable)) {
    const file = resolve(cwd, executable);
    return isFile(file) ? file : undefined;
  }
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const file = join(dir, executable);
    if (isFile(file) && isExecutable(file)) return file;
  }
  return undefined;
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
