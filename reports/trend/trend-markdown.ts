// summary.md's version trend: for each family of versions in the run, one list item per version
// with its counts and what changed against the version before, grouped by old → new outcome, each
// group naming its cases ("3 cells regressed" alone is not something a reader can act on).
import type { RunResult } from '../../runner/vocabulary/types.js';
import { buildTrendFamilies, type TrendRowKey, type TrendTransition, type TrendVersion } from './trend-view-model.js';

/** Transitions listed per version and kind; the rest are counted. */
const TRANSITIONS_SHOWN = 3;
/** Cases named per transition; the rest are counted (matrix.html's trend table lists every row). */
const CASES_SHOWN = 5;

/** The trend sections (none when the run holds no family of two or more versions). */
export function renderTrendMarkdown(result: Pick<RunResult, 'cells' | 'targets'>, escape: (text: string) => string): string[] {
  const lines: string[] = [];
  for (const family of buildTrendFamilies(result.cells, result.targets)) {
    lines.push(`### Version trend: ${escape(family.family)} (${family.versions.length} versions)`, '');
    family.versions.forEach((version, i) => {
      const counts = `${version.passed} passed, ${version.failed} failed, ${version.falseSuccesses} false successes${version.skipped ? `, ${version.skipped} skipped` : ''}${version.errors ? `, ${version.errors} not measured (error)` : ''}`;
      const changes = i === 0 ? 'first version' : describeChanges(version, escape);
      lines.push(`- **${escape(version.version)}**: ${changes} (${counts})`);
    });
    lines.push('', `${family.rows.length} case × protocol version rows change between versions; ${family.steadyRows} stay the same.`, '');
  }
  return lines;
}

function describeChanges(version: TrendVersion, escape: (text: string) => string): string {
  const parts: string[] = [];
  for (const [change, count, word] of [
    ['fix', version.fixed, 'fixed'],
    ['regression', version.regressed, 'regressed'],
    ['changed', version.changed, 'with another outcome'],
  ] as const) {
    if (count === 0) continue;
    const shown = version.transitions.filter((t) => t.change === change);
    const listed = shown.slice(0, TRANSITIONS_SHOWN).map((t) => describeTransition(t, escape));
    const more = shown.length > TRANSITIONS_SHOWN ? `; ${shown.length - TRANSITIONS_SHOWN} more kinds` : '';
    parts.push(`${count} ${count === 1 ? 'cell' : 'cells'} ${word} (${listed.join('; ')}${more})`);
  }
  return parts.length === 0 ? 'no change' : parts.join(', ');
}

function describeTransition(transition: TrendTransition, escape: (text: string) => string): string {
  return `${escape(transition.from)} → ${escape(transition.to)}${transition.consequence ? ` [${transition.consequence}]` : ''} ×${transition.count}: ${describeRows(transition.rows, escape)}`;
}

/** `id-a at 2025-11-25; id-b at 2025-03-26, 2025-06-18`: each case once, with its protocol versions. */
function describeRows(rows: readonly TrendRowKey[], escape: (text: string) => string): string {
  const versionsByCase = new Map<string, string[]>();
  for (const row of rows) versionsByCase.set(row.caseId, [...(versionsByCase.get(row.caseId) ?? []), row.protocolVersion]);
  const cases = [...versionsByCase];
  const named = cases.slice(0, CASES_SHOWN).map(([caseId, versions]) => `${escape(caseId)} at ${versions.join(', ')}`);
  const more = cases.length - CASES_SHOWN;
  return named.join('; ') + (more > 0 ? `; ${more} more ${more === 1 ? 'case' : 'cases'}` : '');
}
