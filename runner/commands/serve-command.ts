// `mcp-error-matrix serve <case> [--version V] [--port N]`: the mock server for one case, for
// debugging a client by hand (MCP Inspector, curl). Prints the URL and what the script will
// send, logs each exchange as it happens, and stops on Ctrl+C (or when io.signal aborts).
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { describeUnknownCase } from './describe-unknown-case.js';
import { DEFAULT_TOOL, getExpectedVerdict, type Case, type ExchangeSpec } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { UsageError } from '../util/errors.js';
import { buildToolCallRequest } from '../harness/build-tool-call-request.js';
import { renderResponse } from '../mock-server/render-response.js';
import { startMockServer } from '../mock-server/server.js';
import { parseVersion } from '../cli/options.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion, type RecordedExchange } from '../vocabulary/types.js';
import { hasInitializeSession } from '../vocabulary/version-features.js';

const SERVE_FLAGS = {
  version: { type: 'string' },
  port: { type: 'string' },
  cases: { type: 'string', multiple: true },
} as const;

const USAGE = 'usage: mcp-error-matrix serve <case> [--version V] [--port N] [--cases DIR]';

export const SERVE_USAGE = `Usage: mcp-error-matrix serve <case> [--version V] [--port N] [--cases DIR]
  Serves one case on 127.0.0.1 for debugging a client by hand (curl, the MCP Inspector): prints the
  URL and what the script will send, logs each exchange as it happens, stops on Ctrl+C. Writes no report.

  --version V      the protocol version to serve (default: 2025-11-25 if the case has it, else its first): ${PROTOCOL_VERSIONS.join(' | ')}
  --port N         the port to listen on (default 0: a free port)
  --cases DIR|GLOB the case table to look in (default: the bundled one; repeatable)
`;

