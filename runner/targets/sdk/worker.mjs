// A persistent worker that drives one installed MCP client library against the mock server: the
// TypeScript SDK (v1 `@modelcontextprotocol/sdk` or v2 `@modelcontextprotocol/client`), or a
// client stack with an adapter in ./stacks/<flavor>.mjs (load(dir, pkg) → {versions, runCell}).
// Plain ESM JavaScript so it runs unchanged from the sources and from the published package.
//
//   node worker.mjs <v1|v2|stack> <package directory>
//
// stdin, one JSON object per line:  {id, url, caseId, protocolVersion, tool, arguments, calls, timeoutMs,
//                                     callDeadlineMs, callBudgetMs}
//                                    {id, ping: true}
// stdout, one JSON object per line: {hello: {versions, packageVersion}} once at start-up, then
//                                    {id, results, observed, notes, durationMs, starvation} or {id, error, starvation} or {id, pong: true}
// `observed` is what the library did with each call before any mapping (observe-call.mjs), and
// `results` what each maps to (map-observation.mjs): {verdict} | {gap} | {none}; `starvation` how
// starved this worker was over the cell (cell-starvation.mjs).
// Deadlines (docs/targets.md § Deadlines): `timeoutMs` per request through the library's own options;
// `callDeadlineMs` for a library whose only deadline covers the whole call (its MRTR rounds,
// retries and reconnects); `callBudgetMs` the host's last resort per call, the same for every stack.
// Cells run concurrently, each with a fresh Client and transport. Answers go out on fd 3, a pipe
// nothing but write() below uses: a library that writes to its process's stdout (console.log,
// process.stdout.write, or fd 1 itself) can neither break nor forge an answer; the runner keeps
// what it wrote there with the worker's stderr. Console output is sent to stderr.
import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { createCellLog, createRecordingFetch, flushPendingSends, recordFetch, watchTransport } from './cell-log.mjs';
import { blockLoopForTest, startCellMeter } from './cell-starvation.mjs';
import { collectErrorClasses } from './observe-call.mjs';
import { answerCell, closeWithin, observeCalls } from './stacks/cell-calls.mjs';
import { probeVersions, warmUp } from './warm-up.mjs';

// A third argument lists the protocol versions to probe a library that declares none for (default: all).
const [flavor, packageDir, probeList] = process.argv.slice(2);
for (const method of ['log', 'info', 'debug', 'warn']) console[method] = (...args) => console.error(...args);
process.on('unhandledRejection', (reason) => console.error('worker: unhandled rejection:', describe(reason)));
process.on('uncaughtException', (error) => console.error('worker: uncaught exception:', describe(error)));

// SDK 1.10–1.14 take no `fetch` option and call the global fetch: a cell's requests are recorded
// through it by the cell's URL (every SDK cell has a server of its own), so every version's HTTP
// statuses are seen alike and a change between versions is the library's, not the adapter's.
const baseFetch = globalThis.fetch;
const cellLogsByUrl = new Map();
globalThis.fetch = (input, init) => {
  const log = cellLogsByUrl.get(String(input instanceof Request ? input.url : input));
  return log ? recordFetch(log, input, init, baseFetch) : baseFetch(input, init);
};

// Its stdin is read only after the hello, so until then a parent that went away (a run stopped, a
// test that timed out) is seen by the parent changing: start-up can wait for ever on a server that
// went with it (an orphan was found running 24 min later). Unref'd: it never keeps the worker up.
// The runner names itself (sdk-worker.ts): the worker may start after its parent is already gone.
const parentAtStart = Number(process.env.MCP_ERROR_MATRIX_WORKER_PARENT) || process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) process.exit(0);
}, 1000).unref();

// Opened at the first answer (the hello), not at start: a worker started without that pipe (by hand,
// or by a test that only watches its start-up) still loads its library.
let answers;

const sdk = await loadSdk(flavor, packageDir);
// Probing is a warm-up too: one call per version, so the first real cell pays no lazy start-up.
if (sdk.versions === 'probe') sdk.versions = await probeVersions(sdk, runCell, describe, probeList?.split(','));
else await warmUp(sdk, runCell, describe);
write({ hello: { versions: sdk.versions, packageVersion: sdk.packageVersion, ...(sdk.unspoken ? { unspoken: sdk.unspoken } : {}), ...(sdk.probed ? { probed: sdk.probed } : {}), ...(sdk.startupMs ? { startupMs: sdk.startupMs } : {}) } });

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    console.error('worker: ignored a line that is not JSON');
    return;
  }
  if (message.ping) return write({ id: message.id, pong: true });
  if (message.crash) process.exit(70); // test hook: die as a crashing SDK would
  const meter = startCellMeter();
  // Test hook: an answer padded past the runner's cap (its answer channel end to end).
  const pad = message.padAnswerForTestBytes ? { padding: 'x'.repeat(message.padAnswerForTestBytes) } : {};
  runCell(message).then(
    (answer) => write({ ...answer, ...pad, starvation: meter.stop() }),
    (error) => write({ id: message.id, error: `worker: ${describe(error)}`, starvation: meter.stop() }),
  );
  if (message.blockForTestMs) blockLoopForTest(message.blockForTestMs); // test hook: a starved worker
});
lines.on('close', () => process.exit(0));

function write(answer) {
  if (!answers) {
    answers = new Socket({ fd: 3, readable: false, writable: true });
    answers.on('error', () => process.exit(0)); // the runner is gone
  }
  answers.write(JSON.stringify(answer) + '\n');
}

