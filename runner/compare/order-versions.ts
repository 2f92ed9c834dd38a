// The one order of package versions every report and command uses (the trend's columns, the
// choices `compare` offers, the nearest published versions): npm's semver order, so 1.9 comes
// before 1.10, 1.10.1-beta before 1.10.1, and pre-releases order by their dot-separated
// identifiers (beta.2 before beta.11, numeric before alphanumeric). Text order got all three wrong.
import { createRequire } from 'node:module';
import type { SemVer } from 'semver';

// semver's index loads about fifty modules: only the two functions used here are required, and
// only when versions are compared (most runs compare none).
const require = createRequire(import.meta.url);
let semver: { parse: typeof import('semver/functions/parse.js'); compareBuild: typeof import('semver/functions/compare-build.js') } | undefined;
const getSemver = () =>
  (semver ??= {
    parse: require('semver/functions/parse') as typeof import('semver/functions/parse.js'),
    compareBuild: require('semver/functions/compare-build') as typeof import('semver/functions/compare-build.js'),
  });

/**
 * Negative, zero or positive as `a` is older than, the same as or newer than `b`. A version with
 * fewer than three numbers (`1.9`) reads as the missing ones zero (`1.9.0`); text that is no
 * version at all sorts after every version, in code-unit order, so the order stays total.
 * Two spellings of one version (`1.9`, `1.9.0`) order by their text, so a sort is deterministic.
 */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [readVersion(a), readVersion(b)];
  if (x && y) return getSemver().compareBuild(x, y) || compareText(a, b);
  if (x || y) return x ? -1 : 1;
  return compareText(a, b);
}

function readVersion(text: string): SemVer | null {
  const { parse } = getSemver();
  const exact = parse(text, { loose: true });
  if (exact) return exact;
  const partial = /^v?(\d+)(?:\.(\d+))?([-+].*)?$/.exec(text);
  return partial ? parse(`${partial[1]}.${partial[2] ?? '0'}.0${partial[3] ?? ''}`, { loose: true }) : null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
