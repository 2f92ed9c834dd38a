// Adapter for `mastra@<version>`: `@mastra/mcp` (Mastra's MCP client, on the official v2 client).
// What a host does: new MCPClient({ servers: { matrix: { url } }, timeout }), listToolsets(), then
// the named tool's execute(args, { abortSignal }). The library's defaults stand: it probes the protocol version
// (server/discover, then initialize), throws tool errors (onToolError 'throw'), registers no
// input-request handler, and reconnects and retries a call once after a transport failure.
// Loaded by ../worker.mjs.
import { collectVerdicts, closeWithin } from './cell-calls.mjs';
import { findPackageDir, importPackage, readPackageVersion } from './find-package.mjs';
import { mapMastraError, mapMastraResult } from './map-mastra-outcome.mjs';

/** The versions are probed: the library negotiates over whatever its v2 client speaks. */
export async function load(dir, pkg, tools) {
  const library = await importPackage(dir);
  if (typeof library.MCPClient !== 'function') throw new Error(`@mastra/mcp ${pkg.version} exports no MCPClient`);
  // The MCP client Mastra itself imports, for its error classes (resolved as Node does, from @mastra/mcp).
  const clientDir = findPackageDir(dir, '@modelcontextprotocol/client');
  const client = await importPackage(clientDir);
  return { versions: 'probe', builtOn: `@modelcontextprotocol/client ${readPackageVersion(clientDir)}`, runCell: (cell) => runCell(library, client, cell, tools) };
}

let instances = 0;

async function runCell(library, client, cell, { createCellLog, createRecordingFetch, watchTransport, flushPendingSends, describe, elapsed }) {
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
        // as a hang (Mastra's one `timeout` covers tools/list and tools/call; each call is held to
        // the cell's timeout by the abort signal it gets).
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
    } catch (error) {
      return { id: cell.id, error: `connect failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed(started) };
    }
    const verdicts = await collectVerdicts(
      cell,
      log,
      () => tool.execute(cell.arguments, { abortSignal: AbortSignal.timeout(cell.timeoutMs) }),
      (value) => mapMastraResult(value, log),
      (error) => mapMastraError(error, { types: client, log }),
    );
    return { id: cell.id, verdicts, notes: log.notes, durationMs: elapsed(started) };
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

// Mastra logs through its own logger (to the console by default); its warnings and errors go to
// the cell's notes instead, so stdout carries answers only.
function quietLogger(mcp, log) {
  const note = (message) => {
    if (log.notes.length < 20) log.notes.push(`mastra: ${String(message).slice(0, 300)}`);
  };
  const logger = { debug: () => {}, info: () => {}, warn: note, error: note, trackException: () => {}, child: () => logger };
  mcp.__setLogger?.(logger);
}
