// TAP 14: one subtest per target, one test point per case × version, YAML diagnostics
// (expected, actual, failed checks, spec, repro) on every point that is not a plain pass.
import { stringify } from 'yaml';
import type { Cell, CellStatus, RunResult } from '../runner/types.js';
import { redactRunResult } from './redact-result.js';

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
export function render(given: RunResult, options: TapOptions = {}): string {
  // Diagnostics quote verdicts, reasons and check values: wire and target text, redacted.
  const result = redactRunResult(given);
  const lines = ['TAP version 14'];
  const byCase = new Map(result.cases.map((item) => [item.id, item]));
  lines.push(`1..${result.targets.length}`);
  result.targets.forEach((target, targetIndex) => {
    const cells = result.cells.filter((cell) => cell.target === target.name);
    lines.push(`# Subtest: ${escapeDescription(target.name)}`);
    lines.push(`    1..${cells.length}`);
    cells.forEach((cell, index) => {
      const line = STATUS_LINE[cell.status](cell);
      const suffix = cell.status === 'non_strict' ? ' (non_strict)' : cell.status === 'xpass' ? ' (xpass: listed in the baseline but passes; remove the entry)' : cell.status === 'error' ? ' (error)' : '';
      const directive = line.directive ? ` # ${escapeDirective(line.directive)}` : '';
      lines.push(`    ${line.ok ? 'ok' : 'not ok'} ${index + 1} - ${escapeDescription(`${cell.case} [${cell.protocolVersion}]${suffix}`)}${directive}`);
      if (line.diagnostics || options.verbose) lines.push(...indent(diagnosticsOf(cell, byCase.get(cell.case)?.spec), 6));
    });
    const failed = cells.some((cell) => !STATUS_LINE[cell.status](cell).ok && cell.status !== 'xfail');
    lines.push(`${failed ? 'not ok' : 'ok'} ${targetIndex + 1} - ${escapeDescription(target.name)}`);
  });
  if (!result.complete) lines.push('Bail out! The run was interrupted; results are incomplete.');
  return `${lines.join('\n')}\n`;
}

function diagnosticsOf(cell: Cell, spec: { ref: string; url?: string }[] | undefined): string[] {
  const failed = cell.checks.filter((check) => !check.passed);
  const data: Record<string, unknown> = {
    status: cell.status,
    ...(cell.reason ? { reason: cell.reason } : {}),
    expected: cell.expected,
    actual: cell.actual,
    ...(failed.length ? { failed: failed.map((check) => `[${check.level}] ${check.message}`) } : {}),
    ...(cell.schema.length
      ? { schema: cell.schema.map((s) => `${s.version} exchange ${s.exchange} ${s.definition}: ${s.valid ? 'valid' : `invalid (${s.errors.slice(0, 3).join('; ')})`}`) }
      : {}),
    ...(spec?.length ? { spec: spec.map((ref) => ref.ref) } : {}),
    repro: cell.repro,
  };
  const yaml = stringify(sanitize(data), { lineWidth: 0 }).trimEnd().split('\n');
  return ['---', ...yaml, '...'];
}

function indent(lines: string[], width: number): string[] {
  const pad = ' '.repeat(width);
  return lines.map((line) => pad + line);
}

/** TAP descriptions end at an unescaped `#`; newlines would end the line. */
function escapeDescription(text: string): string {
  return stripControl(text).replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

function escapeDirective(text: string): string {
  return stripControl(text).replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/[\u0000-\u001f\u007f]/g, ' ');
}

function sanitize(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
  if (Array.isArray(value)) return value.map(sanitize);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sanitize(v)]));
  return value;
}
