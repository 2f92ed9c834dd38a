// The command line: dispatches to commands and is the only place that turns errors into
// exit codes (0 ok, 1 unexpected failures, 2 usage or input errors).
import { createProcessIo, getSignalExitCode, type CliIo } from './cli-io.js';
import { closest } from '../cases/case-errors.js';
import { isRunnerError } from '../util/errors.js';
import { getPackageVersion } from '../util/package-paths.js';

type Command = (args: string[], io: CliIo) => Promise<number>;

/** What a command module offers: its usage text (`<command> --help`) and the command itself. */
interface CommandModule {
  usage: string;
  run: Command;
}

// Each command's module (and its dependencies: ajv, undici, handlebars, yaml...) is imported
// only when that command runs: importing them all up front cost about 0.5 s of every start-up.
const COMMANDS: Record<string, { load: () => Promise<CommandModule>; summary: string }> = {
  run: {
    load: () => Promise.all([import('../commands/run-usage.js'), import('../commands/run-command.js')]).then(([usage, m]) => ({ usage: usage.RUN_USAGE, run: m.runRunCommand })),
    summary: 'run the case table against targets; print TAP; --out DIR writes the reports',
  },
  list: {
    load: () => import('../commands/list-command.js').then((m) => ({ usage: m.LIST_USAGE, run: m.runListCommand })),
    summary: 'list the cases (--layer, --version, --origin filters)',
  },
  show: {
    load: () => import('../commands/show-command.js').then((m) => ({ usage: m.SHOW_USAGE, run: m.runShowCommand })),
    summary: 'print one case: what the server sends per version, the expected verdict and why',
  },
  serve: {
    load: () => import('../commands/serve-command.js').then((m) => ({ usage: m.SERVE_USAGE, run: m.runServeCommand })),
    summary: 'serve one case for a client by hand: serve <case> [--version V] [--port N]; logs each exchange',
  },
  schemas: {
    load: () => import('../commands/schemas-command.js').then((m) => ({ usage: m.SCHEMAS_USAGE, run: m.runSchemasCommand })),
    summary: 'show where each pinned schema was found; `schemas fetch [--from DIR]` fills the cache',
  },
  validate: {
    load: () => import('../commands/validate-command.js').then((m) => ({ usage: m.VALIDATE_USAGE, run: m.runValidateCommand })),
    summary: 'validate a JSON-RPC message file: validate <file.json|-> [--version V] [--def NAME]',
  },
  verify: {
    load: () => import('../commands/verify-command.js').then((m) => ({ usage: m.VERIFY_USAGE, run: m.runVerifyCommand })),
    summary: 'recompute the SHA-256 receipts of a report folder: verify <dir>',
  },
  compare: {
    load: () => import('../commands/compare-command.js').then((m) => ({ usage: m.COMPARE_USAGE, run: m.runCompareCommand })),
    summary: 'regressions and fixes between two runs: compare <old results.json> <new results.json> [--format markdown|text]',
  },
  merge: {
    load: () => import('../commands/merge-command.js').then((m) => ({ usage: m.MERGE_USAGE, run: m.runMergeCommand })),
    summary: 'combine the report folders of `run --shard i/n` into one report: merge <dirs…> --out DIR',
  },
  atlas: {
    load: () => import('../commands/atlas-command.js').then((m) => ({ usage: m.ATLAS_USAGE, run: m.runAtlasCommand })),
    summary: 'every built-in client stack × release × protocol version as a static site: atlas --out DIR [--since DIR]',
  },
};

const USAGE = `Usage: mcp-error-matrix <command> [options]
       mcp-error-matrix <command> --help    that command's options (also: help <command>)
       mcp-error-matrix --version           (also -v)

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(10)}${summary}`)
  .join('\n')}

Targets (run --target SPEC, repeatable; without it: reference, naive and the pinned real clients):
  reference                     the project's reference classifier
  naive                         a negative control that concludes from the HTTP status alone
  classifier:<module>[#export]  your classifier function, run in a worker thread of this process
  command:<command line>        any client in any language, one process per cell (URL appended last)
  ts-sdk@<version>              @modelcontextprotocol/sdk (1.x)
  ts-client@<version>           @modelcontextprotocol/client (2.x)
  ai-sdk@<version>              @ai-sdk/mcp (Vercel AI SDK)
  openai-agents@<version>       @openai/agents (OpenAI Agents SDK)
  langchain@<version>           @langchain/mcp-adapters
  mastra@<version>              @mastra/mcp (MCPClient; not in the default run)
  mcp-remote@<version>          the mcp-remote stdio bridge, one process per cell (not in the default run)
  inspector-cli@<version>       the MCP Inspector's CLI (@modelcontextprotocol/inspector --cli), one process per call (not in the default run)
  cloudflare-agents@<version>   the MCP client of Cloudflare's agents package, run in workerd (not in the default run)
  <kind>@<range>[#all]          an npm range (^1.10.0, 2.x, ">=1.17 <1.30"): each minor's latest patch (#all: every version)
  A client version is installed once with npm into the user cache ($XDG_CACHE_HOME/mcp-error-matrix/clients);
  in a clone after \`npm ci\`, the versions package.json pins come from its node_modules (\`run --help\` lists them).

Exit codes: 0 nothing unexpected, 1 unexpected failures (fail, error, stale baseline), 2 usage or input error.
`;

/** Whether the arguments ask for help (`--help` or `-h` before any `--`). */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function main(argv: string[], io: CliIo = createProcessIo()): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v' || name === '-V') {
    io.stdout(`${getPackageVersion()}\n`);
    return 0;
  }
  if (name === 'help' && args[0] !== undefined) {
    const entry = COMMANDS[args[0]];
    if (!entry) return reportUnknownCommand(args[0], io);
    io.stdout((await entry.load()).usage);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(USAGE);
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS[name];
  if (!entry) return reportUnknownCommand(name, io);
  const command = await entry.load();
  if (asksForHelp(args)) {
    io.stdout(command.usage);
    return 0;
  }
  try {
    const code = await command.run(args, io);
    // A run stopped by SIGINT/SIGTERM exits as the shell would report the signal (130/143).
    return getSignalExitCode(io.signal) ?? code;
  } catch (error) {
    if (isRunnerError(error)) {
      io.stderr(`${prefixCommand(name, error.message)}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

function reportUnknownCommand(name: string, io: CliIo): number {
  const guess = closest(name, Object.keys(COMMANDS));
  io.stderr(`mcp-error-matrix: unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}\n\n${USAGE}`);
  return 2;
}

/** `mcp-error-matrix <command>: <message>`, naming the command once when the message already starts with it (`run: unknown option …`, `show nope: …`). */
function prefixCommand(name: string, message: string): string {
  return message.startsWith(`${name}:`) || message.startsWith(`${name} `) ? `mcp-error-matrix ${message}` : `mcp-error-matrix ${name}: ${message}`;
}
