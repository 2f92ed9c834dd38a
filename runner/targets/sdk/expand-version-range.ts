// `ts-sdk@^1.10.0`, `ts-client@2.x`, `ts-sdk@>=1.17 <1.30`: a target spec carrying an npm semver
// range expands to one exact-version spec per minor in the range (its latest patch), or with the
// `#all` suffix to every published release in it. The published versions come from the registry
// (`npm view <package> versions --json`), cached in the user cache for a short time; offline with
// no cached list is a TargetSpecError naming the package, the cache file and the remedy.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type SemverModule from 'semver';
import { TargetSpecError } from '../../util/errors.js';
import { readUserText } from '../../io/read-user-file.js';
import { getDefaultCacheDir, listBundledSdkTargets, runNpm, SDK_KINDS, type RunNpm, type SdkKind } from './resolve-sdk-package.js';

// semver (about 50 CommonJS files) is required on first use: a run without a `kind@version` target never loads it.
let semverModule: typeof SemverModule | undefined;
const getSemver = (): typeof SemverModule => (semverModule ??= createRequire(import.meta.url)('semver') as typeof SemverModule);

/** How long a fetched version list is used before it is fetched again. */
export const VERSION_LIST_TTL_MS = 10 * 60 * 1000;
/** Versions one range may expand to: each becomes an SDK worker process. */
export const MAX_RANGE_TARGETS = 128;
/** A cached version list (the registry's has ~100 entries of ~10 bytes). */
const VERSION_LIST_MAX_BYTES = 1024 * 1024;

export interface ExpandRangeOptions {
  /** @default $XDG_CACHE_HOME/mcp-error-matrix/clients (the version lists go in its `.versions/`) */
  cacheDir?: string;
  /** Runs npm (the seam tests replace). @default the npm on PATH */
  npm?: RunNpm;
  /** @default Date.now */
  now?: () => number;
}

/** A spec split into kind, range and the `#all` flag; undefined when it names no SDK range. */
export interface SdkRangeSpec {
  kind: SdkKind;
  range: string;
  all: boolean;
}

/**
 * Reads `<kind>@<range>[#all]`. An exact version (`ts-sdk@1.32.2`) is not a range; anything after
 * the `@` that is neither an exact version nor a valid npm range is a TargetSpecError.
 */
export function parseSdkRangeSpec(spec: string): SdkRangeSpec | undefined {
  const match = /^([a-z][a-z0-9-]*)@(.*)$/s.exec(spec);
  if (!match || !Object.hasOwn(SDK_KINDS, match[1]!)) return undefined;
  const kind = match[1] as SdkKind;
  let range = match[2]!.trim();
  const all = range.endsWith('#all');
  if (all) range = range.slice(0, -'#all'.length).trim();
  if (!all && getSemver().valid(range) !== null && !/^[v=]/.test(range)) return undefined; // an exact version: resolved as it is
  if (range === '' || getSemver().validRange(range) === null) {
    throw new TargetSpecError(
      spec,
      `"${range}" is neither an exact version nor an npm semver range; write e.g. ${kind}@1.32.2, ${kind}@^1.10.0, ${kind}@1.x or "${kind}@>=1.17 <1.30" (add #all for every published version, not only the latest patch of each minor)`,
    );
  }
  return { kind, range, all };
}

/**
 * The versions of `published` a range selects, oldest first: the latest patch of each minor, or
 * every one with `all`. Pre-releases only when the range names one (npm's own rule).
 */
export function selectRangeVersions(range: string, published: readonly string[], all: boolean): string[] {
  const matching = published.filter((v) => getSemver().valid(v) !== null && getSemver().satisfies(v, range)).sort(getSemver().compare);
  if (all) return [...new Set(matching)];
  const latestPerMinor = new Map<string, string>();
  for (const version of matching) latestPerMinor.set(`${getSemver().major(version)}.${getSemver().minor(version)}`, version);
  return [...latestPerMinor.values()];
}

