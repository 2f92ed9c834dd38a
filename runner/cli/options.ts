// `run` options: parsed from flags once, defaults filled in one place, validated next to
// the flag they guard. After this, the code trusts the object.
import { availableParallelism } from 'node:os';
import { describeFlagError, parseCommandFlags } from './command-flags.js';
import { UsageError } from '../util/errors.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion, type Target } from '../vocabulary/types.js';

export interface RunOptions {
  /** @default DEFAULT_TARGETS (the built-in targets) */
  targets: string[];
  /** @default 'http' */
  mode: 'http' | 'direct';
  /** Case directories, files or globs. @default the package's cases/ */
  cases: string[] | undefined;
  /** Case id selectors (globs). @default all */
  caseIds: string[];
  /** @default both versions */
  versions: ProtocolVersion[] | undefined;
  /** Report folder; nothing is written without it. */
  out: string | undefined;
  /** Print TAP on stdout although --out is given (without --out it always is). @default false */
  tap: boolean;
  /** Per-exchange timeout in ms. @default 2000 */
  timeoutMs: number;
  /** `--concurrency N`; undefined picks a default from the targets (see getDefaultConcurrency). */
  concurrency: number | undefined;
  /** Schema directory (`--schemas`); `false` with --no-schemas. */
  schemas: string | false | undefined;
  quiet: boolean;
  /** One line per finished cell on stderr. */
  verbose: boolean;
  /** Expected-failures file (`--baseline`); `false` with --no-baseline. @default the bundled one for the default targets */
  baseline: string | false | undefined;
  /** Write the current failures as a baseline to this file (`--write-baseline`). */
  writeBaseline: string | undefined;
  /** A previous results.json to compare against (`--compare`). */
  compare: string | undefined;
  /** `--pair OLD=NEW` values for --compare, as given (parsed by runner/compare/pair-targets). */
  pairs: string[];
  /** `--shard i/n`, as given (parsed by runner/shard). */
  shard: string | undefined;
  /** Whether the built-in default target set is in use. */
  defaultTargets: boolean;
  /** An Ed25519 private key (PEM) to sign receipts.json with (`--sign`). */
  sign: string | undefined;
}

/** The per-exchange timeout without --timeout, in ms. */
export const DEFAULT_TIMEOUT_MS = 2000;

export const RUN_FLAGS = {
  target: { type: 'string', multiple: true },
  mode: { type: 'string' },
  cases: { type: 'string', multiple: true },
  case: { type: 'string', multiple: true },
  version: { type: 'string', multiple: true },
  out: { type: 'string' },
  tap: { type: 'boolean' },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  schemas: { type: 'string' },
  'no-schemas': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean', short: 'v' },
  baseline: { type: 'string' },
  'no-baseline': { type: 'boolean' },
  'write-baseline': { type: 'string' },
  compare: { type: 'string' },
  pair: { type: 'string', multiple: true },
  shard: { type: 'string' },
  sign: { type: 'string' },
} as const;

/** Parses and validates `run` flags. */
export function parseRunOptions(args: string[], defaultTargets: string[]): RunOptions {
  const { values } = parseCommandFlags('run', { args, options: RUN_FLAGS, allowPositionals: false });
  const targets = values.target ?? defaultTargets;
  if (values.quiet && values.verbose) throw new UsageError('run: --quiet and --verbose contradict each other; use one');
  if (values.pair !== undefined && values.compare === undefined) throw new UsageError('run: --pair pairs targets for --compare FILE; give --compare too, or leave --pair out');
  if (values['no-baseline'] && values.baseline !== undefined) throw new UsageError('run: --baseline and --no-baseline contradict each other; use one');
  return {
    targets,
    defaultTargets: values.target === undefined,
    mode: parseMode(values.mode),
    cases: values.cases,
    caseIds: values.case ?? [],
    versions: values.version?.map(parseVersion),
    out: values.out,
    tap: values.tap ?? false,
    timeoutMs: parsePositiveInteger('--timeout', values.timeout, DEFAULT_TIMEOUT_MS),
    concurrency: values.concurrency === undefined ? undefined : parsePositiveInteger('--concurrency', values.concurrency, 0),
    schemas: values['no-schemas'] ? false : values.schemas,
    quiet: values.quiet ?? false,
    verbose: values.verbose ?? false,
    baseline: values['no-baseline'] ? false : values.baseline,
    writeBaseline: values['write-baseline'],
    compare: values.compare,
    pairs: values.pair ?? [],
    shard: values.shard,
    sign: values.sign,
  };
}

/** Runs a flag parser, turning its errors into a UsageError that names the command (prefer parseCommandFlags). */
export function parseFlags<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(`${command}: ${describeFlagError(error)}; see \`mcp-error-matrix ${command} --help\``);
  }
}

function parseMode(value: string | undefined): 'http' | 'direct' {
  if (value === undefined || value === 'http' || value === 'direct') return value ?? 'http';
  throw new UsageError(`--mode ${value}: expected "http" (real requests over loopback) or "direct" (scripted bytes, no sockets)`);
}

/** Validates a --version value. */
export function parseVersion(value: string): ProtocolVersion {
  if ((PROTOCOL_VERSIONS as readonly string[]).includes(value)) return value as ProtocolVersion;
  throw new UsageError(`--version ${value}: expected one of ${PROTOCOL_VERSIONS.join(', ')}`);
}

function parsePositiveInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new UsageError(`${flag} ${value}: expected a positive whole number`);
  return number;
}

/**
 * Cells mostly wait on sockets and workers, not on the CPU: the SDK and client-stack workers answer
 * many cells at once. Measured on 2 cores (2026-12-01), the default run (4,086 cells, nine targets)
 * took 112 s at concurrency 8 and 48 s at 24, with identical cells and CPU at 56 % and 108 %. A target
 * that starts a process per cell (a `command:` client, the mcp-remote bridge) is CPU-bound at start-up:
 * with one in the run, the default stays at four per core (at least 8), so clients are not starved
 * into timeouts that would be judged as theirs. So is a target whose cells are CPU-bound in its worker
 * (mastra@2.0.0 alone: 322 of 454 cells overran their budget at 24 on the loaded machine, 23 at 8).
 */
export function getDefaultConcurrency(targets: readonly Pick<Target, 'startsProcessPerCell' | 'cpuBoundCells'>[] = []): number {
  const cores = availableParallelism();
  return targets.some((target) => target.startsProcessPerCell === true || target.cpuBoundCells === true) ? Math.max(8, cores * 4) : Math.max(24, cores * 12);
}
