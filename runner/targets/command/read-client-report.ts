// Reads what a client process reported: the verdict file (preferred) or its last stdout line.
// Either holds one verdict, an array with one verdict per explicit call, or `{"skip": reason}`.
import { readVerdict } from '../../classify/read-verdict.js';
import type { TargetOutcome, Verdict } from '../../vocabulary/types.js';

/** The largest report (verdict file or last stdout line) that is read; one verdict per call fits many times over. */
export const MAX_REPORT_CHARS = 256 * 1024;

export interface ClientReport {
  verdicts: (Verdict | null)[];
  invalidVerdicts: NonNullable<TargetOutcome['invalidVerdicts']>;
  skip?: string;
  /** Where the report came from, for messages. */
  source: 'file' | 'stdout' | 'none';
}

/**
 * Reads the report for `calls` explicit calls. A single verdict answers the last call (the one
 * a one-shot client makes); text on stdout that does not start with `{` or `[` is ordinary log
 * output, not a report, so a conformance-style client that prints logs reports nothing.
 */
export function readClientReport(options: { fileText: string | undefined; lastStdoutLine: string; calls: number }): ClientReport {
  // The verdict file, when present and not blank, wins: stdout is then only log output, whatever its last line.
  if (options.fileText !== undefined && /\S/.test(options.fileText)) return readReportChannel(options.fileText, 'file', options.calls);
  if (/^\s*[[{]/.test(options.lastStdoutLine)) return readReportChannel(options.lastStdoutLine, 'stdout', options.calls);
  return { verdicts: new Array<null>(options.calls).fill(null), invalidVerdicts: [], source: 'none' };
}

function readReportChannel(text: string, source: 'file' | 'stdout', calls: number): ClientReport {
  // A verdict is a few hundred bytes; a huge one is refused unread, so it never reaches the results.
  if (text.length > MAX_REPORT_CHARS) {
    const where = source === 'file' ? 'the verdict file' : 'the last stdout line';
    return {
      verdicts: new Array<null>(calls).fill(null),
      invalidVerdicts: [{ index: calls - 1, value: clip(text), problem: `${where} holds ${text.length} characters, more than the ${MAX_REPORT_CHARS} a report may have` }],
      source,
    };
  }
  return readReportText(text.trim(), source, calls);
}

function readReportText(text: string, source: 'file' | 'stdout', calls: number): ClientReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = source === 'file' ? 'the verdict file' : 'the last stdout line';
    const report: ClientReport = { verdicts: new Array<Verdict | null>(calls).fill(null), invalidVerdicts: [], source };
    report.invalidVerdicts.push({ index: calls - 1, value: clip(text), problem: `${where} is not JSON (${(error as Error).message})` });
    return report;
  }
  return readReportValue(value, source, calls, text);
}

/**
 * Reads a parsed report: one verdict, an array with one per explicit call, or `{ skip }`.
 * Shared by the verdict file, the last stdout line and the persistent lane's answer lines.
 */
export function readReportValue(value: unknown, source: ClientReport['source'], calls: number, text = JSON.stringify(value) ?? ''): ClientReport {
  const report: ClientReport = { verdicts: new Array<Verdict | null>(calls).fill(null), invalidVerdicts: [], source };
  const skip = readSkip(value);
  if (skip !== undefined) return { ...report, skip };
  const values = Array.isArray(value) ? value : [value];
  // A single verdict (or a short array) answers the last calls: index from the end.
  const offset = Math.max(0, calls - values.length);
  values.slice(0, calls).forEach((item, position) => {
    const index = offset + position;
    if (item === null) return;
    const read = readVerdict(item);
    if ('verdict' in read) report.verdicts[index] = read.verdict;
    else report.invalidVerdicts.push({ index, value: item, problem: read.problem });
  });
  if (values.length > calls) {
    report.invalidVerdicts.push({ index: calls - 1, value: clip(text), problem: `${values.length} verdicts for ${calls} explicit call(s)` });
  }
  return report;
}

function readSkip(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('skip' in value)) return undefined;
  const reason = (value as { skip: unknown }).skip;
  return typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : 'the client skipped this cell';
}

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
