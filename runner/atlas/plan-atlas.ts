// Which versions of which stacks an atlas covers (issue 32 item 1): every kind of SDK_KINDS (or
// those --stack names), and per kind the latest patch of every minor ever released, newest first
// (`#all` or --all-releases: every release). Without a range the atlas walks back from the newest
// and stops at the first version that speaks none of the table's protocol versions (or cannot
// start): that is where the stack began to speak Streamable HTTP (run-atlas-schedule.ts applies it).
// With `--stack KIND@RANGE` exactly the versions in the range are measured, no walk back.
import { createRequire } from 'node:module';
import type SemverModule from 'semver';
import { closest } from '../cases/case-errors.js';
import { UsageError } from '../util/errors.js';
import { selectRangeVersions } from '../targets/sdk/expand-version-range.js';
import { SDK_KINDS } from '../targets/sdk/resolve-sdk-package.js';

const getSemver = (): typeof SemverModule => createRequire(import.meta.url)('semver') as typeof SemverModule;

/** One `--stack` value: `ts-sdk`, `ts-sdk#all`, `ts-sdk@>=1.20`, `"ts-sdk@1.x#all"`. */
export interface StackSelector {
  kind: string;
  range?: string;
  all: boolean;
}

/** The versions of one stack an atlas will look at, newest first. */
export interface StackPlan {
  kind: string;
  /** Newest first. */
  versions: string[];
  releases: 'minors' | 'all';
  range?: string;
  /** Stop at the first version (newest first) that speaks nothing: true unless a range was given. */
  walkBack: boolean;
}

/** Every built-in stack, in the registry's order: a kind added to SDK_KINDS is in the atlas with no other change. */
export function listAtlasKinds(): string[] {
  return Object.keys(SDK_KINDS);
}

/** Parses the `--stack` values (none: every kind); `allReleases` (--all-releases) applies `#all` to each. */
export function parseStackSelectors(values: readonly string[], allReleases: boolean, kinds: readonly string[] = listAtlasKinds()): StackSelector[] {
  if (values.length === 0) return kinds.map((kind) => ({ kind, all: allReleases }));
  const seen = new Set<string>();
  return values.map((value) => {
    const match = /^([a-z][a-z0-9-]*)(?:@(.*?))?(#all)?$/s.exec(value.trim());
    const kind = match?.[1];
    if (!match || kind === undefined || !kinds.includes(kind)) {
      const guess = kind === undefined ? undefined : closest(kind, [...kinds]);
      throw new UsageError(`atlas --stack ${value}: unknown stack${guess ? ` (did you mean "${guess}"?)` : ''}; use one of ${kinds.join(', ')}, optionally with @RANGE and #all`);
    }
    if (seen.has(kind)) throw new UsageError(`atlas --stack ${value}: ${kind} is given twice; give each stack once`);
    seen.add(kind);
    const range = match[2]?.trim();
    if (range !== undefined && (range === '' || getSemver().validRange(range) === null)) {
      throw new UsageError(`atlas --stack ${value}: "${range}" is not an npm semver range; write e.g. ${kind}@1.x, "${kind}@>=1.20" or ${kind}@1.24.3`);
    }
    return { kind, ...(range === undefined ? {} : { range }), all: allReleases || match[3] !== undefined };
  });
}

/**
 * The versions of a stack to look at, newest first: of the published releases (pre-releases only
 * when the range names one, as npm does), the latest patch of each minor, or every one with `all`.
 */
export function planStack(selector: StackSelector, published: readonly string[]): StackPlan {
  const versions = selectRangeVersions(selector.range ?? '*', published, selector.all).reverse();
  return {
    kind: selector.kind,
    versions,
    releases: selector.all ? 'all' : 'minors',
    ...(selector.range === undefined ? {} : { range: selector.range }),
    walkBack: selector.range === undefined,
  };
}
