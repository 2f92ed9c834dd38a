// @ts-check
// A synthetic RunResult of any size for the report figures: every cell carries the realistic
// payload of a real run (checks, schema results, a one-exchange wire recording, target output).
import { summariseCells } from '../../dist/runner/run/run-matrix.js';
import { CELL_STATUSES, PROTOCOL_VERSIONS } from '../../dist/runner/vocabulary/types.js';

const REQUEST_BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}';
const RESPONSE_BODY = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}';
const LAYERS = ['transport', 'protocol', 'application', 'stream', 'interaction', 'session'];

function makeCheck(passed) {
  return {
    id: 'outcome',
    level: 'MUST',
    passed,
    expected: { outcome: passed ? 'TOOL_SUCCESS' : 'INVALID_TOOL_RESULT' },
    actual: { outcome: 'TOOL_SUCCESS', layer: 'application' },
    message: passed ? 'reported TOOL_SUCCESS as expected' : 'expected INVALID_TOOL_RESULT, target reported TOOL_SUCCESS',
    exchange: 0,
  };
}

function makeRecording() {
  return {
    url: 'http://127.0.0.1:40123/mcp',
    exchanges: [
      {
        seq: 0,
        at: 12,
        request: {
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body: REQUEST_BODY,
          rpc: { method: 'tools/call', id: 1, params: { name: 'echo' }, isNotification: false, isResponse: false },
          scriptStep: 0,
        },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: RESPONSE_BODY, ending: 'complete', endedAt: 19 },
      },
    ],
  };
}

function makeCell(caseId, target, protocolVersion, status) {
  const judged = status !== 'skip' && status !== 'error';
  return {
    case: caseId,
    target,
    protocolVersion,
    status,
    ...(judged ? {} : { reason: status === 'skip' ? `target does not speak ${protocolVersion}` : 'target exited with code 1 before making a request' }),
    checks: judged ? [makeCheck(status !== 'fail' && status !== 'xfail')] : [],
    expected: [{ outcome: 'TOOL_SUCCESS' }],
    actual: judged ? [{ outcome: 'TOOL_SUCCESS', layer: 'application' }] : [null],
    schema: PROTOCOL_VERSIONS.map((version) => ({ version, definition: 'CallToolResult', valid: true, errors: [], sender: 'server', exchange: 0 })),
    ...(status === 'skip' ? {} : { recording: makeRecording() }),
    targetRun: { exitCode: status === 'error' ? 1 : 0, signal: null, timedOut: false, stdout: '', stderr: status === 'error' ? 'Error: connect ECONNREFUSED\n' : '', durationMs: 41 },
    durationMs: 57,
    repro: `npx mcp-error-matrix run --case ${caseId} --target ${target} --version ${protocolVersion}`,
  };
}

const statusOf = (n) => (n % 10 < 7 ? 'pass' : CELL_STATUSES[n % CELL_STATUSES.length]);

/**
 * cases × targets × both versions cells, as a report source whose cells are made on demand and
 * never held: a run of a million cells is written with the memory of a batch. Statuses cycle
 * deterministically (mostly pass).
 */
export function makeSyntheticReportSource({ cases: caseCount, targets: targetCount }) {
  const versions = [...PROTOCOL_VERSIONS];
  const cases = Array.from({ length: caseCount }, (_, i) => ({
    id: `synthetic.case-${i}`,
    title: `Synthetic case ${i}`,
    layer: LAYERS[i % LAYERS.length],
    origin: 'extra',
    description: 'HTTP 200 with a complete, valid CallToolResult whose isError is false.',
    expectation: 'The call succeeded: a final result exists.',
    spec: [{ ref: 'TL25 § Calling Tools', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools' }],
    file: `cases/synthetic/case-${i}.json`,
    sha256: i.toString(16).padStart(64, '0'),
    versions,
  }));
  const targets = Array.from({ length: targetCount }, (_, t) => ({ name: `target-${t}`, kind: 'command', version: `1.${t}.0` }));
  const perCase = targetCount * versions.length;
  const cellCount = caseCount * perCase;
  const cellAt = (n) => {
    const rest = n % perCase;
    return makeCell(cases[Math.floor(n / perCase)].id, targets[Math.floor(rest / versions.length)].name, versions[rest % versions.length], statusOf(n));
  };
  function* cells() {
    for (let n = 0; n < cellCount; n++) yield cellAt(n);
  }
  return {
    head: {
      format: 'mcp-error-matrix/results@1',
      tool: { name: 'mcp-error-matrix', version: '0.1.0' },
      startedAt: '2026-01-15T10:00:00.000Z',
      finishedAt: '2026-01-15T10:05:00.000Z',
      complete: true,
      mode: 'http',
      node: process.version,
      platform: 'linux x64',
      schemas: null,
      cases,
      targets,
      summary: summariseBatches(cellCount, perCase),
    },
    cellCount,
    cells,
    cellAt,
  };
}

// The run's summary, counted a case's worth of statuses at a time (summariseCells reads only them).
function summariseBatches(cellCount, batch) {
  let summary;
  for (let start = 0; start < cellCount; start += batch) {
    const part = summariseCells(/** @type {any} */ (Array.from({ length: Math.min(batch, cellCount - start) }, (_, j) => ({ status: statusOf(start + j) }))));
    summary = summary ? Object.fromEntries(Object.entries(summary).map(([key, count]) => [key, count + part[key]])) : part;
  }
  return summary ?? summariseCells([]);
}

/** The same run as one in-memory RunResult (what a normal run hands the writers). */
export function makeSyntheticRunResult(size) {
  const source = makeSyntheticReportSource(size);
  const { summary, ...beforeCells } = source.head;
  return { ...beforeCells, cells: [...source.cells()], summary };
}
