import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Case, ResponseSpec } from '../cases/case-types.js';
import { startMockServer } from '../mock-server/server.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { estimateWaitMs } from '../run/estimate-wait.js';
import { buildToolCallRequest } from './build-tool-call-request.js';
import { openHarnessSession } from './harness-session.js';
import { renderDirectResponse } from './render-direct-response.js';
import { classifyReference } from '../classify/reference.js';

// Every budget here must hold on a loaded machine: a POST's budget covers the session's setup
// POSTs too (initialize, notifications/initialized), and the status line and first event of a stream
// that then hangs must arrive inside it, or HTTP reads 0 or 400 where direct mode reads 200. Cases
// that wait on purpose (hangs, delays) get WAITING_TIMEOUT_MS, long beside loopback latency under
// load yet cheap (they wait, they do not spin); the synthetic delays meant to outlast the budget are
// twice as long, so that a late timer never lets them arrive first. Every other case gets a longer one.
const WAITING_TIMEOUT_MS = 2000;
const LONG_TIMEOUT_MS = 5000;
const PAST_TIMEOUT_MS = 2 * WAITING_TIMEOUT_MS;

function getTimeoutMs(testCase: Case): number {
  return estimateWaitMs(testCase, WAITING_TIMEOUT_MS) > 0 ? WAITING_TIMEOUT_MS : LONG_TIMEOUT_MS;
}
const casesRoot = join(import.meta.dirname, '../../cases');

function loadCaseFiles(): Case[] {
  return readdirSync(casesRoot, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      // Case files are validated by the loader's own tests; here an unreadable one is skipped.
      const parsed = tryParse(readFileSync(join(casesRoot, file), 'utf8')) as Case | undefined;
      return parsed && Array.isArray(parsed.exchanges) && Array.isArray(parsed.versions) ? [parsed] : [];
    });
}

