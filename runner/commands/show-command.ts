// `mcp-error-matrix show <case> [--version V]`: one case in readable form — what the server
// sends per version (rendered by the mock server's own renderer, so it is what goes on the
// wire), what a correct classifier concludes and why, and what a real client should do.
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { describeUnknownCase } from './describe-unknown-case.js';
import { DEFAULT_TOOL, getExpectedVerdict, type Case, type ExchangeSpec, type LoadedCase, type SseBody } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { UsageError } from '../util/errors.js';
import { getAcceptedAlternatives } from '../judge/server-fault.js';
import { getContentLength, isBodylessStatus } from '../mock-server/framing.js';
import { renderResponse } from '../mock-server/render-response.js';
import { renderSseEvents } from '../mock-server/render-sse.js';
import { getResponseIdText, type ResponseIdText } from '../mock-server/serialize-message.js';
import { parseVersion } from '../cli/options.js';
import { PROTOCOL_VERSIONS, type ExpectedVerdict, type Outcome, type ProtocolVersion } from '../vocabulary/types.js';

const SHOW_FLAGS = {
  version: { type: 'string' },
  cases: { type: 'string', multiple: true },
} as const;

// DESIGN §2 and README § Outcomes, one line each: why a classifier concludes an outcome.
const OUTCOME_MEANING: Record<Outcome, string> = {
  TOOL_SUCCESS: 'a complete, valid result with isError false or absent',
  TOOL_ERROR: 'a complete, valid result with isError true: the tool failed, the exchange did not',
  HTTP_ERROR: 'a non-2xx status; the status takes precedence over any body',
  JSONRPC_ERROR: 'a valid JSON-RPC error object for this request: a protocol error, no result',
  INPUT_REQUIRED: 'resultType "input_required": more input needed, answer with a follow-up, not a retry',
  MALFORMED_JSON: 'the body (or the final SSE event\'s data) is not JSON',
  INVALID_ENVELOPE: 'not a single JSON-RPC 2.0 response for this request',
  INVALID_TOOL_RESULT: 'the envelope is fine but the result is not a valid CallToolResult',
  STREAM_INCOMPLETE: 'the stream ended or broke without a final response for this request',
  NO_RESPONSE: 'no status line at all: timeout, refused, or reset before the status',
};

export const SHOW_USAGE = `Usage: mcp-error-matrix show <case> [--version V] [--cases DIR]
  Prints one case: what the server sends per protocol version (as rendered on the wire), what a
  correct classifier concludes and why, and what a real client is expected to do.

  --version V      only this protocol version: ${PROTOCOL_VERSIONS.join(' | ')}
  --cases DIR|GLOB the case table to look in (default: the bundled one; repeatable)
`;

