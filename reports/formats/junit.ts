// JUnit XML for CI test views: one flat <testsuites>, one <testsuite> per target, one
// <testcase> per case × protocol version. Only XML 1.0 characters survive; every text is escaped.
import type { Cell, CellStatus, Check, RunResult } from '../../runner/vocabulary/types.js';
import { compareTableText } from '../../runner/cases/compare-table-text.js';
import { getConclusionLabel } from '../../runner/run/describe-conclusions.js';
import { indexCases } from '../model/index.js';
import { getFailureKind, nameFailureKind } from '../model/index.js';
import { describeFailedCheck } from '../model/index.js';
import { redactText, sanitizeText, stripControl, toOneLine } from '../redaction/redact.js';
import { toReportSource, type ReportSource } from '../model/index.js';

export interface JUnitOptions {
  /**
   * Characters of target stderr kept in <system-err>.
   * @default 4000
   */
  maxStderrChars?: number;
}

type JUnitKind = 'passed' | 'failure' | 'error' | 'skipped';

// Exhaustive: a new CellStatus fails to compile until it is mapped here.
const STATUS_KIND: Record<CellStatus, JUnitKind> = {
  pass: 'passed',
  non_strict: 'passed',
  fail: 'failure',
  xpass: 'failure',
  error: 'error',
  skip: 'skipped',
  xfail: 'skipped',
};