/** Expands every spec carrying a range; other specs pass through. Duplicates are dropped, order kept. */
export async function expandTargetRanges(specs: readonly string[], options: ExpandRangeOptions = {}): Promise<{ specs: string[]; expanded: { spec: string; versions: string[] }[] }> {
  const out: string[] = [];
  const expanded: { spec: string; versions: string[] }[] = [];
  for (const spec of specs) {
    const parsed = parseSdkRangeSpec(spec);
    if (!parsed) {
      out.push(spec);
      continue;
    }
    const { packageName } = SDK_KINDS[parsed.kind];
    const published = await getPublishedVersions(spec, packageName, options);
    const versions = selectRangeVersions(parsed.range, published, parsed.all);
    if (versions.length === 0) {
      const releases = published.filter((v) => getSemver().valid(v) !== null && getSemver().prerelease(v) === null).sort(getSemver().compare);
      throw new TargetSpecError(
        spec,
        `no published version of ${packageName} matches "${parsed.range}"; published releases run from ${releases[0] ?? '?'} to ${releases.at(-1) ?? '?'}`,
      );
    }
    if (versions.length > MAX_RANGE_TARGETS) {
      throw new TargetSpecError(spec, `"${parsed.range}" selects ${versions.length} versions, more than ${MAX_RANGE_TARGETS} (one worker process each); narrow the range`);
    }
    expanded.push({ spec, versions });
    out.push(...versions.map((version) => `${parsed.kind}@${version}`));
  }
  return { specs: [...new Set(out)], expanded };
}

interface CachedList {
  fetchedAt: number;
  versions: string[];
}

/** The registry's version list for a package: the cached copy while fresh, else npm view (a stale copy when npm fails). `spec` names the flag in errors. */
export async function getPublishedVersions(spec: string, packageName: string, options: ExpandRangeOptions): Promise<string[]> {
  const file = join(options.cacheDir ?? getDefaultCacheDir(), '.versions', `${packageName.replace('/', '+')}.json`);
  const now = (options.now ?? Date.now)();
  const cached = await readCachedList(file);
  if (cached && now - cached.fetchedAt >= 0 && now - cached.fetchedAt < VERSION_LIST_TTL_MS) return cached.versions;
  let versions: string[];
  try {
    const { stdout } = await (options.npm ?? runNpm)(['view', packageName, 'versions', '--json']);
    versions = parseVersionList(JSON.parse(stdout) as unknown);
    if (versions.length === 0) throw new Error('npm view answered no version');
  } catch (error) {
    if (cached) return cached.versions; // offline: the last list known is better than none (the installs say what is missing)
    // npm's stderr, unless it printed nothing (stopped by its time limit): then the error's own words.
    const stderr = (error as { stderr?: unknown }).stderr;
    const output = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : String((error as Error).message ?? error);
    const reason = output.split('\n').find((line) => /npm (error|ERR!)/.test(line) && !/A complete log/.test(line)) ?? (output.trim().split('\n')[0] || 'npm failed');
    throw new TargetSpecError(
      spec,
      `a version range needs the list of published versions of ${packageName}, and none could be fetched (${reason.trim()}) nor found in the cache (${file}). ` +
        `Remedy: go online once so the list can be fetched and cached, or name exact versions (pinned: ${listBundledSdkTargets().join(', ')}).`,
    );
  }
  writeCachedList(file, { fetchedAt: now, versions });
  return versions;
}

/** `npm view … versions --json` prints an array, or a bare string when there is one version. */
function parseVersionList(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && getSemver().valid(v) !== null);
}

async function readCachedList(file: string): Promise<CachedList | undefined> {
  try {
    const value = JSON.parse(await readUserText(file, { maxBytes: VERSION_LIST_MAX_BYTES, what: 'cached version list' })) as unknown;
    const { fetchedAt, versions } = (value ?? {}) as { fetchedAt?: unknown; versions?: unknown };
    if (typeof fetchedAt !== 'number' || !Array.isArray(versions)) return undefined;
    return { fetchedAt, versions: parseVersionList(versions) };
  } catch {
    return undefined; // missing, unreadable or not ours: fetched again
  }
}

/** Written beside and renamed, so a concurrent run never reads half a list. A cache that cannot be written costs a fetch next time, nothing else. */
function writeCachedList(file: string, list: CachedList): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(list)}\n`);
    renameSync(temporary, file);
  } catch {
    // see above
  }
}
