// Finds the installed client package for `<kind>@<version>` (the TypeScript SDK, or one of the
// client stacks in SDK_KINDS): a version the project bundles as an npm alias resolves locally; any other version is installed once with npm
// into the user cache. Offline with nothing cached is a TargetSpecError naming the remedy; a
// version npm says does not exist (ETARGET) is one naming the nearest published versions.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { TargetSpecError } from '../../errors.js';
import { getPackageRoot, packagePath } from '../../package-paths.js';
import type { SdkFlavor } from './sdk-worker.js';

const run = promisify(execFile);

/**
 * The built-in real-client kinds: the npm package, the alias prefix a bundled version is installed
 * under, the worker flavor that drives it, and its stack: the wire implementation it runs on
 * (stacks built on the official SDK inherit its handling; the HTML groups targets by it).
 */
export const SDK_KINDS = {
  // Its Streamable HTTP client arrived in 1.10.0; older versions (0.x to 1.9) ship only SSE, stdio and WebSocket clients.
  'ts-sdk': { packageName: '@modelcontextprotocol/sdk', aliasPrefix: 'mcp-sdk-', flavor: 'v1', stack: 'official TypeScript SDK', streamableHttpClient: 'dist/esm/client/streamableHttp.js' },
  'ts-client': { packageName: '@modelcontextprotocol/client', aliasPrefix: 'mcp-client-', flavor: 'v2', stack: 'official TypeScript SDK' },
  'ai-sdk': { packageName: '@ai-sdk/mcp', aliasPrefix: 'ai-sdk-mcp-', flavor: 'ai-sdk', stack: 'Vercel AI SDK' },
  'openai-agents': { packageName: '@openai/agents', aliasPrefix: 'openai-agents-', flavor: 'openai-agents', stack: 'official TypeScript SDK' },
  // Not in the default run: a bridge process per cell costs ~1.5 s of CPU (112 cells ≈ 170 CPU-seconds).
  'mcp-remote': { packageName: 'mcp-remote', aliasPrefix: 'mcp-remote-', flavor: 'mcp-remote', stack: 'official TypeScript SDK', defaultRun: false },
  langchain: { packageName: '@langchain/mcp-adapters', aliasPrefix: 'langchain-mcp-adapters-', flavor: 'langchain', stack: 'official TypeScript SDK' },
  // Not in the default run, and a lower default concurrency: ~3x the CPU per cell of openai-agents (a
  // fresh MCPClient compiles the tool's JSON Schema per cell); its alias is a devDependency (tests),
  // users install it on demand (~155 MB).
  mastra: { packageName: '@mastra/mcp', aliasPrefix: 'mastra-mcp-', flavor: 'mastra', stack: 'official TypeScript SDK', defaultRun: false, cpuBoundCells: true },
} as const satisfies Record<string, { packageName: string; aliasPrefix: string; flavor: SdkFlavor; stack: string; defaultRun?: false; cpuBoundCells?: true; streamableHttpClient?: string }>;
export type SdkKind = keyof typeof SDK_KINDS;

export interface ResolvedSdkPackage {
  kind: SdkKind;
  flavor: SdkFlavor;
  /** The version installed (read from its package.json). */
  version: string;
  /** The package directory. */
  dir: string;
  /** The package.json path, for receipts. */
  source: string;
  bundled: boolean;
}

export interface ResolveSdkOptions {
  /** @default $XDG_CACHE_HOME/mcp-error-matrix/clients (or ~/.cache/…) */
  cacheDir?: string;
  /** Install with `npm --offline` (from npm's cache only). @default from npm_config_offline */
  offline?: boolean;
  /** Runs npm with these arguments (the seam tests replace). @default the npm on PATH */
  npm?: RunNpm;
}

/** Runs npm; rejects with an error carrying npm's `stderr` when it exits non-zero. */
export type RunNpm = (args: string[]) => Promise<{ stdout: string }>;

export const runNpm: RunNpm = async (args) => {
  const { stdout } = await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { timeout: 180_000, maxBuffer: 4 * 1024 * 1024 });
  return { stdout: String(stdout) };
};

