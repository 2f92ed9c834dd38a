// Realistic RunResult values for report tests: a small default matrix that exercises every
// cell status, and a synthetic generator for size tests. Override any part per test.
import type {
  CaseSummary,
  Cell,
  CellStatus,
  Check,
  ProtocolVersion,
  Recording,
  RunResult,
  RunSummary,
  TargetInfo,
} from '../runner/vocabulary/types.js';
import { CELL_STATUSES, PROTOCOL_VERSIONS } from '../runner/vocabulary/types.js';
import type { CaseDetails } from '../reports/model/index.js';

const V1: ProtocolVersion = '2025-11-25';
const V2: ProtocolVersion = '2026-07-28';

/** A one-exchange recording: initialize-free tools/call POST answered by `body`. */
export function makeRecording(overrides: { body?: string; status?: number; headers?: Record<string, string>; sse?: string[] } = {}): Recording {
  const body = overrides.body ?? '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}';
  const events = overrides.sse?.map((text, i) => ({ at: 14 + i * 5, text }));
  return {
    url: 'http://127.0.0.1:40123/mcp',
    exchanges: [
      {
        seq: 1,
        at: 12,
        request: {
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V1 },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}',
          rpc: { method: 'tools/call', id: 1, params: { name: 'echo' }, isNotification: false, isResponse: false },
          scriptStep: 0,
        },
        response: {
          status: overrides.status ?? 200,
          headers: overrides.headers ?? { 'content-type': events ? 'text/event-stream' : 'application/json' },
          body: events ? events.map((e) => e.text).join('') : body,
          ...(events ? { events } : {}),
          ending: 'complete',
          endedAt: 19,
        },
      },
    ],
  };
}

/** A judged check; passed unless told otherwise. */
export function makeCheck(overrides: Partial<Check> = {}): Check {
  return {
    id: 'outcome',
    level: 'MUST',
    passed: true,
    expected: { outcome: 'TOOL_SUCCESS' },
    actual: { outcome: 'TOOL_SUCCESS', layer: 'application' },
    message: 'reported TOOL_SUCCESS as expected',
    exchange: 0,
    ...overrides,
  };
}

const FAILING_CHECK = makeCheck({
  passed: false,
  expected: { outcome: 'INVALID_TOOL_RESULT' },
  actual: { outcome: 'TOOL_SUCCESS', layer: 'application' },
  message: 'expected INVALID_TOOL_RESULT, target reported TOOL_SUCCESS',
  consequence: 'false-success',
});

/** One cell with realistic checks for its status. */
export function makeCell(overrides: Partial<Cell> = {}): Cell {
  const status = overrides.status ?? 'pass';
  const checks: Check[] =
    status === 'fail' || status === 'xfail'
      ? [FAILING_CHECK, makeCheck({ id: 'wire.tool-call-posts', message: '1 tools/call POST (1..1)', expected: { min: 1, max: 1 }, actual: 1 })]
      : status === 'non_strict'
        ? [makeCheck(), makeCheck({ id: 'wire.retry-after', level: 'SHOULD', passed: false, message: 'retried before Retry-After elapsed', expected: '>= 2000 ms', actual: '350 ms' })]
        : status === 'skip' || status === 'error'
          ? []
          : [makeCheck()];
  const caseId = overrides.case ?? 'baseline';
  const target = overrides.target ?? 'reference';
  const version = overrides.protocolVersion ?? V1;
  return {
    case: caseId,
    target,
    protocolVersion: version,
    status,
    ...(status === 'skip' ? { reason: `target does not speak ${version}` } : {}),
    ...(status === 'error' ? { reason: 'target exited with code 1 before making a request' } : {}),
    ...(status === 'xfail' || status === 'xpass' ? { reason: `baseline: ${caseId} (known naive-client gap)` } : {}),
    checks,
    expected: [{ outcome: 'TOOL_SUCCESS' }],
    actual: status === 'skip' || status === 'error' ? [null] : [{ outcome: 'TOOL_SUCCESS', layer: 'application' }],
    schema: [
      { version: V1, definition: 'CallToolResult', valid: true, errors: [], sender: 'server', exchange: 0 },
      { version: V2, definition: 'CallToolResult', valid: true, errors: [], sender: 'server', exchange: 0 },
    ],
    ...(status === 'skip' ? {} : { recording: makeRecording() }),
    targetRun: { exitCode: status === 'error' ? 1 : 0, signal: null, timedOut: false, stdout: '', stderr: status === 'error' ? 'Error: connect ECONNREFUSED\n' : '', durationMs: 41 },
    durationMs: 57,
    repro: `npx mcp-error-matrix run --case ${caseId} --target ${target} --protocol-version ${version}`,
    ...overrides,
  };
}

