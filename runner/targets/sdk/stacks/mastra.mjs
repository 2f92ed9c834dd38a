// Adapter for `mastra@<version>`: `@mastra/mcp` (Mastra's MCP client, on the official v2 client).
// What a host does: new MCPClient({ servers: { matrix: { url } }, timeout }), listToolsets(), then
// the named tool's execute(args, { abortSignal }). The library's defaults stand: it probes the protocol version
// (server/discover, then initialize), throws tool errors (onToolError 'throw'), registers no
// input-request handler, and reconnects and retries a call once after a transport failure.
// Loaded by ../worker.mjs.
//
// Deadlines: the server's `timeout` option is Mastra's per-request deadline (its tools/list and each
// tools/call, its retry after a reconnect included, get `{ timeout }` from it); connecting has its
// own `connectTimeout`. No abort signal wraps the call: the host's last-resort signal is
// `execute`'s `abortSignal`.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { collectErrorClasses } from '../observe-call.mjs';
import { answerCell, closeWithin, observeCalls } from './cell-calls.mjs';
import { findPackageDir, importPackage, readPackageVersion } from './find-package.mjs';

/** The versions are probed: the library negotiates over whatever its v2 client speaks. */
export async function load(dir, pkg, tools) {
  const library = await importPackage(dir);
  if (typeof library.MCPClient !== 'function') throw new Error(`@mastra/mcp ${pkg.version} exports no MCPClient`);
  // The MCP client Mastra itself imports, for its error classes (resolved as Node does, from @mastra/mcp).
  const clientDir = findPackageDir(dir, '@modelcontextprotocol/client');
  const client = await importPackage(clientDir);
  const classes = { ...collectErrorClasses(library), ...collectErrorClasses(client), ...(await importMastraErrors(dir)) };
  return { versions: 'probe', builtOn: `@modelcontextprotocol/client ${readPackageVersion(clientDir)}`, runCell: (cell) => runCell(library, classes, cell, tools) };
}

// MastraError lives in @mastra/core (a peer): its class, when the installed core exposes it.
async function importMastraErrors(dir) {
  try {
    const coreDir = findPackageDir(dir, '@mastra/core');
    return collectErrorClasses(await import(pathToFileURL(join(coreDir, 'dist', 'error', 'index.js')).href));
  } catch {
    return {};
  }
}

let instances = 0;

async function runCell(library, classes, cell, { createCellLog, createRecordingFetch, watchTransport, flushPendingSends, describe, elapsed }) {
  const started = performance.now();
  const log = createCellLog();
  const mcp = new library.MCPClient({
    // MCPClient refuses a second instance with the same configuration unless each has its own id.
    id: `mcp-error-matrix-${process.pid}-${++instances}`,
    servers: {
      matrix: {
        url: new URL(cell.url),
        fetch: createRecordingFetch(log),
        // Connecting and listing are not under test: generous timeouts, so a cold start is not read
        // as a hang. Mastra's one `timeout` is per request (tools/list and each tools/call); after
        // listing, the calls get the cell's (setCallTimeout).
        connectTimeout: Math.max(cell.timeoutMs, 5000),
        timeout: Math.max(cell.timeoutMs, 5000),
      },
    },
  });
  quietLogger(mcp, log);
  try {
    let tool;
    try {
      const { toolsets, errors } = await mcp.listToolsetsWithErrors();
      if (errors?.matrix) throw new Error(errors.matrix);
      tool = toolsets.matrix?.[cell.tool];
      if (typeof tool?.execute !== 'function') throw new Error(`listToolsets() has no tool named ${JSON.stringify(cell.tool)} on server "matrix"`);
      watchEveryTransport(mcp, log, watchTransport);
      setCallTimeout(mcp, cell.timeoutMs, log);
    } catch (error) {
      return { id: cell.id, error: `connect failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed(started) };
    }
    const call = (index, abortSignal) => tool.execute(cell.arguments, { abortSignal });
    const observed = await observeCalls({ cell, kind: 'mastra', log, classes, call });
    return await answerCell(cell, log, observed, () => elapsed(started));
  } finally {
    await flushPendingSends(log);
    await closeWithin(() => mcp.disconnect());
  }
}

// The v2 client's transport, to see which error codes came from the peer (private fields; optional).
// Mastra reconnects on the same SDK client after a transport failure, so each new transport is watched too.
function watchEveryTransport(mcp, log, watchTransport) {
  const internal = mcp.mcpClientsById?.get('matrix');
  const sdkClient = internal?.client;
  if (!sdkClient?.transport || typeof sdkClient.connect !== 'function') {
    log.notes.push('the transport was not reachable: peer error codes are not tracked');
    return;
  }
  watchTransport(sdkClient.transport, log);
  const connect = sdkClient.connect.bind(sdkClient);
  sdkClient.connect = async (transport, options) => {
    const connected = await connect(transport, options);
    log.notes.push('mastra reconnected (a new transport) after a transport failure');
    watchTransport(transport, log);
    return connected;
  };
}

// The per-request timeout the server's client passes to every tools/call (`this.timeout`, from the
// server's `timeout` option): the cell's, once the tools are listed. The field is the client's own
// (not an option after construction); when it is not there the calls keep the listing's timeout, and the notes say so.
function setCallTimeout(mcp, timeoutMs, log) {
  const internal = mcp.mcpClientsById?.get('matrix');
  if (internal && typeof internal.timeout === 'number') internal.timeout = timeoutMs;
  else log.notes.push(`the per-request timeout could not be set to ${timeoutMs} ms: the calls keep the listing's`);
}

// Mastra logs through its own logger (to the console by default); its warnings and errors go to
// the cell's notes instead, so stdout carries answers only.
function quietLogger(mcp, log) {
  const note = (message) => {
    if (log.notes.length < 20) log.notes.push(`mastra: ${String(message).slice(0, 300)}`);
  };
  const logger = { debug: () => {}, info: () => {}, warn: note, error: note, trackException: () => {}, child: () => logger };
  mcp.__setLogger?.(logger);
}
