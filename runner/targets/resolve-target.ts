// Turns `--target` specs into targets. New kinds register one factory here.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { closest } from '../cases/case-errors.js';
import { classifyNaive } from '../classify/naive.js';
import { classifyReference } from '../classify/reference.js';
import { RunnerError, TargetSpecError } from '../util/errors.js';
import { getPackageVersion } from '../util/package-paths.js';
import type { ProtocolVersion, Target } from '../vocabulary/types.js';
import { createClassifierTarget, createIsolatedClassifierTarget } from './classifier-target.js';
import { loadClassifierModule } from './load-classifier-module.js';
import { expandTargetRanges, type ExpandRangeOptions } from './sdk/expand-version-range.js';
import { listDefaultSdkTargets } from './sdk/resolve-sdk-package.js';
import { SDK_TARGET_KINDS } from './sdk/sdk-target.js';
import { createTargetInPlaceOf, createUnstartedTarget, TargetStartError } from './unstarted-target.js';

export interface ResolveTargetOptions {
  cwd: string;
  /** The protocol versions the run will ask about: a client stack that probes its versions at start probes only these. @default all */
  versions?: readonly ProtocolVersion[];
  /** Where client versions that are not bundled are installed. @default $XDG_CACHE_HOME/mcp-error-matrix/clients */
  cacheDir?: string;
  /** Hears one line as each client install into the user cache starts. */
  onInstall?: (line: string) => void;
}

type TargetFactory = (spec: string, options: ResolveTargetOptions) => Promise<Target>;

/** Built-in targets, by the name used on the command line. Project-owned and trusted: they run in-process (fast). */
const BUILT_IN_TARGETS: Record<string, TargetFactory> = {
  reference: async () =>
    createClassifierTarget(
      { name: 'reference', kind: 'classifier', version: getPackageVersion(), source: getModuleFile('../classify/reference.js') },
      classifyReference,
    ),
  naive: async () =>
    createClassifierTarget(
      { name: 'naive', kind: 'classifier', version: getPackageVersion(), source: getModuleFile('../classify/naive.js') },
      classifyNaive,
    ),
};

/** Target kinds written `<kind>:<argument>`. */
const TARGET_KINDS: Record<string, TargetFactory> = {
  classifier: async (spec, options) => {
    const loaded = await loadClassifierModule(spec, options.cwd);
    return createIsolatedClassifierTarget({ name: spec, kind: 'classifier', source: loaded.file }, loaded.classifier);
  },
  ...SDK_TARGET_KINDS, // ts-sdk@<version>, ts-client@<version>
  command: async (spec, options) => (await import('./command-target.js')).resolveCommandTarget(spec, options),
};

/** The kinds written `<kind>:<argument>` or `<kind>@<version>`, for help texts and their tests. */
export function listTargetKinds(): string[] {
  return Object.keys(TARGET_KINDS);
}

/** The targets the default run uses: the reference, the negative control, and the bundled real clients (mcp-remote aside: a process per cell). */
export const DEFAULT_TARGETS = ['reference', 'naive', ...listDefaultSdkTargets()];

/** Resolves one --target spec, or throws a TargetSpecError naming what would be valid. */
export async function resolveTarget(spec: string, options: ResolveTargetOptions): Promise<Target> {
  const builtIn = BUILT_IN_TARGETS[spec];
  if (builtIn) return builtIn(spec, options);
  const kind = /^([a-z][a-z0-9-]*)[:@]/.exec(spec)?.[1];
  const factory = kind === undefined ? undefined : TARGET_KINDS[kind];
  if (factory) return factory(spec, options);
  const known = [...Object.keys(BUILT_IN_TARGETS), 'classifier:<module>[#export]', 'command:<command line>', ...Object.keys(SDK_TARGET_KINDS).map((kind) => `${kind}@<version|range>`)];
  const guess = closest(spec, Object.keys(BUILT_IN_TARGETS)) ?? (kind === undefined ? undefined : closest(kind, Object.keys(TARGET_KINDS)));
  throw new TargetSpecError(spec, `unknown target${guess ? ` (did you mean "${guess}"?)` : ''}; use one of: ${known.join(', ')}`);
}

/**
 * Expands the specs carrying a version range (`ts-sdk@^1.10.0`, `ts-client@2.x[#all]`) into one
 * exact-version spec each; `onExpanded` hears what each range became (for a progress line).
 */
export async function expandTargetSpecs(
  specs: readonly string[],
  options: ExpandRangeOptions & { onExpanded?: (spec: string, versions: string[]) => void } = {},
): Promise<string[]> {
  const { specs: expanded, expanded: ranges } = await expandTargetRanges(specs, options);
  for (const range of ranges) options.onExpanded?.(range.spec, range.versions);
  return expanded;
}

/**
 * Resolves several specs, `concurrency` at a time (SDK versions install and start a worker each),
 * in the order given. Every spec is tried, so one error names every target that failed (offline, each
 * version of a range that is not cached); the targets already started are then closed.
 * A target that cannot run (TargetStartError: its worker exited before it was ready, or it has no
 * transport for the matrix) takes its place as a target whose cells say so, and the run goes on.
 * Once `signal` is aborted (the run is being stopped: a signal to the whole process group kills the
 * workers and npm too) any failure does the same, so a stop ends alike whoever received the signal.
 */
export async function resolveTargets(specs: readonly string[], options: ResolveTargetOptions & { concurrency?: number; signal?: AbortSignal }): Promise<Target[]> {
  const resolved: (Target | undefined)[] = new Array(specs.length);
  const failures: { index: number; error: unknown }[] = [];
  let next = 0;
  const lane = async () => {
    while (next < specs.length) {
      const index = next++;
      try {
        resolved[index] = await resolveTarget(specs[index]!, options);
      } catch (error) {
        if (error instanceof TargetStartError) resolved[index] = createTargetInPlaceOf(error);
        else if (options.signal?.aborted) resolved[index] = createUnstartedTarget({ name: specs[index]!, kind: guessTargetKind(specs[index]!) }, `the run was stopped while it started (${describeError(error)})`);
        else failures.push({ index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, specs.length)) }, lane));
  if (failures.length === 0) return resolved as Target[];
  await Promise.allSettled(resolved.map((target) => target?.close?.()));
  failures.sort((a, b) => a.index - b.index);
  const first = failures[0]!.error;
  if (failures.length === 1 || !failures.every((f) => f.error instanceof TargetSpecError)) throw first;
  throw new RunnerError('MEM_TARGET', `${failures.length} targets could not be resolved:\n  - ${failures.map((f) => (f.error as Error).message).join('\n  - ')}`);
}

/** The kind a spec names (`client` for `<kind>@…`), for a target that never started. */
function guessTargetKind(spec: string): string {
  if (BUILT_IN_TARGETS[spec]) return 'classifier';
  const kind = /^([a-z][a-z0-9-]*)[:@]/.exec(spec)?.[1];
  return kind === 'classifier' || kind === 'command' ? kind : 'client';
}

function describeError(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 500);
}

/** The file a built-in module was loaded from: compiled .js, or the .ts source under vitest. */
function getModuleFile(relativeJs: string): string {
  const js = fileURLToPath(new URL(relativeJs, import.meta.url));
  return existsSync(js) ? js : js.replace(/\.js$/, '.ts');
}