/** Imports the SDK's entry points from the package directory, per major version. */
async function loadSdk(kind, dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const load = (file) => import(pathToFileURL(join(dir, file)).href);
  if (kind !== 'v1' && kind !== 'v2') {
    if (!/^[a-z][a-z0-9-]*$/.test(kind)) throw new Error(`unknown client flavor ${JSON.stringify(kind)}`);
    const stack = await import(new URL(`./stacks/${kind}.mjs`, import.meta.url).href);
    const tools = { load, createCellLog, createRecordingFetch: (log) => createRecordingFetch(log, baseFetch), watchTransport: (transport, log) => watchTransport(transport, log, describe), flushPendingSends, describe, elapsed };
    return { flavor: kind, packageVersion: pkg.version, ...(await stack.load(dir, pkg, tools)) };
  }
  if (kind === 'v1') {
    const [client, http, types] = await Promise.all([load('dist/esm/client/index.js'), load('dist/esm/client/streamableHttp.js'), load('dist/esm/types.js')]);
    return {
      flavor: 'v1',
      packageVersion: pkg.version,
      Client: client.Client,
      Transport: http.StreamableHTTPClientTransport,
      types,
      classes: { ...collectErrorClasses(types), ...collectErrorClasses(http) },
      // v1 negotiates by `initialize` only: it offers LATEST_PROTOCOL_VERSION and accepts whatever
      // SUPPORTED_PROTOCOL_VERSIONS lists; the mock server answers with the cell's version.
      versions: [...types.SUPPORTED_PROTOCOL_VERSIONS],
    };
  }
  const client = await load('dist/index.mjs');
  // v2 speaks the 2026-07-28 era when it can negotiate it (versionNegotiation { pin }).
  const modern = typeof client.Client.prototype.setVersionNegotiation === 'function' ? ['2026-07-28'] : [];
  return {
    flavor: 'v2',
    packageVersion: pkg.version,
    Client: client.Client,
    Transport: client.StreamableHTTPClientTransport,
    types: client,
    classes: collectErrorClasses(client),
    versions: [...client.SUPPORTED_PROTOCOL_VERSIONS, ...modern],
  };
}

async function runCell(cell) {
  if (sdk.runCell) return sdk.runCell(cell);
  const started = performance.now();
  const log = createCellLog();
  const timeout = cell.timeoutMs;
  const url = new URL(cell.url);
  cellLogsByUrl.set(url.href, log);
  const transport = new sdk.Transport(url, { fetch: createRecordingFetch(log, baseFetch) });
  const client = createClient(cell.protocolVersion);
  try {
    try {
      // Connecting is not under test: a generous timeout, so a cold start is not read as a hang.
      await client.connect(transport, { timeout: Math.max(timeout, 5000) });
    } catch (error) {
      return { id: cell.id, error: `connect failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed(started) };
    }
    try {
      // A host lists the tools before it calls one (to show them to a model); the SDK keeps the
      // listed outputSchema and validates structuredContent against it. Not under test either.
      await client.listTools(undefined, { timeout: Math.max(timeout, 5000) });
    } catch (error) {
      return { id: cell.id, error: `tools/list failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed(started) };
    }
    watchTransport(transport, log, describe);
    const params = { name: cell.tool, arguments: cell.arguments };
    // The SDK's own per-request timeout (each MRTR round of v2 is a request of its own); the
    // host's last-resort signal beside it. v1: callTool(params, resultSchema?, options); v2: callTool(params, options).
    const call = (index, signal) => (sdk.flavor === 'v1' ? client.callTool(params, undefined, { timeout, signal }) : client.callTool(params, { timeout, signal }));
    const observed = await observeCalls({ cell, kind: sdk.flavor === 'v1' ? 'ts-sdk' : 'ts-client', log, classes: sdk.classes, call });
    return await answerCell(cell, log, observed, () => elapsed(started));
  } finally {
    await flushPendingSends(log);
    await closeWithin(() => client.close());
    cellLogsByUrl.delete(url.href);
  }
}

function createClient(protocolVersion) {
  const info = { name: 'mcp-error-matrix-sdk-adapter', version: '0.1.0' };
  const capabilities = { elicitation: {}, sampling: {}, roots: {} };
  if (sdk.flavor === 'v1') {
    const client = new sdk.Client(info, { capabilities });
    const t = sdk.types;
    // A host that declines every elicitation, answers sampling with fixed text and has no roots.
    if (t.ElicitRequestSchema) client.setRequestHandler(t.ElicitRequestSchema, async () => ({ action: 'decline' }));
    client.setRequestHandler(t.CreateMessageRequestSchema, async () => samplingAnswer());
    client.setRequestHandler(t.ListRootsRequestSchema, async () => ({ roots: [] }));
    return client;
  }
  const options = { capabilities };
  if (protocolVersion === '2026-07-28') options.versionNegotiation = { mode: { pin: '2026-07-28' } };
  const client = new sdk.Client(info, options);
  client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
  client.setRequestHandler('sampling/createMessage', async () => samplingAnswer());
  client.setRequestHandler('roots/list', async () => ({ roots: [] }));
  return client;
}

function samplingAnswer() {
  return { role: 'assistant', content: { type: 'text', text: 'synthetic' }, model: 'synthetic' };
}

function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}

function elapsed(started) {
  return Math.round(performance.now() - started);
}
