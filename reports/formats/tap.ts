// TAP 14: one subtest per target, one test point per case × version, YAML diagnostics
// (expected, actual, failed checks, spec, repro) on every point that is not a plain pass.
import { loadYaml } from '../../runner/util/lazy-yaml.js';
import type { Cell, CellStatus, RunResult } from '../../runner/vocabulary/types.js';
import { describePassSources, describeWireOnlyTargets, getConclusionLabel } from '../../runner/run/describe-conclusions.js';
import { describeBackoff, describeReruns } from '../../runner/run/describe-reruns.js';
import { countFailures, formatFailureLine, nameFailureKind } from '../model/index.js';
import { stripControl } from '../redaction/redact.js';
import { resolveSpecReference } from '../model/index.js';
import { areSchemasOff, SCHEMAS_OFF_NOTICE } from '../model/index.js';
import { redactCheck, redactText, redactVerdict } from '../redaction/redact-result.js';
import { listPositionsByTarget, toReportSource, type ReportSource } from '../model/index.js';
import { stringifyPlainEntry } from './yaml-plain.js';

export interface TapOptions {
  /** Include YAML diagnostics on passing points too. @default false */
  verbose?: boolean;
}

interface TapLine {
  ok: boolean;
  directive?: string;
  diagnostics: boolean;
}

const STATUS_LINE: Record<CellStatus, (cell: Cell) => TapLine> = {
  pass: () => ({ ok: true, diagnostics: false }),
  non_strict: () => ({ ok: true, diagnostics: true }),
  fail: () => ({ ok: false, diagnostics: true }),
  error: () => ({ ok: false, diagnostics: true }),
  skip: (cell) => ({ ok: true, directive: `SKIP ${cell.reason ?? ''}`.trim(), diagnostics: false }),
  xfail: (cell) => ({ ok: false, directive: `TODO expected failure: ${cell.reason ?? ''}`.trim(), diagnostics: true }),
  xpass: () => ({ ok: false, diagnostics: true }),
};

/** Renders the whole run as a TAP 14 document. */
export function render(result: RunResult | ReportSource, options: TapOptions = {}): string {
  return [...renderChunks(result, options)].join('');
}

/** The TAP document in chunks (a few lines each), for streaming a large run to disk. */
export function* renderChunks(input: RunResult | ReportSource, options: TapOptions = {}): Generator<string> {
  const source = toReportSource(input);
  const result = source.head;
  const byCase = new Map(result.cases.map((item) => [item.id, item]));
  // One pass notes each target's cell positions (filtering per target was targets × cells);
  // the cells themselves are read again target by target, so none is held meanwhile.
  const byTarget = listPositionsByTarget(source, result.targets.map((target) => target.name));
  yield `TAP version 14\n${areSchemasOff(result) ? `# ${SCHEMAS_OFF_NOTICE}\n` : ''}1..${result.targets.length}\n`;
  for (const [targetIndex, target] of result.targets.entries()) {
    const positions = byTarget.get(target.name) ?? [];
    const lines = [`# Subtest: ${escapeTapLine(target.name)}`, `    1..${positions.length}`];
    let failed = false;
    for (const [index, position] of positions.entries()) {
      // Diagnostics and directives quote reasons, verdicts and check values: wire and target text,
      // redacted. A point without diagnostics (most of a run) shows only the reason of the cell.
      const given = source.cellAt(position);
      const reason = given.reason === undefined ? undefined : redactText(given.reason);
      const shown = reason === given.reason ? given : { ...given, reason };
      const line = STATUS_LINE[given.status](shown);
      const cell = line.diagnostics || options.verbose ? redactForTap(given) : shown;
      if (!line.ok && cell.status !== 'xfail') failed = true;
      let suffix = cell.status === 'non_strict' ? ' (non_strict)' : cell.status === 'xpass' ? ' (xpass: listed in the baseline but passes; remove the entry)' : cell.status === 'error' ? ` (error${cell.errorKind ? `: ${cell.errorKind}` : ''})` : '';
      // A verdict-less cell says so on its line: it is never the same "ok" as a stated verdict.
      const conclusion = getConclusionLabel(cell);
      if (conclusion) suffix = `${suffix} (${cell.status}: ${conclusion})`;
      const directive = line.directive ? ` # ${escapeTapLine(line.directive)}` : '';
      lines.push(`    ${line.ok ? 'ok' : 'not ok'} ${index + 1} - ${escapeTapLine(`${cell.case} [${cell.protocolVersion}]${suffix}`)}${directive}`);
      if (line.diagnostics || options.verbose) lines.push(...indent(diagnosticsOf(cell, byCase.get(cell.case)?.spec), 6));
      if (lines.length >= 256) yield `${lines.splice(0).join('\n')}\n`;
    }
    lines.push(`${failed ? 'not ok' : 'ok'} ${targetIndex + 1} - ${escapeTapLine(target.name)}`);
    yield `${lines.join('\n')}\n`;
  }
  yield* summaryComments(source);
  if (!result.complete) yield 'Bail out! The run was interrupted; results are incomplete.\n';
}

