// The command line: dispatches to commands and is the only place that turns errors into
// exit codes (0 ok, 1 unexpected failures, 2 usage or input errors).
import { createProcessIo, getSignalExitCode, type CliIo } from './cli-io.js';
import { isRunnerError } from './errors.js';

type Command = (args: string[], io: CliIo) => Promise<number>;

// Each command's module (and its dependencies: ajv, undici, handlebars, yaml...) is imported
// only when that command runs: importing them all up front cost about 0.5 s of every start-up.
const runRunCommand: Command = async (args, io) => (await import('./commands/run-command.js')).runRunCommand(args, io);
const runListCommand: Command = async (args, io) => (await import('./commands/list-command.js')).runListCommand(args, io);
const runShowCommand: Command = async (args, io) => (await import('./commands/show-command.js')).runShowCommand(args, io);
const runServeCommand: Command = async (args, io) => (await import('./commands/serve-command.js')).runServeCommand(args, io);
const runSchemasCommand: Command = async (args, io) => (await import('./schema-check/index.js')).runSchemasCommand(args, io);
const runValidateCommand: Command = async (args, io) => (await import('./schema-check/index.js')).runValidateCommand(args, io);
const runVerifyCommand: Command = async (args, io) => (await import('./commands/verify-command.js')).runVerifyCommand(args, io);
const runCompareCommand: Command = async (args, io) => (await import('./commands/compare-command.js')).runCompareCommand(args, io);
const runMergeCommand: Command = async (args, io) => (await import('./commands/merge-command.js')).runMergeCommand(args, io);

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  run: { run: runRunCommand, summary: 'run the case table against targets; print TAP; --out DIR writes the reports' },
  list: { run: runListCommand, summary: 'list the cases (--layer, --version, --origin filters)' },
  show: { run: runShowCommand, summary: 'print one case: what the server sends per version, the expected verdict and why' },
  serve: { run: runServeCommand, summary: 'serve one case for a client by hand: serve <case> [--version V] [--port N]; logs each exchange' },
  schemas: { run: runSchemasCommand, summary: 'show where each pinned schema was found; `schemas fetch [--from DIR]` fills the cache' },
  validate: { run: runValidateCommand, summary: 'validate a JSON-RPC message file: validate <file.json|-> [--version V] [--def NAME]' },
  verify: { run: runVerifyCommand, summary: 'recompute the SHA-256 receipts of a report folder: verify <dir>' },
  compare: { run: runCompareCommand, summary: 'regressions and fixes between two runs: compare <old results.json> <new results.json> [--format markdown|text]' },
  merge: { run: runMergeCommand, summary: 'combine the report folders of `run --shard i/n` into one report: merge <dirs…> --out DIR' },
};

const USAGE = `Usage: mcp-error-matrix <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(10)}${summary}`)
  .join('\n')}

run options:
  --target SPEC       reference | naive | classifier:<module>[#export]   (repeatable; default: the built-in set)
  --mode http|direct  real requests over loopback (default) or scripted bytes without sockets
  --cases DIR|GLOB    case files to load (default: the bundled table)
  --case ID           only these case ids; globs allowed, e.g. 'http-*' (repeatable)
  --version V         only this protocol version: 2025-11-25 | 2026-07-28 (repeatable)
  --out DIR           write the reports into DIR (replaced as a whole if absent, empty or an earlier report)
  --timeout MS        per-exchange timeout (default 2000)
  --concurrency N     cells in parallel (default: 4 per core, at least 8)
  --schemas DIR       the pinned official schemas (DIR/<version>/schema.json); else MCP_SCHEMAS_DIR,
                      the user cache, or a one-time download
  --no-schemas        skip schema checks (the reports say so)
  --quiet, -q         no progress or summary on stderr
  --verbose, -v       one line per cell on stderr (NO_COLOR turns colour off)
  --baseline FILE     expected failures (YAML/JSON): listed failures are xfail, listed passes xpass
                      (default: baselines/default.yaml when no --target is given)
  --no-baseline       apply no baseline, not even the bundled one
  --write-baseline F  write the current failures as a baseline to F (keeps reasons of existing entries)
  --compare FILE      compare with a previous results.json: regressions, fixes, added, removed (exit 1 on regressions)
  --shard i/n         run only shard i of n (whole cases, dealt round-robin); combine with \`merge\`

Exit codes: 0 nothing unexpected, 1 unexpected failures (fail, error, stale baseline), 2 usage or input error.
`;

/** Runs the CLI with the given arguments; returns the exit code. */
export async function main(argv: string[], io: CliIo = createProcessIo()): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`mcp-error-matrix: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    const code = await command.run(args, io);
    // A run stopped by SIGINT/SIGTERM exits as the shell would report the signal (130/143).
    return getSignalExitCode(io.signal) ?? code;
  } catch (error) {
    if (isRunnerError(error)) {
      io.stderr(`mcp-error-matrix ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
