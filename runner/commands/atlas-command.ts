// `mcp-error-matrix atlas --out site/`: every built-in client stack × every release since it spoke
// Streamable HTTP × every protocol version it speaks, as one static site (issue 32). Exit 0 when
// every planned version was measured or reused (the libraries' failures are the atlas's content,
// not its failure), 1 when it was stopped before, 2 on usage or input errors.
import { computeAtlasFingerprints } from '../atlas/atlas-fingerprint.js';
import { buildAtlas } from '../atlas/build-atlas.js';
import { listAtlasKinds, parseStackSelectors } from '../atlas/plan-atlas.js';
import { loadCases } from '../cases/load-cases.js';
import { selectCases } from '../cases/select-cases.js';
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { UsageError } from '../util/errors.js';
import { DEFAULT_TIMEOUT_MS, getDefaultConcurrency, parseVersion } from '../cli/options.js';
import { getPackageRoot, getPackageVersion } from '../util/package-paths.js';
import { resolveTarget } from '../targets/resolve-target.js';
import { getPublishedVersions } from '../targets/sdk/expand-version-range.js';
import { SDK_KINDS, type SdkKind } from '../targets/sdk/resolve-sdk-package.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';
import { prepareSchemaCheck } from './run-command.js';

/** Versions measured at once without --workers: each holds a client worker (~110 MB; docs/atlas-site.md). */
export const DEFAULT_ATLAS_WORKERS = 6;
/** How long a stopped atlas may take to write the site of what finished before the process exits anyway. */
export const ATLAS_STOP_DEADLINE_MS = 10 * 60_000;

export const ATLAS_USAGE = `Usage: mcp-error-matrix atlas --out DIR [options]
  Measures every built-in client stack (${listAtlasKinds().join(', ')}) at the latest
  patch of every minor it released, newest first, back to the first that speaks none of the table's
  protocol versions (${PROTOCOL_VERSIONS.join(', ')}), at every protocol version each speaks, and writes a
  static site: an index (stacks × versions), a page per stack (what changed from release to release),
  per version its matrix with every cell's evidence, a page per case, shields.io badges, receipts.
  A second atlas into the same folder reuses every version already measured with the same tool, case
  files and schemas (verified by the folder's receipts first) and runs only new releases and changed cases.

Options:
  --out DIR           the site folder (replaced as a whole if absent, empty or an earlier atlas or report)
  --stack SPEC        only this stack (repeatable): KIND, KIND#all (every release, not only the latest patch
                      of each minor), KIND@RANGE (exactly the versions of an npm range, no walk back), e.g.
                      --stack ts-sdk --stack 'ts-client@2.x#all' --stack 'mastra@>=1.10'
  --all-releases      every release of every stack, not only the latest patch of each minor
  --since DIR         print what changed since the atlas in DIR (new releases and what they do otherwise;
                      cells that now answer otherwise) as Markdown on stdout, and write it to DIR/changes.md
                      of the new site; DIR may be the --out folder itself (read before it is replaced)
  --fresh             reuse nothing from the atlas already in --out: measure every version again
  --workers N         versions measured at once, each with its live client worker (default ${DEFAULT_ATLAS_WORKERS})
  --concurrency N     cells in parallel across the versions measuring, pinned (default: start as \`run\` does for
                      the stack, 12 per core, at least 24; 4 per core, at least 8, for mastra and mcp-remote,
                      shared among the versions measuring, and back off when cells come back starved)
  --cases DIR|GLOB    case files to load (default: the bundled table)
  --case ID           only these case ids; globs allowed (repeatable)
  --version V         only this protocol version (repeatable)
  --timeout MS        per-exchange timeout (default ${DEFAULT_TIMEOUT_MS})
  --schemas DIR       the pinned official schemas; else MCP_SCHEMAS_DIR, the user cache, or a one-time download
  --no-schemas        skip schema checks (the site says so)
  --site-url URL      where the site will be published, for the badges' Markdown in badges.md
  --quiet, -q         no progress on stderr
  --help, -h          this text

Each version not installed yet is installed once into the user cache ($XDG_CACHE_HOME/mcp-error-matrix/clients),
one line each as it starts. A version that cannot be installed or started is shown as not measured (the next
atlas tries it again). \`mcp-error-matrix verify DIR\` checks the site's receipts, also after it moved.
Exit 0 every planned version measured or reused, 1 the atlas was stopped before, 2 usage or input error.
`;