/**
 * Comment lines after the results: each target's unexpected and known failures by consequence,
 * targets with nothing measured, cells run again after the main pass and a concurrency that backed
 * off, and passes without a verdict.
 */
function* summaryComments(source: ReportSource): Generator<string> {
  const result = source.head;
  const lines = [
    ...countFailures({ targets: result.targets, cells: source.cells() }).map((failures) => `${failures.target}: ${formatFailureLine(failures)}`),
    ...(result.unmeasured ?? []).map((entry) => `nothing measured for ${entry.target}: ${entry.reason}`),
    ...describeWireOnlyTargets({ targets: result.targets, cells: source.cells() }),
    ...[describeReruns(result), describeBackoff(result)].filter((line) => line !== undefined),
  ];
  const sources = describePassSources(result.summary);
  if (sources) lines.push(sources);
  yield lines.map((line) => `# ${escapeTapLine(line)}\n`).join('');
}

// Only the parts TAP prints are redacted (the same treatment as redactRunResult gives them).
function redactForTap(cell: Cell): Cell {
  return {
    ...cell,
    ...(cell.reason === undefined ? {} : { reason: redactText(cell.reason) }),
    checks: cell.checks.map((check) => (check.passed ? check : redactCheck(check))),
    actual: cell.actual.map((verdict) => (verdict === null ? null : redactVerdict(verdict))),
  };
}

function diagnosticsOf(cell: Cell, spec: { ref: string; url?: string }[] | undefined): string[] {
  const failed = cell.checks.filter((check) => !check.passed);
  const data: Record<string, unknown> = {
    status: cell.status,
    ...(cell.reason ? { reason: cell.reason } : {}),
    expected: cell.expected,
    actual: cell.actual,
    ...(failed.length ? { failed: failed.map((check) => `[${check.level}] ${check.message}${check.consequence ? ` (${nameFailureKind(check.consequence)})` : ''}`) } : {}),
    ...(cell.schema.length
      ? { schema: cell.schema.map((s) => `${s.version} exchange ${s.exchange} ${s.definition}: ${s.valid ? 'valid' : `invalid (${s.errors.slice(0, 3).join('; ')})`}`) }
      : {}),
    // Each reference with the page it cites (at the pinned commit), so no alias is left bare.
    ...(spec?.length ? { spec: spec.map((ref) => linkSpecReference(ref)) } : {}),
    repro: cell.repro,
  };
  // A top-level YAML mapping is its entries one after another, so each entry is stringified
  // on its own and memoised: across a large run most entries repeat word for word.
  const yaml = Object.entries(data).map(([key, value]) => stringifyEntry(key, value)).join('');
  return ['---', ...yaml.trimEnd().split('\n'), '...'];
}

function linkSpecReference(ref: { ref: string; url?: string }): string {
  const url = ref.url ?? resolveSpecReference(ref.ref)?.url;
  return url ? `${ref.ref} (${url})` : ref.ref;
}

const entryMemo = new Map<string, string>();
const ENTRY_MEMO_LIMIT = 20_000;
// Bounded in characters too, as redact.ts's cache is (issue 28 item 4).
const ENTRY_MEMO_MAX_CHARS = 4 * 1024 * 1024;
let entryMemoChars = 0;

function stringifyEntry(key: string, value: unknown): string {
  // A plain string (every repro line, most reasons) needs neither the memo nor the yaml package.
  const plain = stringifyPlainEntry(key, value);
  if (plain !== undefined) return plain;
  const memoKey = JSON.stringify([key, value]);
  let text = entryMemo.get(memoKey);
  if (text === undefined) {
    if (entryMemo.size >= ENTRY_MEMO_LIMIT || entryMemoChars >= ENTRY_MEMO_MAX_CHARS) {
      entryMemo.clear();
      entryMemoChars = 0;
    }
    text = loadYaml().stringify(sanitize({ [key]: value }), { lineWidth: 0 });
    entryMemo.set(memoKey, text);
    entryMemoChars += memoKey.length + text.length;
  }
  return text;
}

function indent(lines: string[], width: number): string[] {
  const pad = ' '.repeat(width);
  return lines.map((line) => pad + line);
}

/**
 * One line of TAP text: control characters and ANSI sequences go (the shared rule of
 * reports/redaction/redact.ts), line breaks become spaces (they would end the line), and `#` and `\\` are
 * escaped (an unescaped `#` starts a directive).
 */
function escapeTapLine(text: string): string {
  return escapeSeparators(stripControl(text)).replace(/[\t\n\r]/g, ' ').replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

// U+2028/U+2029 end a line for some TAP and YAML readers (a strict TAP 14 parser lost the
// points after one): they are written as the visible text `\u2028`/`\u2029`.
function escapeSeparators(text: string): string {
  return text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function sanitize(value: unknown): unknown {
  if (typeof value === 'string') return escapeSeparators(stripControl(value));
  if (Array.isArray(value)) return value.map(sanitize);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sanitize(v)]));
  return value;
}
