// The text of `run --help`: every target kind (with the client versions this package pins) and option.
import { DEFAULT_TIMEOUT_MS } from '../cli/options.js';
import { DEFAULT_TARGETS } from '../targets/resolve-target.js';
import { listBundledSdkTargets, SDK_KINDS } from '../targets/sdk/resolve-sdk-package.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';

export const RUN_USAGE = `Usage: mcp-error-matrix run [options]
  Runs every selected case × protocol version × target, judges each cell and prints TAP 14 on stdout
  (with --out, TAP goes to DIR/results.tap, and to stdout only with --tap). Ends with the counts and
  each target's failures by consequence on stderr.

Targets (--target SPEC, repeatable; default: ${DEFAULT_TARGETS.join(', ')}):
  reference                     the project's reference classifier
  naive                         a negative control that concludes from the HTTP status alone
  classifier:<module>[#export]  your classifier function (default, classify or the only export), run in a
                                worker thread of this process
  command:<command line>        any client in any language, one process per cell; the server URL is appended
                                as the last argument; suffixes #versions=V[,V], #timeout=MS, and
                                #persistent[=N]: N long-lived processes take cells as JSON lines (README)
${describeClientKinds()}
                                every version is installed once into the user cache with npm
                                ($XDG_CACHE_HOME/mcp-error-matrix/clients, one line each as it starts), except
                                the pinned ones in a clone after \`npm ci\`, taken from its node_modules
  ts-sdk@<range>[#all]          an npm semver range, e.g. ts-sdk@^1.10.0, ts-client@2.x, "ts-sdk@>=1.17 <1.30":
                                the latest patch of every minor in it (#all: every published version),
                                each its own target and worker

Options:
  --target SPEC       a target, as above (repeatable)
  --mode http|direct  real requests over loopback (default) or scripted bytes without sockets
  --cases DIR|GLOB    case files to load (default: the bundled table)
  --case ID           only these case ids; globs allowed, e.g. 'http-*' (repeatable)
  --version V         only this protocol version: ${PROTOCOL_VERSIONS.join(' | ')} (repeatable)
  --out DIR           write the reports into DIR (replaced as a whole if absent, empty or an earlier report)
  --tap               with --out, also print TAP on stdout (without --out it always is)
  --timeout MS        per-exchange timeout (default ${DEFAULT_TIMEOUT_MS})
  --concurrency N     cells in parallel, pinned (default: start at 12 per core, at least 24; 4 per core,
                      at least 8, when a target starts a process per cell, e.g. a command: client, or is
                      mastra; then back off while cells come back starved by the machine's load)
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
  --pair OLD=NEW      with --compare: compare FILE's target OLD with this run's target NEW (repeatable), e.g.
                      --pair ts-client@2.0.0=ts-client@2.4.0; a family with one target in each pairs by itself
  --shard i/n         run only shard i of n (whole cases, dealt round-robin); combine with \`merge\`
  --sign KEY          sign receipts.json with this Ed25519 private key (PEM) into receipts.json.sig;
                      \`verify --key PUB\` checks it (needs --out)
  --help, -h          this text

Every cell's report carries a repro line: the \`run\` command that reruns that one cell.
Exit 0 nothing unexpected, 1 unexpected failures (fail, error, stale baseline, interrupted, regressions), 2 usage or input error.
`;

/** One help line per real-client kind: `ts-sdk@<version>  @modelcontextprotocol/sdk; pinned: …`. */
function describeClientKinds(): string {
  return Object.entries(SDK_KINDS)
    .map(([kind, { packageName }]) => {
      const pinned = listBundledSdkTargets().filter((target) => target.startsWith(`${kind}@`));
      return `  ${`${kind}@<version>`.padEnd(30)}${packageName}; pinned: ${pinned.join(', ') || 'none'}`;
    })
    .join('\n');
}
