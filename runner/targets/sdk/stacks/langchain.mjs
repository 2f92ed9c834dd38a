// Adapter for `langchain@<version>`: `@langchain/mcp-adapters`. What a host does: a
// MultiServerMCPClient with one http server entry, getTools(), then the named tool's invoke(args)
// with the cell's timeout. Loaded by ../worker.mjs.
import { collectVerdicts, closeWithin } from './cell-calls.mjs';
import { findPackageDir, importPackage, readPackageVersion } from './find-package.mjs';
import { mapLangchainError, mapLangchainResult } from './map-langchain-outcome.mjs';

/** Versions are probed: the adapters speak whatever the v1 SDK they import negotiates. */
export async function load(dir, pkg, tools) {
  const library = await importPackage(dir);
  if (typeof library.MultiServerMCPClient !== 'function') throw new Error(`@langchain/mcp-adapters ${pkg.version} exports no MultiServerMCPClient`);
  const sdkDir = findPackageDir(dir, '@modelcontextprotocol/sdk');
  routeFetchByOrigin();
  return { versions: 'probe', builtOn: `@modelcontextprotocol/sdk ${readPackageVersion(sdkDir)}`, runCell: (cell) => runCell(library, cell, tools) };
}

// The adapters accept no fetch of their own; the SDK transport captures the global fetch when it
// is built. One router, installed before any transport exists, records each cell's tools/call
// statuses by the cell's server origin (every cell has its own mock server port).
const cellLogs = new Map();
function routeFetchByOrigin() {
  if (globalThis.fetch.__routed) return;
  const realFetch = globalThis.fetch;
  const routed = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url;
    const log = url ? cellLogs.get(new URL(url).origin) : undefined;
    const isToolCall = typeof init?.body === 'string' && init.body.includes('"tools/call"');
    try {
      const response = await realFetch(input, init);
      if (log && isToolCall) log.statuses.push(response.status);
      return response;
    } catch (error) {
      if (log && isToolCall) log.statuses.push(0);
      throw error;
    }
  };
  routed.__routed = true;
  globalThis.fetch = routed;
}

async function runCell(library, cell, { createCellLog, watchTransport, flushPendingSends, describe, elapsed }) {
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
    const verdicts = await collectVerdicts(cell, log, () => tool.invoke(cell.arguments, { timeout: cell.timeoutMs }), mapLangchainResult, (error) => mapLangchainError(error, log));
    return { id: cell.id, verdicts, notes: log.notes, durationMs: elapsed(started) };
  } finally {
    await flushPendingSends(log);
    await closeWithin(() => client.close());
    cellLogs.delete(origin);
  }
}