/** Prints one case; an unknown id or a version the case does not apply to is a usage error. */
export async function runShowCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandFlags('show', { args, options: SHOW_FLAGS, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError('show: expected exactly one case id, e.g. `mcp-error-matrix show baseline`');
  const id = positionals[0]!;
  const table = await loadCases({ ...(values.cases ? { sources: values.cases } : {}), cwd: io.cwd });
  const loaded = table.find((item) => item.case.id === id);
  if (!loaded) throw describeUnknownCase('show', id, table.map((item) => item.case.id));
  const versions = selectVersions(loaded.case, values.version);
  io.stdout(formatCase(loaded, versions));
  return 0;
}

/** The whole text `show` prints for a case, for the given versions. */
export function formatCase(loaded: LoadedCase, versions: ProtocolVersion[]): string {
  const c = loaded.case;
  const lines: string[] = [`${c.id} — ${c.title}`, `layer: ${c.layer}   origin: ${c.origin}   versions: ${c.versions.join(', ')}   file: ${loaded.relativeFile}`, ''];
  lines.push(...wrap(c.description, 96), '');
  if (c.expectation) lines.push(...wrap(`Expectation: ${c.expectation}`, 96));
  if (c.policy) lines.push(...wrap(`Policy: ${c.policy}`, 96));
  lines.push('', 'Spec:', ...c.spec.map((ref) => `  - ${ref.ref}${ref.version ? ` (${ref.version})` : ''}${ref.url ? ` <${ref.url}>` : ''}`), '');
  lines.push(...formatTool(c), ...formatServer(c), '');
  for (const version of versions) {
    lines.push(`== ${version} ==`);
    c.exchanges.forEach((exchange, index) => lines.push(...formatExchange(exchange, index, version), ''));
  }
  lines.push(...formatClient(c));
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function selectVersions(item: Case, requested: string | undefined): ProtocolVersion[] {
  if (requested === undefined) return item.versions;
  const version = parseVersion(requested);
  if (!item.versions.includes(version)) {
    throw new UsageError(`show ${item.id} --version ${version}: the case applies only to ${item.versions.join(', ')}`);
  }
  return [version];
}

function formatTool(c: Case): string[] {
  const tool = c.tool ?? DEFAULT_TOOL;
  const hints = Object.entries(('annotations' in tool ? tool.annotations : undefined) ?? {}).map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
  const lines = [`Tool: ${tool.name}${c.tool ? '' : ' (the default tool)'}${hints.length ? `   annotations: ${hints.join(', ')}` : '   annotations: none (defaults: destructive, not idempotent)'}`];
  lines.push(`  arguments: ${JSON.stringify(tool.arguments ?? {})}`);
  return lines;
}

function formatServer(c: Case): string[] {
  const lines: string[] = [];
  if (c.server) lines.push(`Server: ${Object.entries(c.server).map(([name, value]) => `${name}=${String(value)}`).join(', ')}`);
  if (c.counts === 'every-post') lines.push('Script steps are consumed by every POST (initialize, tools/list and notifications included).');
  if (c.exchanges.length > 1 || c.afterScript) {
    lines.push(`After the script: ${c.afterScript === 'baseline' ? 'the baseline success result' : 'the last exchange again'}.`);
  }
  return lines;
}

function formatExchange(exchange: ExchangeSpec, index: number, version: ProtocolVersion): string[] {
  const requestId = exchange.request?.id ?? index + 1;
  const kind = exchange.request?.followUp ? ' — MRTR follow-up (new id, inputResponses, echoed requestState)' : '';
  const lines = [`Exchange ${index + 1}: tools/call with id ${JSON.stringify(requestId)}${kind}${exchange.note ? ` (${exchange.note})` : ''}`];
  lines.push('  the server sends:', ...formatResponse(exchange, requestId).map((line) => `    ${line}`));
  const validity = exchange.schemaValid?.[version];
  if (validity !== undefined) lines.push(`  schema: the message is ${validity ? 'valid' : 'INVALID'} under ${version}`);
  const verdict = getExpectedVerdict(exchange, version);
  const differs = exchange.expectByVersion?.[version] !== undefined ? ' (this version differs)' : '';
  lines.push(`  a correct classifier concludes: ${formatVerdict(verdict)}${differs}`, `    because: ${OUTCOME_MEANING[verdict.outcome]}`);
  for (const alternative of getAcceptedAlternatives(exchange, version) ?? []) {
    lines.push(`  also accepted, failing only a ${alternative.level}: ${formatVerdict(alternative)}`);
    lines.push(...wrap(`because: ${alternative.why}`, 90).map((line) => `    ${line}`));
    lines.push(`    spec: ${alternative.spec.map((ref) => ref.ref).join('; ')}`);
  }
  return lines;
}

function formatResponse(exchange: ExchangeSpec, requestId: string | number): string[] {
  const spec = exchange.response;
  // Rendered without compression so the body is readable; the encoding is reported beside it.
  const plain = renderResponse({ ...exchange, response: { ...spec, contentEncoding: undefined } }, { requestId, idPresent: true });
  const onWire = renderResponse(exchange, { requestId, idPresent: true });
  const lines: string[] = [];
  if (plain.delayMs > 0) lines.push(`(waits ${plain.delayMs} ms before the status line)`);
  if (plain.start === 'hang') return [...lines, '(never sends a status line: the connection stays open and silent)'];
  if (plain.start === 'reset') return [...lines, '(resets the TCP connection before the status line)'];
  lines.push(`HTTP ${plain.status}`);
  const contentLength = getContentLength(onWire);
  const headers = [...onWire.headers, ...(contentLength === undefined ? [] : [['Content-Length', String(contentLength)] as [string, string]])];
  lines.push(...headers.map(([name, value]) => `${name}: ${value}`));
  if (isBodylessStatus(plain.status) || plain.chunks.length === 0) return [...lines, '(no body)'];
  if (spec.contentEncoding === 'gzip') lines.push('(body sent gzip-compressed; decoded below)');
  if (spec.bom === true || spec.bom === 1) lines.push('(body starts with a UTF-8 byte order mark, EF BB BF)');
  else if (spec.bom) lines.push(`(body starts with ${spec.bom} UTF-8 byte order marks, EF BB BF each: a receiver drops the first one only)`);
  if (!plain.isStream) {
    const text = Buffer.concat(plain.chunks.map((chunk) => chunk.bytes)).toString('utf8').replace(/^\uFEFF/, '');
    return [...lines, text === '' ? '(empty body)' : `body: ${showControlCharacters(text)}`];
  }
  const events = spec.body && 'sse' in spec.body ? spec.body.sse : undefined;
  lines.push(`SSE events (line endings: ${events?.lineEnding ?? 'lf'}):`);
  plain.chunks.forEach((chunk, number) => {
    const text = chunk.bytes.toString('utf8').replace(/^\uFEFF/, '').replace(/(\r\n|\r|\n)+$/, '');
    const event = events?.events[number];
    const notes = [chunk.delayMs > 0 ? `after ${chunk.delayMs} ms` : '', event?.response ? 'the response' : '', event?.responseId ? 'another answer with the response id' : '', event?.awaitReply ? 'waits for the client\'s reply' : ''].filter(Boolean);
    lines.push(`  ${number + 1}. ${text.split(/\r\n|\r|\n/).join(' ⏎ ')}${notes.length ? `   [${notes.join('; ')}]` : ''}`);
  });
  const end = { close: 'the stream closes cleanly', reset: 'the TCP connection is reset', hang: 'the stream stays open and silent' }[plain.end];
  lines.push(`then ${end}`);
  if (events) lines.push(...formatResumedEvents(events, getResponseIdText(spec.id, requestId, true), plain.chunks.length));
  return lines;
}

/** 2025-11-25 resumption: the events only a GET with Last-Event-ID gets (T25 § Resumability and Redelivery). */
function formatResumedEvents(body: SseBody, responseId: ResponseIdText, sent: number): string[] {
  const resumed = body.events.filter((event) => event.resumeOnly).map(({ resumeOnly: _resumeOnly, ...event }) => event);
  if (resumed.length === 0) return [];
  const lastId = body.events.filter((event) => !event.resumeOnly && event.id !== undefined).at(-1)?.id;
  const rendered = renderSseEvents({ ...body, events: resumed }, responseId);
  return [
    `on a GET resuming with Last-Event-ID: ${lastId ?? '(none)'}, the server replays:`,
    ...rendered.map((event, number) => {
      const text = event.text.replace(/(\r\n|\r|\n)+$/, '').split(/\r\n|\r|\n/).join(' ⏎ ');
      return `  ${sent + number + 1}. ${text}${resumed[number]?.response ? '   [the response]' : ''}`;
    }),
  ];
}

function formatClient(c: Case): string[] {
  const client = c.client;
  if (!client) return ['Client expectations: none beyond the classifier verdicts above.'];
  const lines = ['Client expectations (a real client, judged on the wire):'];
  lines.push(`  explicit calls: ${client.calls ?? 1}`);
  if (client.outcome) lines.push(`  reports: ${formatVerdict(client.outcome)} [${client.outcomeLevel ?? 'MUST'}]`);
  for (const [version, verdict] of Object.entries(client.outcomeByVersion ?? {})) lines.push(`  reports under ${version}: ${formatVerdict(verdict)}`);
  for (const rule of client.wire ?? []) {
    const bounds = [rule.min !== undefined ? `min ${rule.min}` : '', rule.max !== undefined ? `max ${rule.max}` : ''].filter(Boolean).join(', ');
    const scope = rule.versions ? ` (${rule.versions.join(', ')} only)` : '';
    lines.push(`  - ${rule.level} ${rule.rule}${bounds ? ` ${bounds}` : ''}${scope}${rule.why ? `: ${rule.why}` : ''}`);
  }
  return lines;
}

function formatVerdict(verdict: ExpectedVerdict): string {
  const extra = [verdict.status !== undefined ? `status ${verdict.status}` : '', verdict.code !== undefined ? `code ${verdict.code}` : ''].filter(Boolean);
  return `${verdict.outcome}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

// Raw bodies may hold CR, NUL or other control characters; show them as escapes.
function showControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\n/g, '\\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

export type { Case };