/** A case summary with the optional detail fields the reports read. */
export function makeCase(overrides: Partial<CaseDetails> = {}): CaseDetails {
  const id = overrides.id ?? 'baseline';
  return {
    id,
    title: 'Successful tool call (baseline)',
    layer: 'application',
    origin: 'article',
    file: `cases/application/${id}.json`,
    sha256: 'a'.repeat(64),
    versions: [V1, V2],
    description: 'HTTP 200 with a complete, valid CallToolResult whose isError is false.',
    expectation: 'The call succeeded: a final result exists.',
    spec: [{ ref: 'TL25 § Calling Tools', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools' }],
    ...overrides,
  };
}

/** Counts per status, as the runner computes them. */
export function summarize(cells: readonly Cell[]): RunSummary {
  const summary = Object.fromEntries(CELL_STATUSES.map((s) => [s, 0])) as RunSummary;
  for (const cell of cells) summary[cell.status] += 1;
  summary.total = cells.length;
  return summary;
}

const DEFAULT_CASES: CaseDetails[] = [
  makeCase(),
  makeCase({ id: 'content-not-array', title: 'Result whose content is not an array', sha256: 'b'.repeat(64), spec: [{ ref: 'ST25 CallToolResult' }] }),
  makeCase({ id: 'http-503-then-200', title: 'HTTP 503 then 200', layer: 'transport', sha256: 'c'.repeat(64), versions: [V1] }),
];

const DEFAULT_TARGETS: TargetInfo[] = [
  { name: 'reference', kind: 'builtin', version: '0.1.0', source: 'runner/targets/reference.ts' },
  { name: 'naive', kind: 'builtin', version: '0.1.0', source: 'runner/targets/naive.ts' },
];

// Every status appears at least once across the default matrix.
const DEFAULT_STATUSES: Record<string, CellStatus> = {
  'baseline|reference|2025-11-25': 'pass',
  'baseline|reference|2026-07-28': 'pass',
  'content-not-array|reference|2025-11-25': 'pass',
  'content-not-array|reference|2026-07-28': 'xpass',
  'http-503-then-200|reference|2025-11-25': 'non_strict',
  'baseline|naive|2025-11-25': 'pass',
  'baseline|naive|2026-07-28': 'skip',
  'content-not-array|naive|2025-11-25': 'fail',
  'content-not-array|naive|2026-07-28': 'xfail',
  'http-503-then-200|naive|2025-11-25': 'error',
};

/** A complete RunResult; `cells` defaults to a 3-case × 2-target matrix covering every status. */
export function makeRunResult(overrides: Partial<RunResult> = {}): RunResult {
  const cases = overrides.cases ?? DEFAULT_CASES;
  const targets = overrides.targets ?? DEFAULT_TARGETS;
  const cells =
    overrides.cells ??
    Object.entries(DEFAULT_STATUSES).map(([key, status]) => {
      const [caseId, target, version] = key.split('|') as [string, string, ProtocolVersion];
      return makeCell({ case: caseId, target, protocolVersion: version, status });
    });
  return {
    format: 'mcp-error-matrix/results@1',
    tool: { name: 'mcp-error-matrix', version: '0.1.0' },
    startedAt: '2026-01-15T10:00:00.000Z',
    finishedAt: '2026-01-15T10:00:03.250Z',
    complete: true,
    mode: 'http',
    node: 'v20.19.0',
    platform: 'linux-x64',
    schemas: PROTOCOL_VERSIONS.map((version) => ({ version, source: `schemas/mcp/${version}.json`, sha256: 'd'.repeat(64), matchesPin: true })),
    summary: summarize(cells),
    ...overrides,
    cases,
    targets,
    cells,
  };
}

/** A large synthetic matrix for size and speed tests; statuses cycle deterministically. */
export function makeSyntheticRunResult(size: { cases: number; targets: number; versions?: readonly ProtocolVersion[] }): RunResult {
  const versions = size.versions ?? PROTOCOL_VERSIONS;
  const layers = ['transport', 'protocol', 'application', 'stream', 'interaction', 'session'];
  const cases = Array.from({ length: size.cases }, (_, i) =>
    makeCase({ id: `synthetic.case-${i}`, title: `Synthetic case ${i}`, layer: layers[i % layers.length]!, sha256: i.toString(16).padStart(64, '0'), versions: [...versions] }),
  );
  const targets = Array.from({ length: size.targets }, (_, t) => ({ name: `target-${t}`, kind: 'command', version: `1.${t}.0` }));
  const cells: Cell[] = [];
  let n = 0;
  for (const c of cases)
    for (const t of targets)
      for (const v of versions) {
        const status = CELL_STATUSES[(n++ * 7 + t.name.length) % 11 < 6 ? 0 : n % CELL_STATUSES.length]!;
        cells.push(makeCell({ case: c.id, target: t.name, protocolVersion: v, status }));
      }
  return makeRunResult({ cases, targets, cells });
}

/** Markup, CDATA terminators, ANSI and control characters, as planted by hostile tests. */
export const HOSTILE = '<script>alert(1)</script> ]]> \u001b[31mred\u001b[0m \u001b]0;title\u0007 bell\u0007 nul\u0000 esc\u001b vt\u000b | `tick` [link](http://evil.example) **bold**\nsecond line';

/** Secrets planted by redaction tests; none may appear in any output. */
export const SECRETS = {
  bearer: 'sk-live-4f9aQz7Yb2Xc8Wd1Ve6Uf3Tg0',
  cookie: 'sessCOOKIEzz81qv',
  stderrToken: 'tokSTDERRk2j3h4g5',
  hex: '0123456789abcdef0123456789abcdef01234567',
} as const;

/** A run whose wire content, headers, target output and check messages carry HOSTILE and SECRETS. */
export function makeHostileRunResult(): RunResult {
  const recording = makeRecording({
    body: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":${JSON.stringify(HOSTILE)}}]}}`,
    headers: { 'content-type': 'application/json', 'set-cookie': `sid=${SECRETS.cookie}; HttpOnly`, 'x-evil': HOSTILE },
  });
  const exchange = recording.exchanges[0]!;
  exchange.request.headers = { ...exchange.request.headers, authorization: `Bearer ${SECRETS.bearer}`, cookie: `session=${SECRETS.cookie}`, 'x-trace': SECRETS.hex };
  exchange.request.body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(HOSTILE)}}}}`;
  const sseRecording = makeRecording({ sse: [`event: message\ndata: ${HOSTILE.replace(/\n/g, ' ')}\n\n`, 'data: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n'] });
  const stderr = `${HOSTILE}\nAuthorization: Bearer ${SECRETS.bearer}\nfetch failed: https://api.example/?token=${SECRETS.stderrToken}\nCookie: session=${SECRETS.cookie}\n`;
  const hostileCheck = makeCheck({ passed: false, message: HOSTILE, expected: HOSTILE, actual: { outcome: 'TOOL_SUCCESS', detail: HOSTILE } });
  const cells: Cell[] = [
    makeCell({ case: 'baseline', target: 'evil', status: 'fail', checks: [hostileCheck], recording, targetRun: { exitCode: 0, timedOut: false, stderr, stdout: HOSTILE, durationMs: 10 } }),
    makeCell({ case: 'baseline', target: 'evil', protocolVersion: V2, status: 'error', reason: HOSTILE, recording: sseRecording, targetRun: { exitCode: 1, timedOut: false, stderr, durationMs: 10 } }),
    makeCell({ case: 'http-503-then-200', target: 'evil', status: 'non_strict', protocolVersion: V2, checks: [{ ...hostileCheck, level: 'SHOULD' }] }),
    makeCell({ case: 'content-not-array', target: 'evil', status: 'xfail', reason: HOSTILE, checks: [hostileCheck] }),
    makeCell({ case: 'content-not-array', target: 'evil', protocolVersion: V2, status: 'skip', reason: HOSTILE }),
    makeCell({ case: 'http-503-then-200', target: 'evil', status: 'xpass', reason: HOSTILE, repro: `npx mcp-error-matrix run --case x ${HOSTILE}` }),
  ];
  return makeRunResult({
    cases: [makeCase({ title: `Baseline ${HOSTILE}`, description: HOSTILE }), makeCase({ id: 'content-not-array', sha256: 'b'.repeat(64) }), makeCase({ id: 'http-503-then-200', layer: 'transport', sha256: 'c'.repeat(64) })],
    targets: [{ name: 'evil', kind: 'command', version: HOSTILE }],
    cells,
  });
}