/** Runs every exchange of the case over HTTP and in direct mode, and returns both lists. */
async function runBothModes(testCase: Case, protocolVersion: ProtocolVersion) {
  const server = await startMockServer({ case: testCase, protocolVersion });
  const timeoutMs = getTimeoutMs(testCase);
  const session = await openHarnessSession({ url: server.url, protocolVersion, timeoutMs });
  try {
    const http = [];
    const direct = [];
    let previousResult: unknown;
    for (let exchangeIndex = 0; exchangeIndex < testCase.exchanges.length; exchangeIndex++) {
      const request = buildToolCallRequest({ case: testCase, protocolVersion, exchangeIndex, previousResult });
      const response = await session.call(request);
      http.push(response);
      direct.push(renderDirectResponse(testCase.exchanges[exchangeIndex]!, { requestId: request.id, timeoutMs }));
      previousResult = tryParse(response.body);
    }
    return { http, direct };
  } finally {
    await session.close();
    await server.close();
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };
const synthetic: [string, ResponseSpec][] = [
  ['sse with comment, multi-line data and CRLF', { body: { sse: { lineEnding: 'crlf', events: [{ comment: 'hi' }, { data: progress }, { response: true, multiline: true, data: SUCCESS_JSON }] } } }],
  ['sse with CR line endings and raw data', { body: { sse: { lineEnding: 'cr', events: [{ id: 'e0', dataRaw: '' }, { dataRaw: 'a\nb' }] } } }],
  ['sse with delays', { body: { sse: { events: [{ data: progress, delayMs: 20 }, { response: true, data: SUCCESS_JSON, delayMs: 20 }] } } }],
  ['sse whose final response is resume-only', { body: { sse: { events: [{ id: 'e1', retry: 300, data: progress }, { id: 'e2', response: true, resumeOnly: true, data: SUCCESS_JSON }] } } }],
  ['gzip json', { contentEncoding: 'gzip', body: { json: SUCCESS_JSON } }],
  ['gzip sse', { contentEncoding: 'gzip', body: { sse: { events: [{ response: true, data: SUCCESS_JSON }] } } }],
  ['bom json', { bom: true, body: { json: SUCCESS_JSON } }],
  ['bom and gzip', { bom: true, contentEncoding: 'gzip', body: { json: SUCCESS_JSON } }],
  ['two boms before json', { bom: 2, body: { json: SUCCESS_JSON } }],
  ['two boms before an event stream', { bom: 2, body: { sse: { events: [{ response: true, data: SUCCESS_JSON }] } } }],
  ['hang before status', { start: 'hang' }],
  ['delay beyond the timeout', { delayMs: PAST_TIMEOUT_MS, body: { json: SUCCESS_JSON } }],
  ['reset before status', { start: 'reset' }],
  ['reset mid-stream', { body: { sse: { end: 'reset', events: [{ data: progress }] } } }],
  ['stream that hangs after an event', { body: { sse: { end: 'hang', events: [{ data: progress }] } } }],
  ['stream event past the timeout', { body: { sse: { events: [{ data: progress }, { response: true, data: SUCCESS_JSON, delayMs: PAST_TIMEOUT_MS }] } } }],
  ['id as-float', { id: 'as-float', body: { json: SUCCESS_JSON } }],
  ['id as-string', { id: 'as-string', body: { json: SUCCESS_JSON } }],
  ['id omitted', { id: 'omit', body: { json: SUCCESS_JSON } }],
  ['id null', { id: 'null', body: { json: SUCCESS_JSON } }],
  ['202 without body', { status: 202 }],
  ['204 with a body', { status: 204, body: { raw: 'ignored' } }],
  ['429 with Retry-After and no content type', { status: 429, contentType: null, headers: { 'Retry-After': '1' }, body: { json: {} } }],
  ['base64 bytes that are not UTF-8', { contentType: 'application/json', body: { base64: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64') } }],
  ['repeated header', { headers: { 'X-Extra': 'a', 'x-extra': 'b' }, body: { raw: 'x' } }],
];

// Concurrent on purpose: many mock servers at once must not share state.
describe.concurrent('direct mode equals http mode', () => {
  const cases = loadCaseFiles();
  it('covers at least the eleven published cases', () => {
    expect(cases.filter((testCase) => testCase.origin === 'article').length).toBeGreaterThanOrEqual(11);
  });

  for (const testCase of cases) {
    for (const version of testCase.versions) {
      it(`case ${testCase.id} under ${version}`, async ({ expect }) => {
        const { http, direct } = await runBothModes(testCase, version);
        expect(direct).toEqual(http);
      });
    }
  }

  it.for(synthetic)('%s', async ([, response], { expect }) => {
    const testCase = makeCase([response]);
    for (const version of ['2025-11-25', '2026-07-28'] as const) {
      const { http, direct } = await runBothModes(testCase, version);
      expect(direct).toEqual(http);
    }
  });
});

// The classifier reads what the harness decoded: one BOM dropped by UTF-8 decode, the second one
// data. Both modes decode the same bytes the same way, so the verdicts agree as well as the inputs.
describe.concurrent('two leading BOMs get one verdict in both modes', () => {
  it.for<[string, ResponseSpec, string]>([
    ['JSON', { bom: 2, body: { json: SUCCESS_JSON } }, 'MALFORMED_JSON'],
    ['an event stream', { bom: 2, body: { sse: { events: [{ response: true, data: SUCCESS_JSON }] } } }, 'STREAM_INCOMPLETE'],
  ])('%s', async ([, response, outcome], { expect }) => {
    const version = '2026-07-28';
    const { http, direct } = await runBothModes(makeCase([response]), version);
    const read = (answer: (typeof http)[number]) => classifyReference({ ...answer, expectedId: 1, protocolVersion: version }).outcome;
    expect(http[0]!.body.charCodeAt(0)).toBe(0xfeff);
    expect([read(http[0]!), read(direct[0]!)]).toEqual([outcome, outcome]);
  });
});
