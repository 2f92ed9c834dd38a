// A Markdown summary for a CI step summary or a review comment: counts per target, each target's
// unexpected and known failures by consequence, the unexpected cells with one-line reasons, the
// known ones grouped by consequence, and regressions/fixes when comparing. Capped at 1 MiB.
import type { Cell, CellStatus, RunResult } from '../runner/types.js';
import { CELL_STATUSES } from '../runner/types.js';
import { describePassSources, describeWireOnlyTargets } from '../runner/run/describe-conclusions.js';
import type { ComparedCell, Comparison } from './compare-types.js';
import { countFailures, FAILURE_KINDS, formatFailureLine, getFailureKind, getFailureKindTitle } from './count-failures.js';
import { describeFailedCheck } from './describe-mismatch.js';
import { sanitizeText, toOneLine } from './redact.js';
import { areSchemasOff, SCHEMAS_OFF_NOTICE } from './schema-notice.js';
import { listSpecReferences } from './spec-references.js';
import { renderTrendMarkdown } from './trend-markdown.js';

export interface MarkdownOptions {
  comparison?: Comparison;
  /**
   * Failing cells listed (unexpected, then known) before the rest are counted as omitted.
   * @default 200
   */
  maxFailures?: number;
  /**
   * Cells listed per comparison section.
   * @default 200
   */
  maxCompared?: number;
  /**
   * Output size cap in UTF-8 bytes (GitHub's step summary limit is 1 MiB).
   * @default 1048576
   */
  maxBytes?: number;
}

// Exhaustive: a new CellStatus fails to compile until it has a label and a listing rule.
const STATUS_LABEL: Record<CellStatus, { label: string; listed: boolean }> = {
  pass: { label: 'pass', listed: false },
  fail: { label: 'fail', listed: true },
  non_strict: { label: 'non_strict', listed: false },
  skip: { label: 'skip', listed: false },
  error: { label: 'error', listed: true },
  xfail: { label: 'xfail', listed: false },
  xpass: { label: 'xpass', listed: true },
};

/** Escape untrusted text for inline Markdown and table cells: no structure can be injected. */
export function escapeMarkdown(text: string): string {
  return toOneLine(sanitizeText(text), 400)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]{}|#~!])/g, '\\$1');
}

function reasonOf(cell: Cell): string {
  if (cell.status === 'xpass') return `passes but the baseline lists it as failing (stale entry)${cell.reason ? `: ${cell.reason}` : ''}`;
  // INFO checks never decide a status: the reason names a check that did, when there is one.
  const failed = cell.checks.filter((c) => !c.passed).sort((a, b) => Number(a.level === 'INFO') - Number(b.level === 'INFO'));
  const first = failed[0];
  if (first) return `${describeFailedCheck(first)}${failed.length > 1 ? ` (+${failed.length - 1} more)` : ''}`;
  return cell.reason ?? cell.status;
}

function renderTargetFailures(result: RunResult): string[] {
  const versions = new Map(result.targets.map((t) => [t.name, t.version ?? '']));
  return countFailures(result).map((f) => `- **${escapeMarkdown(f.target)}**${versions.get(f.target) ? ` ${escapeMarkdown(versions.get(f.target)!)}` : ''}: ${escapeMarkdown(formatFailureLine(f))}`);
}

// Known failures, one line each, under one heading per consequence (worst first).
function renderKnown(known: Cell[], max: number): string[] {
  const lines = [`### Known failures (${known.length}), by consequence`, ''];
  if (known.length === 0) return [...lines, 'None.', ''];
  let listed = 0;
  for (const kind of FAILURE_KINDS) {
    const cells = known.filter((cell) => getFailureKind(cell) === kind);
    if (cells.length === 0) continue;
    lines.push(`#### ${getFailureKindTitle(kind)} (${cells.length})`, '');
    for (const cell of cells) {
      if (listed++ >= max) break;
      lines.push(`- ${cellLabel(cell)}: ${escapeMarkdown(reasonOf(cell))}`);
    }
    lines.push('');
  }
  if (known.length > max) lines.push(`- … ${known.length - max} more known failures omitted`, '');
  return lines;
}

function renderCounts(result: RunResult): string[] {
  const names = [...new Set([...result.targets.map((t) => t.name), ...result.cells.map((c) => c.target)])];
  const versions = new Map(result.targets.map((t) => [t.name, t.version ?? '']));
  const lines = [
    `| target | version | ${CELL_STATUSES.map((s) => STATUS_LABEL[s].label).join(' | ')} | total |`,
    `|---|---|${CELL_STATUSES.map(() => '---:').join('|')}|---:|`,
  ];
  // One pass over the cells (filtering per target and status was targets × statuses × cells).
  const counts = new Map<string, Record<CellStatus, number>>(names.map((name) => [name, Object.fromEntries(CELL_STATUSES.map((s) => [s, 0])) as Record<CellStatus, number>]));
  for (const cell of result.cells) counts.get(cell.target)![cell.status]++;
  for (const name of names) {
    const row = counts.get(name)!;
    const total = CELL_STATUSES.reduce((sum, s) => sum + row[s], 0);
    lines.push(`| ${escapeMarkdown(name)} | ${escapeMarkdown(versions.get(name) ?? '')} | ${CELL_STATUSES.map((s) => row[s]).join(' | ')} | ${total} |`);
  }
  return lines;
}

