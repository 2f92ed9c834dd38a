// Adapter for `langchain@<version>`: `@langchain/mcp-adapters`. What a host does: a
// MultiServerMCPClient with one http server entry, getTools(), then the named tool's invoke(args)
// with the cell's timeout. Loaded by ../worker.mjs.
//
// Deadlines: `invoke(args, { timeout })` is langchain's own: @langchain/core turns it into an abort
// signal over the whole invoke and the adapters pass it on to the SDK as the request's `timeout`
// (tools.js `_callTool`, metadata.timeoutMs) beside that signal; the v1 SDK underneath makes one
// request per call (no retries, no input_required rounds), so the call is the request and
// `cell.timeoutMs` is both. The host's last-resort signal joins it as `invoke`'s `signal`.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { recordFetch } from '../cell-log.mjs';
import { collectErrorClasses } from '../observe-call.mjs';
import { answerCell, closeWithin, observeCalls } from './cell-calls.mjs';
import { findPackageDir, importPackage, readPackageVersion } from './find-package.mjs';

/** Versions are probed: the adapters speak whatever the v1 SDK they import negotiates. */
export async function load(dir, pkg, tools) {
  const library = await importPackage(dir);
  if (typeof library.MultiServerMCPClient !== 'function') throw new Error(`@langchain/mcp-adapters ${pkg.version} exports no MultiServerMCPClient`);
  const sdkDir = findPackageDir(dir, '@modelcontextprotocol/sdk');
  const load = (file) => import(pathToFileURL(join(sdkDir, file)).href);
  const [types, http] = await Promise.all([load('dist/esm/types.js'), load('dist/esm/client/streamableHttp.js')]);
  const classes = { ...collectErrorClasses(library), ...collectErrorClasses(types), ...collectErrorClasses(http) };
  routeFetchByOrigin();
  return { versions: 'probe', builtOn: `@modelcontextprotocol/sdk ${readPackageVersion(sdkDir)}`, runCell: (cell) => runCell(library, classes, cell, tools) };
}

// The adapters accept no fetch of their own; the SDK transport captures the global fetch when it
// is built. One router, installed before any transport exists, records each cell's tools/call
// statuses by the cell's server origin (every cell has its own mock server port).
const cellLogs = new Map();
function routeFetchByOrigin() {
  if (globalThis.fetch.__routed) return;
  const realFetch = globalThis.fetch;
  const routed = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url;
    const log = url ? cellLogs.get(new URL(url).origin) : undefined;
    return log ? recordFetch(log, input, init, realFetch) : realFetch(input, init);
  };
  routed.__routed = true;
  globalThis.fetch = routed;
}

async function runCell(library, classes, cell, { createCellLog, watchTransport, flushPendingSends, describe, elapsed }) {
  const started = performance.now();
  const log = createCellLog();
  const origin = new URL(cell.url).origin;
  cellLogs.set(origin, log);
  const client = new library.MultiServerMCPClient({
    mcpServers: { matrix: { transport: 'http', url: cell.url, automaticSSEFallback: false } },
    throwOnLoadError: true,
    onConnectionError: 'throw',
  });
  try {
    let tool;
    try {
      tool = (await client.getTools()).find((candidate) => candidate.name === cell.tool);
      if (!tool) throw new Error(`getTools() has no tool named ${JSON.stringify(cell.tool)}`);
      // The SDK client underneath, to see which error codes came from the peer.
      const sdkClient = await client.getClient('matrix');
      if (sdkClient?.transport) watchTransport(sdkClient.transport, log);
    } catch (error) {
      return { id: cell.id, error: `connect failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed(started) };
    }
    const call = (index, signal) => tool.invoke(cell.arguments, { timeout: cell.timeoutMs, signal });
    const observed = await observeCalls({ cell, kind: 'langchain', log, classes, call });
    return await answerCell(cell, log, observed, () => elapsed(started));
  } finally {
    await flushPendingSends(log);
    await closeWithin(() => client.close());
    cellLogs.delete(origin);
  }
}