/** The real-client targets the project bundles as npm aliases, e.g. `ts-sdk@1.32.2`. */
export function listBundledSdkTargets(): string[] {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const targets: string[] = [];
  for (const [kind, spec] of Object.entries(SDK_KINDS)) {
    for (const [alias, range] of Object.entries(pkg.dependencies ?? {})) {
      const version = alias.startsWith(spec.aliasPrefix) ? alias.slice(spec.aliasPrefix.length) : undefined;
      if (version && range === `npm:${spec.packageName}@${version}`) targets.push(`${kind}@${version}`);
    }
  }
  return targets;
}

/** The bundled real clients the default run uses: every bundled version of a kind not marked `defaultRun: false`. */
export function listDefaultSdkTargets(): string[] {
  return listBundledSdkTargets().filter((target) => {
    const kind = SDK_KINDS[target.slice(0, target.indexOf('@')) as SdkKind];
    return !('defaultRun' in kind && kind.defaultRun === false);
  });
}

/** Resolves `<kind>@<version>` to an installed package, installing it into the cache if needed. */
export async function resolveSdkPackage(spec: string, options: ResolveSdkOptions = {}): Promise<ResolvedSdkPackage> {
  const match = /^([a-z][a-z0-9-]*)@(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(spec);
  if (!match || !Object.hasOwn(SDK_KINDS, match[1]!)) {
    const kinds = Object.keys(SDK_KINDS).map((kind) => `${kind}@<exact version>`);
    throw new TargetSpecError(spec, `expected ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}, e.g. ts-sdk@1.32.2`);
  }
  const kind = match[1] as SdkKind;
  const version = match[2]!;
  const { packageName, aliasPrefix, flavor } = SDK_KINDS[kind];
  const bundledDir = findInNodeModules(`${aliasPrefix}${version}`);
  if (bundledDir) return describePackage(kind, flavor, bundledDir, true);
  const prefix = join(options.cacheDir ?? getDefaultCacheDir(), `${packageName.replace('/', '+')}@${version}`);
  const dir = join(prefix, 'node_modules', ...packageName.split('/'));
  if (!existsSync(join(dir, 'package.json'))) await installPackage(spec, `${packageName}@${version}`, prefix, options);
  const resolved = describePackage(kind, flavor, dir, false);
  if (resolved.version !== version) throw new TargetSpecError(spec, `the cache at ${prefix} holds ${packageName} ${resolved.version}, not ${version}; delete that folder and run again`);
  return resolved;
}

/**
 * Why an installed package cannot run the matrix at all: the module of its Streamable HTTP client
 * (the transport of every protocol version in the matrix) is not in it. Read from the package's
 * files, not guessed from its version; undefined when it has one (or the kind names no such file).
 */
export function describeMissingTransport(resolved: Pick<ResolvedSdkPackage, 'kind' | 'dir'>): string | undefined {
  const kind = SDK_KINDS[resolved.kind];
  const file = 'streamableHttpClient' in kind ? kind.streamableHttpClient : undefined;
  if (file === undefined || existsSync(join(resolved.dir, file))) return undefined;
  return (
    `has no Streamable HTTP client (${file} is not in the package), the transport every protocol version of the matrix runs over, ` +
    'so it speaks none of them; @modelcontextprotocol/sdk added that client in 1.10.0'
  );
}

/** Where on-demand client installs live: `$XDG_CACHE_HOME/mcp-error-matrix/clients`, else `~/.cache/…` (a relative XDG_CACHE_HOME is ignored, as the XDG spec says). */
export function getDefaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(base, 'mcp-error-matrix', 'clients');
}

async function installPackage(spec: string, packageSpec: string, prefix: string, options: ResolveSdkOptions): Promise<void> {
  createCacheFolder(spec, prefix);
  const offline = options.offline ?? /^(1|true)$/i.test(process.env.npm_config_offline ?? '');
  const npm = options.npm ?? runNpm;
  const args = ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', ...(offline ? ['--offline'] : []), packageSpec];
  try {
    await npm(args);
  } catch (error) {
    const output = String((error as { stderr?: unknown }).stderr ?? (error as Error).message ?? error);
    // npm reached the registry and it has no such version: going online would not help.
    if (/npm (?:error|ERR!) code ETARGET\b/.test(output)) throw await describeMissingVersion(spec, packageSpec, npm, offline);
    const reason = output.split('\n').find((line) => /npm (error|ERR!)/.test(line) && !/A complete log/.test(line)) ?? output.trim().split('\n')[0];
    throw new TargetSpecError(
      spec,
      `${packageSpec} is not bundled and could not be installed into ${prefix}${offline ? ' (offline)' : ''}: ${reason?.trim() ?? 'npm failed'}. ` +
        `Remedy: go online once so it can be installed and cached, or install it yourself with "npm install --prefix ${prefix} ${packageSpec}", or pick a bundled version (${listBundledSdkTargets().join(', ')}).`,
    );
  }
}

