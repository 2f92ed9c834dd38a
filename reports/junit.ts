// JUnit XML for CI test views: one flat <testsuites>, one <testsuite> per target, one
// <testcase> per case × protocol version. Only XML 1.0 characters survive; every text is escaped.
import type { Cell, CellStatus, Check, RunResult } from '../runner/types.js';
import { getConclusionLabel } from '../runner/run/describe-conclusions.js';
import { indexCases } from './case-info.js';
import { describeFailedCheck } from './describe-mismatch.js';
import { redactText, sanitizeText, stripControl, toOneLine } from './redact.js';

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
// it is written once (reports/describe-mismatch.ts), with the exchange it is about.
function describeCheck(check: Check): string {
  const where = check.exchange === undefined ? '' : ` (exchange ${check.exchange + 1})`;
  return toOneLine(`${describeFailedCheck({ level: check.level, message: sanitizeText(check.message) })}${where}`, 500);
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
      return `      <error message="${escapeAttr(reason || 'not measured: the harness or the target broke')}" type="error"/>\n`;
    case 'skipped': {
      const message = cell.status === 'xfail' ? `expected failure${reason ? `: ${reason}` : ''}` : reason || 'skipped';
      return `      <skipped message="${escapeAttr(message)}"/>\n`;
    }
    case 'passed':
      return '';
  }
}

function renderTestcase(cell: Cell, title: string | undefined, options: Required<JUnitOptions>): string {
  const kind = STATUS_KIND[cell.status];
  const name = `${cell.case} [${cell.protocolVersion}]`;
  const out: string[] = [];
  if (title) out.push(sanitizeText(title));
  const conclusion = getConclusionLabel(cell);
  if (conclusion) out.push(`${cell.status}, judged without a verdict: ${conclusion}`);
  if (cell.status === 'non_strict') out.push(`non_strict: only SHOULD/POLICY checks failed:\n${failedLines(cell).join('\n')}`);
  if (cell.status === 'xfail') out.push(`known failure:\n${failedLines(cell).join('\n')}`);
  // Unique per cell: kept out of sanitizeText's cache, which it would only churn.
  out.push(`repro: ${redactText(stripControl(cell.repro))}`);
  const stderr = cell.targetRun?.stderr ? sanitizeText(cell.targetRun.stderr).slice(-options.maxStderrChars) : '';
  return (
    `    <testcase name="${escapeAttr(name)}" classname="${escapeAttr(cell.target)}" time="${seconds(cell.durationMs)}">\n` +
    renderOutcome(cell, kind) +
    `      <system-out>${escapeXml(out.join('\n'))}</system-out>\n` +
    (stderr ? `      <system-err>${escapeXml(stderr)}</system-err>\n` : '') +
    '    </testcase>\n'
  );
}

/** Render a run as JUnit XML (a pure function of the result). */
export function render(result: RunResult, options: JUnitOptions = {}): string {
  return [...renderChunks(result, options)].join('');
}

/** The JUnit XML in chunks (a header, then each test suite in pieces), for streaming to disk. */
export function* renderChunks(result: RunResult, options: JUnitOptions = {}): Generator<string> {
  const resolved: Required<JUnitOptions> = { maxStderrChars: options.maxStderrChars ?? 4000 };
  const cases = indexCases(result);
  const caseOrder = new Map(result.cases.map((c, i) => [c.id, i]));
  const targetNames = [...new Set([...result.targets.map((t) => t.name), ...result.cells.map((c) => c.target)])];
  // One pass groups the cells by target (filtering per target was targets × cells).
  const byTarget = new Map<string, Cell[]>(targetNames.map((name) => [name, []]));
  for (const cell of result.cells) byTarget.get(cell.target)!.push(cell);
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const suites = targetNames.map((target) => {
    const cells = byTarget
      .get(target)!
      .sort((a, b) => (caseOrder.get(a.case) ?? Infinity) - (caseOrder.get(b.case) ?? Infinity) || a.case.localeCompare(b.case) || a.protocolVersion.localeCompare(b.protocolVersion));
    const stats = { tests: cells.length, failures: 0, errors: 0, skipped: 0, ms: 0 };
    for (const cell of cells) {
      const kind = STATUS_KIND[cell.status];
      if (kind === 'failure') stats.failures++;
      else if (kind === 'error') stats.errors++;
      else if (kind === 'skipped') stats.skipped++;
      stats.ms += cell.durationMs;
    }
    totals.tests += stats.tests;
    totals.failures += stats.failures;
    totals.errors += stats.errors;
    totals.skipped += stats.skipped;
    totals.ms += stats.ms;
    return { target, cells, stats };
  });
  yield '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${escapeAttr(result.tool.name)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">\n`;
  for (const { target, cells, stats } of suites) {
    yield `  <testsuite name="${escapeAttr(target)}" tests="${stats.tests}" failures="${stats.failures}" errors="${stats.errors}" skipped="${stats.skipped}" time="${seconds(stats.ms)}">\n`;
    for (let i = 0; i < cells.length; i += 256) {
      yield cells.slice(i, i + 256).map((cell) => renderTestcase(cell, cases.get(cell.case)?.title, resolved)).join('');
    }
    yield '  </testsuite>\n';
  }
  yield '</testsuites>\n';
}
