// `atlas --since DIR`: what changed since the previous atlas, as Markdown ready for release notes:
// per stack the new releases (their counts and every change against the release before), cells of
// releases both atlases measured that now answer otherwise, releases gone, and case-table edits.
import type { AtlasDiff, CellDifference, StackDiff } from '../../runner/atlas/diff-atlases.js';
import type { StackChange } from '../../runner/atlas/list-stack-changes.js';
import { makeVersionBadge } from './tally-version.js';

const SYMBOL = { fix: '▲ fix', regression: '▼ regression', changed: '◆ other outcome' } as const;
/** Cells listed per re-measured release; the rest are counted. */
const DIFFERENCES_SHOWN = 10;

// Markdown's inline specials in text from case files and the wire.
const md = (text: string) => text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** The Markdown; `titles` gives each case's one-line meaning. */
export function renderAtlasChanges(diff: AtlasDiff, titles: ReadonlyMap<string, string>): string {
  const newCount = diff.stacks.reduce((sum, stack) => sum + stack.newReleases.length, 0);
  const changedCells = diff.stacks.reduce((sum, stack) => sum + stack.remeasured.reduce((n, r) => n + r.differences.length, 0), 0);
  const lines = [
    `## MCP client error handling: what changed since the atlas of ${diff.previous.finishedAt.slice(0, 10)}`,
    '',
    `${newCount} new ${newCount === 1 ? 'release' : 'releases'} across ${diff.stacks.filter((s) => s.newReleases.length > 0).length} stacks; ${changedCells} ${changedCells === 1 ? 'cell of releases measured before now answers' : 'cells of releases measured before now answer'} otherwise. (mcp-error-matrix ${md(diff.current.toolVersion)}; the previous atlas: ${md(diff.previous.toolVersion)}, finished ${diff.previous.finishedAt}.)`,
    '',
  ];
  const { added, changed, removed } = diff.cases;
  if (added.length + changed.length + removed.length > 0) {
    lines.push(`Case table: ${[added.length ? `added ${added.map(code).join(', ')}` : '', changed.length ? `changed ${changed.map(code).join(', ')}` : '', removed.length ? `removed ${removed.map(code).join(', ')}` : ''].filter(Boolean).join('; ')} (changed cases were measured again for every release).`, '');
  }
  const moved = diff.stacks.filter((stack) => stack.isNew || stack.newReleases.length > 0 || stack.remeasured.length > 0 || stack.gone.length > 0);
  if (moved.length === 0) lines.push('Nothing changed: no new release, and every cell measured again answers as before.', '');
  for (const stack of moved) lines.push(...renderStack(stack, titles), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderStack(stack: StackDiff, titles: ReadonlyMap<string, string>): string[] {
  const lines = [`### ${stack.kind} (${code(stack.packageName)})${stack.isNew ? ' — new in the atlas' : ''}`, ''];
  for (const release of stack.newReleases) {
    const { version } = release;
    if (version.state === 'speaks-none') {
      lines.push(`- **${md(version.version)}** (new): speaks none of the table's protocol versions.`);
      continue;
    }
    const against = release.previous === undefined ? 'the first release measured' : release.changes.length === 0 ? `no change against ${md(release.previous)}` : `against ${md(release.previous)}: ${countChanges(release.changes)}`;
    lines.push(`- **${md(version.version)}** (new): ${md(makeVersionBadge(version).message)}; ${against}${release.changes.length ? ':' : '.'}`);
    for (const change of release.changes) lines.push(`  - ${formatChange(change, titles)}`);
  }
  for (const { version, differences } of stack.remeasured) {
    lines.push(`- **${md(version)}** (measured again): ${differences.length} ${differences.length === 1 ? 'cell answers' : 'cells answer'} otherwise:`);
    for (const difference of differences.slice(0, DIFFERENCES_SHOWN)) lines.push(`  - ${formatDifference(difference, titles)}`);
    if (differences.length > DIFFERENCES_SHOWN) lines.push(`  - and ${differences.length - DIFFERENCES_SHOWN} more (the stack's page lists them)`);
  }
  if (stack.gone.length > 0) lines.push(`- No longer in the atlas: ${stack.gone.map(md).join(', ')}.`);
  return lines;
}

function countChanges(changes: readonly StackChange[]): string {
  const count = (kind: StackChange['change']) => changes.filter((c) => c.change === kind).length;
  return [
    [count('regression'), 'regression', 'regressions'],
    [count('fix'), 'fix', 'fixes'],
    [count('changed'), 'other outcome', 'other outcomes'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`)
    .join(', ');
}

function formatChange(change: StackChange, titles: ReadonlyMap<string, string>): string {
  const title = titles.get(change.caseId);
  return `${SYMBOL[change.change]} ${code(change.caseId)} at ${change.protocolVersion}: ${code(change.from)} → ${code(change.to)}${change.consequence ? ` (${change.consequence})` : ''}${title ? ` — ${md(title)}` : ''}`;
}

function formatDifference(difference: CellDifference, titles: ReadonlyMap<string, string>): string {
  const title = titles.get(difference.caseId);
  const status = difference.statusBefore === difference.statusNow ? difference.statusNow : `${difference.statusBefore} → ${difference.statusNow}`;
  return `${code(difference.caseId)} at ${difference.protocolVersion}: ${code(difference.before)} → ${code(difference.now)} (${status})${title ? ` — ${md(title)}` : ''}`;
}