/**
 * Creates the folder an install goes into; a cache that cannot hold it (XDG_CACHE_HOME names a
 * file, a read-only disk, no permission) is a TargetSpecError naming the folder and the remedy.
 */
function createCacheFolder(spec: string, prefix: string): void {
  try {
    mkdirSync(prefix, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const blocker = code === 'ENOTDIR' || code === 'EEXIST' ? findFileInPath(prefix) : undefined;
    const why = blocker !== undefined ? `${blocker} is a file, not a folder` : `${(error as Error).message}`;
    throw new TargetSpecError(
      spec,
      `it is not bundled and must be installed into the client cache, but the folder ${prefix} cannot be created: ${why}. ` +
        'The cache is $XDG_CACHE_HOME/mcp-error-matrix/clients (else ~/.cache/…): point XDG_CACHE_HOME at a folder you can write, or pick a bundled version ' +
        `(${listBundledSdkTargets().join(', ')})`,
    );
  }
}

/** The first existing ancestor of `path` (itself included) that is not a folder, if any. */
function findFileInPath(path: string): string | undefined {
  let found: string | undefined;
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      if (!statSync(dir).isDirectory()) found = dir;
    } catch {
      // Not there (yet): look further up.
    }
    if (dirname(dir) === dir) return found;
  }
}

/** The error for a version the registry does not have, naming the nearest published ones. */
async function describeMissingVersion(spec: string, packageSpec: string, npm: RunNpm, offline: boolean): Promise<TargetSpecError> {
  const at = packageSpec.lastIndexOf('@');
  const [packageName, version] = [packageSpec.slice(0, at), packageSpec.slice(at + 1)];
  const kind = spec.slice(0, spec.indexOf('@'));
  let nearest = '';
  try {
    const published = JSON.parse((await npm(['view', packageName, 'versions', '--json'])).stdout) as unknown;
    const versions = (Array.isArray(published) ? published : [published]).filter((v): v is string => typeof v === 'string');
    const near = pickNearestVersions(version, versions);
    if (near.length > 0) nearest = `; the nearest published: ${near.map((v) => `${kind}@${v}`).join(', ')} (newest: ${kind}@${versions.filter(isRelease).sort(compareVersions).at(-1)})`;
  } catch {
    // The list is a help, not a requirement: the message stands without it.
  }
  // Offline, npm answered from its cached copy of the registry's version list, which may be old.
  const where = offline ? "in npm's cached copy of the registry (offline; go online to refresh it)" : 'on the npm registry';
  return new TargetSpecError(spec, `${packageName} has no version ${version} ${where}${nearest}. Bundled: ${listBundledSdkTargets().join(', ')}.`);
}

/** Up to two published releases on each side of the requested version, in version order. */
export function pickNearestVersions(requested: string, published: string[]): string[] {
  const releases = published.filter(isRelease).sort(compareVersions);
  const position = releases.findIndex((candidate) => compareVersions(candidate, requested) > 0);
  const split = position === -1 ? releases.length : position;
  const below = releases.slice(0, split);
  const above = releases.slice(split);
  const takeBelow = Math.min(below.length, Math.max(2, 4 - above.length));
  return [...below.slice(below.length - takeBelow), ...above.slice(0, 4 - takeBelow)];
}

function isRelease(version: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(version);
}

function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).slice(0, 3).map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return (x![i] ?? 0) - (y![i] ?? 0);
  return 0;
}

// The alias folder of a bundled version: in our own node_modules, or hoisted above us.
function findInNodeModules(name: string): string | undefined {
  let dir = getPackageRoot();
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function describePackage(kind: SdkKind, flavor: SdkFlavor, dir: string, bundled: boolean): ResolvedSdkPackage {
  const source = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(source, 'utf8')) as { version?: unknown };
  return { kind, flavor, version: typeof pkg.version === 'string' ? pkg.version : 'unknown', dir, source, bundled };
}
