// Finds the installed client package for `<kind>@<version>` (the TypeScript SDK, or one of the
// client stacks in SDK_KINDS), in this order:
//  1. a version the project pins as an npm alias (a devDependency, e.g. `mcp-sdk-1.32.2`), when it is
//     installed in the project's own node_modules: a clone after `npm ci`, so tests and the default
//     run work offline;
//  2. the user cache ($XDG_CACHE_HOME/mcp-error-matrix/clients/<package>@<version>), where
//  3. any version not found above is installed once with npm (an installed mcp-error-matrix has no
//     devDependencies, so its default run installs the pinned versions there on first use).
// Each install says so in one line as it starts. A failed install is a TargetSpecError naming its
// cause and remedy: offline with nothing cached (go online once), a full disk, a folder that cannot
// be written, a version npm says does not exist (ETARGET, with the nearest published versions).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { TargetSpecError } from '../../util/errors.js';
import { compareVersions } from '../../compare/order-versions.js';
import { getPackageRoot, packagePath } from '../../util/package-paths.js';
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
  // fresh MCPClient compiles the tool's JSON Schema per cell); installed on demand like any version (~155 MB).
  mastra: { packageName: '@mastra/mcp', aliasPrefix: 'mastra-mcp-', flavor: 'mastra', stack: 'official TypeScript SDK', defaultRun: false, cpuBoundCells: true },
  // Not in the default run: a CLI process per call (~1 s of CPU each, 2.x).
  'inspector-cli': { packageName: '@modelcontextprotocol/inspector', aliasPrefix: 'mcp-inspector-', flavor: 'inspector-cli', stack: 'official TypeScript SDK', defaultRun: false },
  // Runs in the Workers runtime, not in Node: its worker bundles a host Worker with esbuild and serves
  // it with workerd, installed beside it (the project pins both; 254 MB with workerd's 149 MB binary).
  'cloudflare-agents': {
    packageName: 'agents',
    aliasPrefix: 'cloudflare-agents-',
    flavor: 'cloudflare-agents',
    stack: 'official TypeScript SDK',
    defaultRun: false,
    companions: ['workerd@1.20261123.1', 'esbuild@0.28.2'],
  },
} as const satisfies Record<string, { packageName: string; aliasPrefix: string; flavor: SdkFlavor; stack: string; defaultRun?: false; cpuBoundCells?: true; companions?: readonly string[]; streamableHttpClient?: string }>;
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
  /** Found as a pinned alias in the project's own node_modules (else: from the user cache). */
  bundled: boolean;
}