const ATLAS_FLAGS = {
  out: { type: 'string' },
  stack: { type: 'string', multiple: true },
  'all-releases': { type: 'boolean' },
  since: { type: 'string' },
  fresh: { type: 'boolean' },
  workers: { type: 'string' },
  concurrency: { type: 'string' },
  cases: { type: 'string', multiple: true },
  case: { type: 'string', multiple: true },
  version: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  schemas: { type: 'string' },
  'no-schemas': { type: 'boolean' },
  'site-url': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

/** Runs `atlas`; returns the exit code. */
export async function runAtlasCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandFlags('atlas', { args, options: ATLAS_FLAGS, allowPositionals: false });
  if (values.out === undefined) throw new UsageError('atlas: --out DIR is required (the folder the site is written to), e.g. `mcp-error-matrix atlas --out site`');
  if (values['no-schemas'] && values.schemas !== undefined) throw new UsageError('atlas: --schemas and --no-schemas contradict each other; use one');
  const selectors = parseStackSelectors(values.stack ?? [], values['all-releases'] ?? false);
  const workers = parsePositive('--workers', values.workers, DEFAULT_ATLAS_WORKERS);
  const concurrency = values.concurrency === undefined ? undefined : parsePositive('--concurrency', values.concurrency, 0);
  const timeoutMs = parsePositive('--timeout', values.timeout, DEFAULT_TIMEOUT_MS);
  const versions = values.version?.map(parseVersion);
  const siteUrl = values['site-url'];
  if (siteUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(siteUrl)) throw new UsageError(`atlas --site-url ${siteUrl}: expected an http(s) URL, e.g. https://example.github.io/mcp-atlas`);
  const quiet = values.quiet ?? false;
  const say = (line: string) => {
    if (!quiet) io.stderr(`mcp-error-matrix atlas: ${line}\n`);
  };

  // The site folder is checked before anything runs, as `run --out` does.
  await (await import('../../reports/report-folder/check-report-folder.js')).checkReportFolder(values.out, { cwd: io.cwd, home: io.env['HOME'], shownAs: values.out });
  const cases = selectCases(await loadCases({ sources: values.cases, cwd: io.cwd }), values.case ?? []);
  const schemaCheck = await prepareSchemaCheck(values['no-schemas'] ? false : values.schemas, io);
  const fingerprints = await computeAtlasFingerprints();
  // Writing the site of what finished (every version's folder copied, every file hashed for the
  // receipts) took longer than the 20 s every other command gets on a machine at load 40, and the
  // forced exit lost 50 minutes of measurements: a stopped atlas gets ATLAS_STOP_DEADLINE_MS; a
  // second signal still exits at once.
  io.setStopMode?.('abort', 'stopping: versions measuring are stopped, the site is written with what finished', ATLAS_STOP_DEADLINE_MS);
  try {
    const built = await buildAtlas({
      out: values.out,
      shownAs: values.out,
      cwd: io.cwd,
      home: io.env['HOME'],
      selectors,
      cases,
      ...(versions ? { versions } : {}),
      timeoutMs,
      workers,
      fresh: values.fresh ?? false,
      ...(values.since === undefined ? {} : { since: { dir: values.since, shownAs: values.since } }),
      ...(siteUrl ? { siteUrl } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      onLine: say,
      listPublished: (kind) => getPublishedVersions(`${kind}@*`, SDK_KINDS[kind as SdkKind].packageName, {}),
      fingerprints,
      matrix: {
        resolve: (spec) => resolveTarget(spec, { cwd: io.cwd, ...(versions ? { versions } : {}), ...(quiet ? {} : { onInstall: (line: string) => say(line) }) }),
        // The cells of the versions measuring share one budget: each version gets its share.
        concurrencyFor: (target) => Math.max(2, Math.ceil((concurrency ?? getDefaultConcurrency([target])) / workers)),
        // As for `run`: the default is where each version starts and backs off when cells come back starved; --concurrency N pins it.
        adaptive: concurrency === undefined,
        checkSchemas: schemaCheck?.check ?? null,
        checkRequest: schemaCheck?.checkRequest ?? null,
        schemaInfo: schemaCheck?.info ?? null,
        repro: { program: io.invocation, cases: values.cases, noSchemas: schemaCheck === undefined },
      },
      schemas: { pins: schemaCheck ? schemaCheck.info.map((info) => ({ version: info.version, sha256: info.sha256 })) : null, info: schemaCheck?.info ?? null },
      receipts: async () => {
        const { collectRunInputs } = await import('../run/collect-inputs.js');
        const collected = await collectRunInputs({ cases, schemas: schemaCheck?.loaded ?? [], validatorCode: schemaCheck?.listUsedCode() ?? [], targets: [] });
        return { ...collected, rootDir: getPackageRoot() };
      },
      describeRan: async (targets) => (await import('../run/describe-what-ran.js')).describeWhatRan(targets),
      toolName: 'mcp-error-matrix',
      toolVersion: getPackageVersion(),
    });
    if (built.changes !== undefined) io.stdout(built.changes);
    const versionsCount = built.index.stacks.reduce((sum, stack) => sum + stack.versions.length, 0);
    const cells = built.index.stacks.reduce((sum, stack) => sum + stack.versions.reduce((n, v) => n + v.cells.length, 0), 0);
    say(`site written to ${values.out}/ (${built.files} files): ${built.index.stacks.length} stacks, ${versionsCount} versions, ${cells} cells${built.index.complete ? '' : '; INCOMPLETE: the atlas was stopped, the versions not measured are listed per stack'}`);
    return built.index.complete ? 0 : 1;
  } finally {
    io.setStopMode?.('exit');
  }
}

function parsePositive(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new UsageError(`atlas ${flag} ${value}: expected a positive whole number`);
  return number;
}

