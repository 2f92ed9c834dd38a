// A Markdown summary for a CI step summary or a review comment: counts per target, each target's
// unexpected and known failures by consequence, the unexpected cells with one-line reasons, the
// known ones grouped by consequence, and regressions/fixes when comparing. Capped at 1 MiB.
import type { Cell, CellStatus, RunResult } from '../../runner/vocabulary/types.js';
import { CELL_STATUSES } from '../../runner/vocabulary/types.js';
import { getTargetFamily } from '../../runner/compare/pair-targets.js';
import { describePassSources, describeWireOnlyTargets } from '../../runner/run/describe-conclusions.js';
import { describeBackoff, describeReruns } from '../../runner/run/describe-reruns.js';
import type { ComparedCell, Comparison } from '../model/index.js';
import { countFailures, FAILURE_KINDS, formatFailureLine, getFailureKind, getFailureKindTitle, type FailureKind } from '../model/index.js';
import { describeFailedCheck } from '../model/index.js';
import { sanitizeText, toOneLine } from '../redaction/index.js';
import { countUnsafe, type UnsafeCount } from '../model/index.js';
import { toReportSource, type ReportHead, type ReportSource } from '../model/index.js';
import { areSchemasOff, SCHEMAS_OFF_NOTICE } from '../model/index.js';
import { listSpecReferences } from '../model/index.js';
import { renderTrendMarkdown } from '../trend/index.js';

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

function renderTargetFailures(source: ReportSource): string[] {
  const versions = new Map(source.head.targets.map((t) => [t.name, t.version ?? '']));
  return countFailures({ targets: source.head.targets, cells: source.cells() }).map((f) => `- **${escapeMarkdown(f.target)}**${versions.get(f.target) ? ` ${escapeMarkdown(versions.get(f.target)!)}` : ''}: ${escapeMarkdown(formatFailureLine(f))}`);
}

// Known failures, one line each, under one heading per consequence (worst first).
function renderKnown(known: GatheredCells['known'], max: number): string[] {
  const lines = [`### Known failures (${known.total}), by consequence`, ''];
  if (known.total === 0) return [...lines, 'None.', ''];
  let listed = 0;
  for (const kind of FAILURE_KINDS) {
    const group = known.byKind.get(kind);
    if (!group) continue;
    lines.push(`#### ${getFailureKindTitle(kind)} (${group.count})`, '');
    for (const cell of group.first) {
      if (listed++ >= max) break;
      lines.push(`- ${cellLabel(cell)}: ${escapeMarkdown(reasonOf(cell))}`);
    }
    lines.push('');
  }
  if (known.total > max) lines.push(`- … ${known.total - max} more known failures omitted`, '');
  return lines;
}

interface GatheredCells {
  /** Cells per status, by target: the result's targets first, then targets seen only in cells. */
  counts: Map<string, Record<CellStatus, number>>;
  /** The first `keep` unexpected failures, and how many there are. */
  failing: { first: Cell[]; total: number };
  /** Known failures (xfail) by kind: the first `keep` of each kind, and how many. */
  known: { byKind: Map<FailureKind, { first: Cell[]; count: number }>; total: number };
  /** The cells of targets that belong to a family (name@version), for the trends. */
  familyCells: Cell[];
}

// One pass keeps what the summary lists (a bounded number of cells) and counts the rest.
function gatherCells(source: ReportSource, keep: number): GatheredCells {
  const emptyRow = () => Object.fromEntries(CELL_STATUSES.map((s) => [s, 0])) as Record<CellStatus, number>;
  const counts = new Map(source.head.targets.map((t) => [t.name, emptyRow()]));
  const failing = { first: [] as Cell[], total: 0 };
  const known = { byKind: new Map<FailureKind, { first: Cell[]; count: number }>(), total: 0 };
  const familyCells: Cell[] = [];
  const inFamily = new Map<string, boolean>();
  for (const cell of source.cells()) {
    let row = counts.get(cell.target);
    if (!row) counts.set(cell.target, (row = emptyRow()));
    row[cell.status]++;
    if (STATUS_LABEL[cell.status].listed && failing.total++ < keep) failing.first.push(cell);
    if (cell.status === 'xfail') {
      known.total++;
      const kind = getFailureKind(cell);
      let group = known.byKind.get(kind);
      if (!group) known.byKind.set(kind, (group = { first: [], count: 0 }));
      if (group.count++ < keep) group.first.push(cell);
    }
    let family = inFamily.get(cell.target);
    if (family === undefined) inFamily.set(cell.target, (family = getTargetFamily(cell.target) !== undefined));
    if (family) familyCells.push(cell);
  }
  return { counts, failing, known, familyCells };
}