export interface ResolveSdkOptions {
  /** @default $XDG_CACHE_HOME/mcp-error-matrix/clients (or ~/.cache/…) */
  cacheDir?: string;
  /** The package whose own node_modules may hold the pinned aliases. @default this tool's package root */
  packageRoot?: string;
  /** Hears one line when an install into the cache starts (the CLI prints it on stderr). */
  onInstall?: (line: string) => void;
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

/**
 * The real-client versions the project pins as npm aliases in package.json, e.g. `ts-sdk@1.32.2`:
 * devDependencies, so a clone's `npm ci` installs them and an installed package does not.
 */
export function listBundledSdkTargets(): string[] {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const aliases = { ...pkg.dependencies, ...pkg.devDependencies };
  const targets: string[] = [];
  for (const [kind, spec] of Object.entries(SDK_KINDS)) {
    for (const [alias, range] of Object.entries(aliases)) {
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
  // Packages a stack needs beside its library that the library does not depend on (workerd for agents).
  const entry = SDK_KINDS[kind];
  const companions: readonly string[] = 'companions' in entry ? entry.companions : [];
  // Only the project's own node_modules: an alias folder of the same name above it (a parent project's) is not ours.
  const aliasDir = join(options.packageRoot ?? getPackageRoot(), 'node_modules', `${aliasPrefix}${version}`);
  if (existsSync(join(aliasDir, 'package.json'))) return describePackage(kind, flavor, aliasDir, true);
  const prefix = join(options.cacheDir ?? getDefaultCacheDir(), `${packageName.replace('/', '+')}@${version}`);
  const dir = join(prefix, 'node_modules', ...packageName.split('/'));
  if (!existsSync(join(dir, 'package.json'))) {
    const beside = companions.length > 0 ? ` with ${companions.join(', ')}` : '';
    options.onInstall?.(`installing ${packageName}@${version}${beside} for --target ${spec} into ${prefix} (once: later runs use it)`);
    await installPackage(spec, `${packageName}@${version}`, prefix, options, companions);
  }
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

async function installPackage(spec: string, packageSpec: string, prefix: string, options: ResolveSdkOptions, companions: readonly string[]): Promise<void> {
  const offline = options.offline ?? /^(1|true)$/i.test(process.env.npm_config_offline ?? '');
  const npm = options.npm ?? runNpm;
  // Only the version's own folder is removed after a failure, and only when this install made it:
  // the cache folder above may hold other installs (a range installs three at a time).
  const created = !existsSync(prefix);
  try {
    mkdirSync(prefix, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file in the way (XDG_CACHE_HOME names a file): named, not npm's ENOTDIR.
    const blocker = code === 'ENOTDIR' || code === 'EEXIST' ? findFileInPath(prefix) : undefined;
    if (blocker !== undefined) throw describeBlockedCache(spec, prefix, blocker);
    throw describeInstallFailure(spec, packageSpec, prefix, offline, { code, output: (error as Error).message });
  }
  const args = ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', ...(offline ? ['--offline'] : []), ...companions, packageSpec];
  try {
    await npm(args);
  } catch (error) {
    // A half-finished install (a full disk, a lost connection) must not pass for a cached one next time.
    if (created) rmSync(prefix, { recursive: true, force: true });
    const output = String((error as { stderr?: unknown }).stderr ?? (error as Error).message ?? error);
    const code = /npm (?:error|ERR!) code (E[A-Z0-9]+)\b/.exec(output)?.[1] ?? /\b(ENOSPC|EACCES|EPERM|EROFS|EDQUOT)\b/.exec(output)?.[1];
    // npm reached the registry and it has no such version: going online would not help.
    if (code === 'ETARGET') throw await describeMissingVersion(spec, packageSpec, npm, offline);
    throw describeInstallFailure(spec, packageSpec, prefix, offline, { code, output });
  }
}

/** A cache folder a file stands in the way of (XDG_CACHE_HOME names a file): the folder, the file and the remedy. */
function describeBlockedCache(spec: string, prefix: string, blocker: string): TargetSpecError {
  return new TargetSpecError(
    spec,
    `it must be installed into the client cache, but the folder ${prefix} cannot be created: ${blocker} is a file, not a folder. ` +
      'The cache is $XDG_CACHE_HOME/mcp-error-matrix/clients (else ~/.cache/…): point XDG_CACHE_HOME at a folder you can write, or, in a clone after `npm ci`, pick a pinned version ' +
      `(${listBundledSdkTargets().join(', ')})`,
  );
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

// npm's codes for a registry it could not reach, or a package not in its cache when offline.
const NETWORK_CODES = new Set(['ENOTCACHED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED', 'EPROTO', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN']);

/** Why an install failed and what to do, by cause: only a registry npm could not reach asks to go online. */
function describeInstallFailure(spec: string, packageSpec: string, prefix: string, offline: boolean, failure: { code: string | undefined; output: string }): TargetSpecError {
  const reason = failure.output.split('\n').find((line) => /npm (error|ERR!)/.test(line) && !/A complete log/.test(line)) ?? failure.output.trim().split('\n')[0];
  const what = `${packageSpec} could not be installed into ${prefix}${offline ? ' (offline)' : ''}: ${reason?.trim() || 'npm failed'}`;
  const yourself = `install it yourself with "npm install --prefix ${prefix} ${packageSpec}"`;
  const pinned = `or, in a clone after \`npm ci\`, a pinned version (${listBundledSdkTargets().join(', ')})`;
  if (failure.code === 'ENOSPC' || failure.code === 'EDQUOT') {
    return new TargetSpecError(spec, `${what}. The disk (or your quota) holding ${prefix} is full. Remedy: free some space, or set XDG_CACHE_HOME to a folder on a disk with room, and run again.`);
  }
  if (failure.code === 'EACCES' || failure.code === 'EPERM' || failure.code === 'EROFS') {
    return new TargetSpecError(spec, `${what}. This user cannot write there. Remedy: set XDG_CACHE_HOME to a folder you can write, or ${yourself} as a user who can.`);
  }
  if (offline || (failure.code !== undefined && NETWORK_CODES.has(failure.code))) {
    return new TargetSpecError(spec, `${what}. Remedy: go online once so it can be installed and cached, or ${yourself}, ${pinned}.`);
  }
  return new TargetSpecError(spec, `${what}. Remedy: fix what npm reports (its log has the details), then run again, or ${yourself}, ${pinned}.`);
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
  return new TargetSpecError(spec, `${packageName} has no version ${version} ${where}${nearest}. Pinned: ${listBundledSdkTargets().join(', ')}.`);
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


function describePackage(kind: SdkKind, flavor: SdkFlavor, dir: string, bundled: boolean): ResolvedSdkPackage {
  const source = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(source, 'utf8')) as { version?: unknown };
  return { kind, flavor, version: typeof pkg.version === 'string' ? pkg.version : 'unknown', dir, source, bundled };
}
