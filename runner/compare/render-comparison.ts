// The `compare` command's output: Markdown (for a PR comment or step summary) or TAP-like text.
import type { ComparedCell, Comparison } from '../../reports/model/index.js';

export type ComparisonFormat = 'markdown' | 'text';

const SECTIONS = [
  ['regressions', 'Regressions', 'regression'],
  ['fixes', 'Fixes', 'fix'],
  ['added', 'Added', 'added'],
  ['removed', 'Removed', 'removed'],
] as const;

/** Renders a comparison; `notes` are printed under the counts (e.g. cases whose files changed). */
export function renderComparison(comparison: Comparison, format: ComparisonFormat, notes: string[] = []): string {
  return format === 'markdown' ? renderMarkdown(comparison, notes) : renderText(comparison, notes);
}

function counts(comparison: Comparison): string {
  return SECTIONS.map(([key, title]) => `${comparison[key].length} ${title.toLowerCase()}`).join(' · ');
}

function describe(cell: ComparedCell): string {
  const change = cell.before && cell.after ? `${cell.before} → ${cell.after}` : cell.after ? `new: ${cell.after}` : `was: ${cell.before ?? '?'}`;
  return `${cell.case} · ${cell.beforeTarget ? `${cell.beforeTarget} → ` : ''}${cell.target} · ${cell.protocolVersion} (${change})`;
}

// Case ids and target names come from files the user gave us; keep table/markup characters inert.
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|#]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, ' ');
}

function renderMarkdown(comparison: Comparison, notes: string[]): string {
  const lines = [`## mcp-error-matrix comparison${comparison.baselineLabel ? ` against ${escapeMarkdown(comparison.baselineLabel)}` : ''}`, '', counts(comparison), ''];
  for (const note of [...describePairs(comparison), ...notes]) lines.push(`> ${escapeMarkdown(note)}`, '');
  for (const [key, title] of SECTIONS) {
    const cells = comparison[key];
    if (cells.length === 0) continue;
    lines.push(`### ${title} (${cells.length})`, '', ...cells.map((cell) => `- ${escapeMarkdown(describe(cell))}`), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderText(comparison: Comparison, notes: string[]): string {
  const lines: string[] = [];
  let n = 0;
  for (const [key, , singular] of SECTIONS) {
    for (const cell of comparison[key]) {
      n++;
      lines.push(`${key === 'regressions' ? 'not ok' : 'ok'} ${n} - ${singular}: ${describe(cell).replace(/[\r\n]/g, ' ')}`);
    }
  }
  return [`1..${n}`, ...lines, ...[...describePairs(comparison), ...notes].map((note) => `# ${note.replace(/[\r\n]/g, ' ')}`), `# ${counts(comparison)}`, ''].join('\n');
}

/** One line naming the targets compared under different names. */
function describePairs(comparison: Comparison): string[] {
  const pairs = comparison.pairs ?? [];
  return pairs.length === 0 ? [] : [`Paired targets (old → new): ${pairs.map((pair) => `${pair.before} → ${pair.after}`).join(', ')}`];
}