/** Serves one case until interrupted; returns 0. A bad case id, version or port is a usage error. */
export async function runServeCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandFlags('serve', { args, options: SERVE_FLAGS, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError(`serve: expected exactly one case id; ${USAGE}`);
  const id = positionals[0]!;
  const port = parsePort(values.port);
  const table = await loadCases({ ...(values.cases ? { sources: values.cases } : {}), cwd: io.cwd });
  const loaded = table.find((item) => item.case.id === id);
  if (!loaded) throw describeUnknownCase('serve', id, table.map((item) => item.case.id));
  const version = selectVersion(loaded.case, values.version);
  const stop = getStopSignal(io);
  io.setStopMode?.('abort', 'stopping the server');
  let server;
  try {
    server = await startMockServer({ case: loaded.case, protocolVersion: version, port, onExchange: (exchange) => io.stdout(`${formatExchangeLog(exchange)}\n`) });
  } catch (error) {
    throw new UsageError(`serve --port ${port}: cannot listen on 127.0.0.1:${port} (${(error as Error).message})`);
  }
  try {
    io.stdout(formatPlan(loaded.case, version, server.url));
    await new Promise<void>((resolve) => (stop.signal.aborted ? resolve() : stop.signal.addEventListener('abort', () => resolve(), { once: true })));
    io.stdout(`Stopped after ${server.recording().exchanges.length} exchange(s).\n`);
    return 0;
  } finally {
    stop.dispose();
    await server.close();
  }
}

/** What the server will do: URL, version, one block per scripted exchange, a curl line to try. */
export function formatPlan(item: Case, version: ProtocolVersion, url: string): string {
  const tool = item.tool ?? DEFAULT_TOOL;
  const lines = [`Serving ${item.id} (${item.title}) under ${version}`, `URL: ${url}`, `Tool: ${tool.name}`, ''];
  lines.push(hasInitializeSession(version) ? 'initialize first (a session id is issued unless the case turns sessions off), then tools/call:' : 'Stateless: send tools/call directly (with _meta, MCP-Protocol-Version, Mcp-Method, Mcp-Name):');
  item.exchanges.forEach((exchange, index) => lines.push(`  ${index + 1}. ${summariseExchange(exchange, index, version)}`));
  const after = item.afterScript === 'baseline' ? 'the baseline success result' : 'the last response again';
  lines.push(`  then: ${after}${item.counts === 'every-post' ? ' (every POST consumes a step, not only tools/call)' : ''}`, '');
  if (version === '2026-07-28') {
    const request = buildToolCallRequest({ case: item, protocolVersion: version, exchangeIndex: 0 });
    const headers = ['Accept: application/json, text/event-stream', 'Content-Type: application/json', `MCP-Protocol-Version: ${version}`, 'Mcp-Method: tools/call', `Mcp-Name: ${tool.name}`];
    lines.push('Try:', `  curl -sS -N ${headers.map((header) => `-H '${header}'`).join(' ')} -d '${JSON.stringify(request).replace(/'/g, `'\\''`)}' ${url}`, '');
  }
  lines.push('Each exchange is logged below as the server finishes it. Press Ctrl+C to stop.', '');
  return `${lines.join('\n')}\n`;
}

/** One log line: transcript number, time, request → response status and how it ended. */
export function formatExchangeLog(exchange: RecordedExchange): string {
  const { request, response } = exchange;
  const rpc = request.rpc;
  const what = rpc?.isResponse ? `response to id=${JSON.stringify(rpc.id)}` : rpc?.method ? `${rpc.method}${rpc.isNotification ? '' : ` id=${JSON.stringify(rpc.id)}`}` : request.body.trim() === '' ? '(no body)' : '(not JSON-RPC)';
  const step = request.scriptStep === undefined ? '' : ` [script step ${request.scriptStep + 1}]`;
  const status = response?.status === undefined ? 'no status line' : String(response.status);
  const type = response?.headers['content-type'];
  const bytes = response ? Buffer.byteLength(response.body) : 0;
  return `#${exchange.seq + 1} +${Math.round(exchange.at)}ms ${request.method} ${what}${step} → ${status}${type ? ` ${type}` : ''} (${response?.ending ?? 'no response'}, ${bytes} bytes)`;
}

function summariseExchange(exchange: ExchangeSpec, index: number, version: ProtocolVersion): string {
  const expected = getExpectedVerdict(exchange, version);
  const kind = exchange.request?.followUp ? 'MRTR follow-up' : index === 0 ? 'tools/call' : 'next tools/call';
  const rendered = renderResponse({ ...exchange, response: { ...exchange.response, contentEncoding: undefined } }, { requestId: exchange.request?.id ?? index + 1, idPresent: true });
  const delay = rendered.delayMs > 0 ? `after ${rendered.delayMs} ms, ` : '';
  const expect = `   (a correct client concludes ${expected.outcome})`;
  if (rendered.start === 'hang') return `${kind} → ${delay}never answers (no status line)${expect}`;
  if (rendered.start === 'reset') return `${kind} → ${delay}resets the connection before the status line${expect}`;
  const contentType = rendered.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'no content type';
  const encoding = exchange.response.contentEncoding ? `, ${exchange.response.contentEncoding}` : '';
  const end = { close: '', reset: ', then a TCP reset', hang: ', then the stream stays open' }[rendered.end];
  let body: string;
  if (rendered.isStream) {
    body = `${rendered.chunks.length} SSE event(s)${end}`;
  } else {
    const text = Buffer.concat(rendered.chunks.map((chunk) => chunk.bytes)).toString('utf8');
    body = text === '' ? 'no body' : clip(text.replace(/\s+/g, ' '), 100);
  }
  return `${kind} → ${delay}HTTP ${rendered.status}, ${contentType}${encoding}: ${body}${expect}`;
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`serve --port ${value}: expected a whole number from 0 to 65535 (0 picks a free port)`);
  return port;
}

// Without --version 2025-11-25 is served when the case has it (what most clients and the MCP
// Inspector speak today), else the case's first version.
function selectVersion(item: Case, requested: string | undefined): ProtocolVersion {
  if (requested === undefined) return item.versions.includes('2025-11-25') ? '2025-11-25' : item.versions[0]!;
  const version = parseVersion(requested);
  if (!item.versions.includes(version)) throw new UsageError(`serve ${item.id} --version ${version}: the case applies only to ${item.versions.join(', ')}`);
  return version;
}

// The CLI's io.signal when it has one; otherwise SIGINT/SIGTERM of this process.
function getStopSignal(io: CliIo): { signal: AbortSignal; dispose(): void } {
  if (io.signal) return { signal: io.signal, dispose: () => undefined };
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