// The last column: failing cells whose worst consequence fails a MUST, known or not (unsafe-cells.ts).
function renderCounts(result: ReportHead, counts: GatheredCells['counts'], unsafe: ReadonlyMap<string, UnsafeCount>): string[] {
  const versions = new Map(result.targets.map((t) => [t.name, t.version ?? '']));
  const lines = [
    `| target | version | ${CELL_STATUSES.map((s) => STATUS_LABEL[s].label).join(' | ')} | total | unsafe |`,
    `|---|---|${CELL_STATUSES.map(() => '---:').join('|')}|---:|---:|`,
  ];
  for (const [name, row] of counts) {
    const total = CELL_STATUSES.reduce((sum, s) => sum + row[s], 0);
    lines.push(`| ${escapeMarkdown(name)} | ${escapeMarkdown(versions.get(name) ?? '')} | ${CELL_STATUSES.map((s) => row[s]).join(' | ')} | ${total} | ${describeUnsafe(unsafe.get(name))} |`);
  }
  return lines;
}

function describeUnsafe(count: UnsafeCount | undefined): string {
  if (!count?.total) return '0';
  return count.unexpected ? `**${count.total}** (${count.unexpected} unexpected)` : `**${count.total}**`;
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
export function render(input: RunResult | ReportSource, options: MarkdownOptions = {}): string {
  const source = toReportSource(input);
  const result = source.head;
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
  for (const warning of describeWireOnlyTargets({ targets: result.targets, cells: source.cells() })) lines.push(`> **Warning:** ${escapeMarkdown(warning.replace(/^warning: /, ''))}`, '');
  for (const note of [describeReruns(result), describeBackoff(result)]) if (note) lines.push(`> **Load:** ${escapeMarkdown(note)}.`, '');
  const gathered = gatherCells(source, maxFailures);
  // Above the table, below the notices: unsafe cells known or not, since a baseline keeps the run
  // green, not the client safe (issue 30).
  const unsafe = new Map(countFailures({ targets: result.targets, cells: source.cells() }).map((failures) => [failures.target, countUnsafe(failures)]));
  const unsafeTotal = [...unsafe.values()].reduce((sum, count) => sum + count.total, 0);
  if (unsafeTotal > 0) {
    const unexpected = [...unsafe.values()].reduce((sum, count) => sum + count.unexpected, 0);
    lines.push(`**${unsafeTotal} unsafe cells** (a false success, a false failure, an unsafe retry or no conclusion), ${unexpected ? `${unexpected} of them unexpected` : 'all of them known failures: the baseline keeps the run green, not the clients safe'}.`, '');
  }
  lines.push(...renderCounts(result, gathered.counts, unsafe), '');
  const sources = describePassSources(s);
  if (sources) lines.push(`Passes without a verdict: ${escapeMarkdown(sources)}.`, '');
  lines.push(...renderTrendMarkdown({ targets: result.targets, cells: gathered.familyCells }, escapeMarkdown));

  lines.push('### Failures per target', '', ...renderTargetFailures(source), '');

  const failing = gathered.failing;
  lines.push(`### Unexpected failures (${failing.total})`, '');
  if (failing.total === 0) lines.push('None.');
  for (const cell of failing.first) lines.push(`- ${cellLabel(cell)} — ${cell.status}${cell.errorKind ? ` (${cell.errorKind})` : ''}: ${escapeMarkdown(reasonOf(cell))}`);
  if (failing.total > maxFailures) lines.push(`- … ${failing.total - maxFailures} more failing cells omitted`);
  lines.push('');
  lines.push(...renderKnown(gathered.known, Math.max(0, maxFailures - failing.total)));

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