// Anything escapeXml would change: markup characters, controls, C1, surrogates, U+FFFE/U+FFFF.
const NEEDS_ESCAPE = /[&<>"'\u0000-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;

/** Escape text for XML element content and attribute values alike. */
export function escapeXml(text: string): string {
  // Most texts (names, times, repro commands) need nothing: one test instead of seven passes.
  if (!NEEDS_ESCAPE.test(text)) return text;
  return stripControl(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

// Attributes normalise raw newlines to spaces, so keep line breaks as character references.
function escapeAttr(text: string): string {
  return escapeXml(text).replace(/\r\n|\r|\n/g, '&#10;').replace(/\t/g, '&#9;');
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

// The judge's message already names the check and says what was expected and what happened:
// it is written once (reports/model/describe-mismatch.ts), with the exchange it is about.
// With what the mismatch costs the caller, as TAP writes it: "… (exchange 1) (false success)".
function describeCheck(check: Check): string {
  const where = check.exchange === undefined ? '' : ` (exchange ${check.exchange + 1})`;
  const cost = check.consequence === undefined ? '' : ` (${nameFailureKind(check.consequence)})`;
  return toOneLine(`${describeFailedCheck({ level: check.level, message: sanitizeText(check.message) })}${where}${cost}`, 500);
}

function failedLines(cell: Cell): string[] {
  const lines = cell.checks.filter((c) => !c.passed).map(describeCheck);
  return lines.length > 0 ? lines : [toOneLine(sanitizeText(cell.reason ?? `status ${cell.status}`))];
}

function renderOutcome(cell: Cell, kind: JUnitKind): string {
  const reason = toOneLine(sanitizeText(cell.reason ?? ''));
  switch (kind) {
    case 'failure': {
      const lines =
        cell.status === 'xpass'
          ? [`unexpectedly passed: the baseline entry is stale${reason ? ` (${reason})` : ''}`]
          : failedLines(cell);
      return `      <failure message="${escapeAttr(lines.join('\n'))}" type="${cell.status}">${escapeXml(lines.join('\n'))}</failure>\n`;
    }
    case 'error':
      return `      <error message="${escapeAttr(reason || 'not measured: the harness or the target broke')}" type="${cell.errorKind ?? 'error'}"/>\n`;
    case 'skipped': {
      // A known failure stays <skipped> (the CI convention: it does not fail the build), but says
      // what it costs the caller, so a false success never reads as a plain skip.
      const message = cell.status === 'xfail' ? `known failure, ${nameFailureKind(getFailureKind(cell))}${reason ? `: ${reason}` : ''}` : reason || 'skipped';
      return `      <skipped message="${escapeAttr(message)}"/>\n`;
    }
    case 'passed':
      return '';
  }
}

function renderTestcase(cell: Cell, title: string | undefined, options: Required<JUnitOptions>): string {
  const kind = STATUS_KIND[cell.status];
  const name = `${cell.case} [${cell.protocolVersion}]`;
  const stderr = cell.targetRun?.stderr ? sanitizeText(cell.targetRun.stderr).slice(-options.maxStderrChars) : '';
  const conclusion = getConclusionLabel(cell);
  // A plain pass is its name alone: its title and repro line were most of the default run's
  // 2.3 MB of JUnit (issue 30), and every other report has them.
  if (cell.status === 'pass' && !conclusion && !stderr) return `    <testcase name="${escapeAttr(name)}" classname="${escapeAttr(cell.target)}" time="${seconds(cell.durationMs)}"/>\n`;
  const out: string[] = [];
  if (title) out.push(sanitizeText(title));
  if (conclusion) out.push(`${cell.status}, judged without a verdict: ${conclusion}`);
  if (cell.status === 'non_strict') out.push(`non_strict: only SHOULD/POLICY checks failed:\n${failedLines(cell).join('\n')}`);
  if (cell.status === 'xfail') out.push(`known failure:\n${failedLines(cell).join('\n')}`);
  // Unique per cell: kept out of sanitizeText's cache, which it would only churn.
  out.push(`repro: ${redactText(stripControl(cell.repro))}`);
  return (
    `    <testcase name="${escapeAttr(name)}" classname="${escapeAttr(cell.target)}" time="${seconds(cell.durationMs)}">\n` +
    renderOutcome(cell, kind) +
    `      <system-out>${escapeXml(out.join('\n'))}</system-out>\n` +
    (stderr ? `      <system-err>${escapeXml(stderr)}</system-err>\n` : '') +
    '    </testcase>\n'
  );
}

/** Render a run as JUnit XML (a pure function of the result). */
export function render(result: RunResult | ReportSource, options: JUnitOptions = {}): string {
  return [...renderChunks(result, options)].join('');
}

interface Suite {
  target: string;
  /** Positions of the target's cells, in the order they are written. */
  positions: number[];
  stats: { tests: number; failures: number; errors: number; skipped: number; ms: number };
}

/**
 * Each target's suite: its cells' positions in case-table order (then case id, then protocol
 * version), and its counts. One pass over the cells keeps only what the order and the counts
 * need per cell, so no cell is held.
 */
function planSuites(source: ReportSource): { suites: Suite[]; totals: Suite['stats'] } {
  const result = source.head;
  const caseOrder = new Map(result.cases.map((c, i) => [c.id, i]));
  const byTarget = new Map<string, number[]>(result.targets.map((t) => [t.name, []]));
  // Case ids and versions are few: each cell keeps their numbers, and its kind and duration.
  const caseIds = new Map<string, number>();
  const versions = new Map<string, number>();
  const intern = (ids: Map<string, number>, id: string) => ids.get(id) ?? ids.set(id, ids.size).size - 1;
  const caseOf = new Int32Array(source.cellCount);
  const versionOf = new Int32Array(source.cellCount);
  const kindOf: JUnitKind[] = new Array<JUnitKind>(source.cellCount);
  const msOf = new Float64Array(source.cellCount);
  let position = 0;
  for (const cell of source.cells()) {
    let positions = byTarget.get(cell.target);
    if (!positions) byTarget.set(cell.target, (positions = []));
    positions.push(position);
    caseOf[position] = intern(caseIds, cell.case);
    versionOf[position] = intern(versions, cell.protocolVersion);
    kindOf[position] = STATUS_KIND[cell.status];
    msOf[position] = cell.durationMs;
    position++;
  }
  const caseNames = [...caseIds.keys()];
  const versionNames = [...versions.keys()];
  const rank = caseNames.map((id) => caseOrder.get(id) ?? Infinity);
  // localeCompare's order, without loading the ICU collator for plain ids and versions.
  const compareNames = (names: string[], a: number, b: number) => (a === b ? 0 : compareTableText(names[a]!, names[b]!));
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const suites = [...byTarget].map(([target, positions]): Suite => {
    positions.sort((a, b) => rank[caseOf[a]!]! - rank[caseOf[b]!]! || compareNames(caseNames, caseOf[a]!, caseOf[b]!) || compareNames(versionNames, versionOf[a]!, versionOf[b]!));
    const stats = { tests: positions.length, failures: 0, errors: 0, skipped: 0, ms: 0 };
    for (const at of positions) {
      const kind = kindOf[at];
      if (kind === 'failure') stats.failures++;
      else if (kind === 'error') stats.errors++;
      else if (kind === 'skipped') stats.skipped++;
      stats.ms += msOf[at]!;
    }
    totals.tests += stats.tests;
    totals.failures += stats.failures;
    totals.errors += stats.errors;
    totals.skipped += stats.skipped;
    totals.ms += stats.ms;
    return { target, positions, stats };
  });
  return { suites, totals };
}

/** The JUnit XML in chunks (a header, then each test suite in pieces), for streaming to disk. */
export function* renderChunks(input: RunResult | ReportSource, options: JUnitOptions = {}): Generator<string> {
  const source = toReportSource(input);
  const resolved: Required<JUnitOptions> = { maxStderrChars: options.maxStderrChars ?? 4000 };
  const cases = indexCases(source.head);
  const { suites, totals } = planSuites(source);
  yield '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${escapeAttr(source.head.tool.name)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">\n`;
  for (const { target, positions, stats } of suites) {
    yield `  <testsuite name="${escapeAttr(target)}" tests="${stats.tests}" failures="${stats.failures}" errors="${stats.errors}" skipped="${stats.skipped}" time="${seconds(stats.ms)}">\n`;
    let chunk = '';
    for (const [index, position] of positions.entries()) {
      const cell = source.cellAt(position);
      chunk += renderTestcase(cell, cases.get(cell.case)?.title, resolved);
      if (index % 256 === 255) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
    yield '  </testsuite>\n';
  }
  yield '</testsuites>\n';
}
