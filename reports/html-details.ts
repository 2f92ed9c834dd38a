// Per-cell details for the HTML matrix, embedded once as JSON and turned into DOM on click, so
// a 6,000-cell report does not carry 6,000 rendered transcripts. All text is sanitized here.
import type { Cell, RecordedExchange, RunResult } from '../runner/types.js';
import { indexCases } from './case-info.js';
import { sanitizeHeaders, sanitizeText, sanitizeValue } from './redact.js';

export interface DetailsOptions {
  /** Characters kept per request/response body and per SSE event. */
  maxBodyChars: number;
  /** Characters kept from the end of target stderr/stdout. */
  maxOutputChars: number;
}

interface ExchangeDetails {
  seq: number;
  at: number;
  request: { method: string; path: string; headers: [string, string][]; body: string; rpc?: string; step?: number };
  response?: { status: number | null; headers: [string, string][]; body: string; events?: { at: number; text: string }[]; ending: string; endedAt?: number };
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… [${text.length - max} more characters not shown]` : text;
}

function capTail(text: string, max: number): string {
  return text.length > max ? `[${text.length - max} earlier characters not shown] …\n${text.slice(-max)}` : text;
}

function describeExchange(exchange: RecordedExchange, options: DetailsOptions): ExchangeDetails {
  const { request, response } = exchange;
  const body = (text: string) => cap(sanitizeText(text), options.maxBodyChars);
  const rpc = request.rpc;
  return {
    seq: exchange.seq,
    at: exchange.at,
    request: {
      method: sanitizeText(request.method),
      path: sanitizeText(request.path),
      headers: sanitizeHeaders(request.headers),
      body: body(request.body),
      ...(rpc ? { rpc: sanitizeText(`${rpc.isResponse ? 'response' : rpc.isNotification ? 'notification' : 'request'} ${rpc.method ?? ''} id=${JSON.stringify(rpc.id) ?? '—'}`) } : {}),
      ...(request.scriptStep === undefined ? {} : { step: request.scriptStep }),
    },
    ...(response
      ? {
          response: {
            status: response.status ?? null,
            headers: sanitizeHeaders(response.headers),
            // SSE responses are shown event by event; the concatenated body would repeat them.
            body: response.events ? '' : body(response.body),
            ...(response.events ? { events: response.events.map((e) => ({ at: e.at, text: body(e.text) })) } : {}),
            ending: response.ending,
            ...(response.endedAt === undefined ? {} : { endedAt: response.endedAt }),
          },
        }
      : {}),
  };
}

function describeCell(cell: Cell, options: DetailsOptions) {
  const run = cell.targetRun;
  return {
    c: sanitizeText(cell.case),
    t: sanitizeText(cell.target),
    v: cell.protocolVersion,
    s: cell.status,
    reason: sanitizeText(cell.reason ?? ''),
    ms: cell.durationMs,
    repro: sanitizeText(cell.repro),
    exchanges: Math.max(cell.expected.length, cell.actual.length),
    expected: cell.expected.map((e) => sanitizeValue(e)),
    actual: cell.actual.map((a) => (a === null ? 'nothing reported' : sanitizeValue(a))),
    checks: cell.checks.map((c) => ({
      id: sanitizeText(c.id),
      level: c.level,
      passed: c.passed,
      message: sanitizeText(c.message),
      expected: sanitizeValue(c.expected),
      actual: sanitizeValue(c.actual),
      ...(c.exchange === undefined ? {} : { exchange: c.exchange }),
    })),
    schema: cell.schema.map((r) => ({
      version: r.version,
      definition: sanitizeText(r.definition),
      valid: r.valid,
      errors: r.errors.map(sanitizeText),
      sender: r.sender,
      exchange: r.exchange,
    })),
    url: cell.recording ? sanitizeText(cell.recording.url) : '',
    transcript: cell.recording?.exchanges.map((e) => describeExchange(e, options)) ?? [],
    run: run
      ? {
          exitCode: run.exitCode ?? null,
          signal: run.signal ?? null,
          timedOut: run.timedOut,
          ms: run.durationMs,
          stderr: capTail(sanitizeText(run.stderr ?? ''), options.maxOutputChars),
          stdout: capTail(sanitizeText(run.stdout ?? ''), options.maxOutputChars),
        }
      : null,
  };
}

/** The details payload: case texts by id, and one entry per cell in `cells` order. */
export function buildDetails(result: RunResult, cells: readonly Cell[], options: DetailsOptions) {
  const cases: Record<string, unknown> = {};
  for (const [id, c] of indexCases(result)) {
    cases[sanitizeText(id)] = {
      title: sanitizeText(c.title),
      layer: sanitizeText(c.layer),
      origin: sanitizeText(c.origin),
      file: sanitizeText(c.file),
      description: sanitizeText(c.description ?? ''),
      expectation: sanitizeText(c.expectation ?? ''),
      policy: sanitizeText(c.policy ?? ''),
      // Only http(s) links become anchors; anything else is shown as text.
      spec: (c.spec ?? []).map((s) => ({ ref: sanitizeText(s.ref), url: s.url && /^https?:\/\//i.test(s.url) ? s.url : '', version: s.version ?? '' })),
    };
  }
  return { cases, cells: cells.map((cell) => describeCell(cell, options)) };
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the JS line
 * separators become \u escapes, so no `</script>` or `<!--` can end the block early.
 */
export function serializeJsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