function cellLabel(cell: { case: string; target: string; protocolVersion: string }): string {
  return `**${escapeMarkdown(cell.case)}** · ${escapeMarkdown(cell.target)} · ${cell.protocolVersion}`;
}

function renderCompared(title: string, cells: ComparedCell[], max: number): string[] {
  if (cells.length === 0) return [];
  const lines = [`### ${title} (${cells.length})`, ''];
  for (const cell of cells.slice(0, max)) {
    const change = `${cell.before ?? '—'} → ${cell.after ?? '—'}`;
    lines.push(`- ${cellLabel(cell.beforeTarget ? { ...cell, target: `${cell.beforeTarget} → ${cell.target}` } : cell)}: ${escapeMarkdown(change)}`);
  }
  if (cells.length > max) lines.push(`- … ${cells.length - max} more omitted`);
  lines.push('');
  return lines;
}

// Every specification alias the summary cites (in check messages, reasons), defined with its page.
function renderReferences(lines: readonly string[]): string[] {
  const references = listSpecReferences(lines);
  if (references.length === 0) return [];
  return [
    `### Specification references`,
    '',
    ...references.map((ref) => `- **${ref.id}**: [${escapeMarkdown(ref.title)}](${ref.url})`),
    '',
  ];
}

// Cut at a line boundary so no table row or list item is left half-written.
function capBytes(markdown: string, maxBytes: number): string {
  if (Buffer.byteLength(markdown) <= maxBytes) return markdown;
  const note = '\n\n> **Truncated:** this summary exceeded the size limit; see the full report (HTML, JSON) for every cell.\n';
  const budget = maxBytes - Buffer.byteLength(note);
  let cut = Buffer.from(markdown).subarray(0, Math.max(0, budget)).toString('utf8');
  cut = cut.replace(/\uFFFD$/, '');
  const lastNewline = cut.lastIndexOf('\n');
  return `${lastNewline > 0 ? cut.slice(0, lastNewline) : ''}${note}`;
}

/** Render a run as a Markdown summary (a pure function of the result). */
export function render(result: RunResult, options: MarkdownOptions = {}): string {
  const maxFailures = options.maxFailures ?? 200;
  const maxCompared = options.maxCompared ?? 200;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const s = result.summary;
  const lines: string[] = [
    `## ${escapeMarkdown(result.tool.name)} ${escapeMarkdown(result.tool.version)}`,
    '',
    `Started ${escapeMarkdown(result.startedAt)} · ${result.cases.length} cases · ${result.targets.length} targets · ${s.total} cells · ` +
      CELL_STATUSES.map((status) => `${s[status]} ${STATUS_LABEL[status].label}`).join(' · '),
    '',
  ];
  if (!result.complete) lines.push('> **Incomplete run:** the run was interrupted; cells not listed were not measured.', '');
  if (areSchemasOff(result)) lines.push(`> **${SCHEMAS_OFF_NOTICE.replace(':', ':**')}`, '');
  for (const entry of result.unmeasured ?? []) lines.push(`> **Nothing measured** for ${escapeMarkdown(entry.target)}: ${escapeMarkdown(entry.reason)}`, '');
  for (const warning of describeWireOnlyTargets(result)) lines.push(`> **Warning:** ${escapeMarkdown(warning.replace(/^warning: /, ''))}`, '');
  lines.push(...renderCounts(result), '');
  const sources = describePassSources(s);
  if (sources) lines.push(`Passes without a verdict: ${escapeMarkdown(sources)}.`, '');
  lines.push(...renderTrendMarkdown(result, escapeMarkdown));

  lines.push('### Failures per target', '', ...renderTargetFailures(result), '');

  const failing = result.cells.filter((c) => STATUS_LABEL[c.status].listed);
  lines.push(`### Unexpected failures (${failing.length})`, '');
  if (failing.length === 0) lines.push('None.');
  for (const cell of failing.slice(0, maxFailures)) lines.push(`- ${cellLabel(cell)} — ${cell.status}: ${escapeMarkdown(reasonOf(cell))}`);
  if (failing.length > maxFailures) lines.push(`- … ${failing.length - maxFailures} more failing cells omitted`);
  lines.push('');
  lines.push(...renderKnown(result.cells.filter((c) => c.status === 'xfail'), Math.max(0, maxFailures - failing.length)));

  const comparison = options.comparison;
  if (comparison) {
    const against = comparison.baselineLabel ? ` against ${escapeMarkdown(comparison.baselineLabel)}` : '';
    lines.push(
      `### Comparison${against}`,
      '',
      `${comparison.regressions.length} regressions · ${comparison.fixes.length} fixes · ${comparison.added.length} added · ${comparison.removed.length} removed`,
      '',
      ...(comparison.pairs?.length ? [`Paired targets (old → new): ${comparison.pairs.map((p) => `${escapeMarkdown(p.before)} → ${escapeMarkdown(p.after)}`).join(', ')}`, ''] : []),
      ...renderCompared('Regressions', comparison.regressions, maxCompared),
      ...renderCompared('Fixes', comparison.fixes, maxCompared),
      ...renderCompared('Added', comparison.added, maxCompared),
      ...renderCompared('Removed', comparison.removed, maxCompared),
    );
  }
  lines.push(...renderReferences(lines));
  return capBytes(`${lines.join('\n').trimEnd()}\n`, maxBytes);
}
