// Adapter for `openai-agents@<version>`: `@openai/agents` (OpenAI Agents SDK). What a host does:
// new MCPServerStreamableHttp({ url, timeout }), connect(), callTool(name, args). Loaded by ../worker.mjs.
//
// Deadlines: the server's `timeout` option is the Agents SDK's per-request deadline: it passes it to
// the v2 client as each request's `timeout` (callToolWithClient), so every input_required round and
// its reconnect-and-retry get their own. No abort signal wraps the whole call (one such signal cut
// the v2 client's MRTR loop short); the host's last-resort signal is callTool's `signal`.
import { collectErrorClasses } from '../observe-call.mjs';
import { answerCell, closeWithin, observeCalls } from './cell-calls.mjs';
import { findPackageDir, importPackage, readPackageVersion } from './find-package.mjs';

/** The versions are probed: the Agents SDK negotiates ("auto") over whatever its MCP client speaks. */
export async function load(dir, pkg, tools) {
  // @openai/agents re-exports MCPServerStreamableHttp from @openai/agents-core (the same class);
  // importing the core alone skips the OpenAI model client, seconds of start-up the MCP path never uses.
  const coreDir = findPackageDir(dir, '@openai/agents-core');
  const library = await importPackage(coreDir);
  if (typeof library.MCPServerStreamableHttp !== 'function') throw new Error(`@openai/agents ${pkg.version} (agents-core ${readPackageVersion(coreDir)}) exports no MCPServerStreamableHttp`);
  // The MCP client the Agents SDK itself imports, for its error classes (resolved as Node does, from agents-core).
  const clientDir = findPackageDir(coreDir, '@modelcontextprotocol/client');
  const client = await importPackage(clientDir);
  const classes = { ...collectErrorClasses(library), ...collectErrorClasses(client) };
  return { versions: 'probe', builtOn: `@modelcontextprotocol/client ${readPackageVersion(clientDir)}`, runCell: (cell) => runCell(library, classes, cell, tools) };
}

async function runCell(library, classes, cell, { createCellLog, createRecordingFetch, watchTransport, flushPendingSends, describe, elapsed }) {
  const started = performance.now();
  const log = createCellLog();
  const server = new library.MCPServerStreamableHttp({
    url: cell.url,
    name: 'mcp-error-matrix-openai-agents-adapter',
    fetch: createRecordingFetch(log),
    // Connecting is not under test: a generous session timeout; each call gets the cell's timeout.
    clientSessionTimeoutSeconds: Math.max(cell.timeoutMs, 5000) / 1000,
    timeout: cell.timeoutMs,
    logger: quietLogger(log),
  });
  try {
    try {
      await server.connect();
    } catch (error) {
      return { id: cell.id, error: `connect failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed(started) };
    }
    // The transport the Agents SDK opened, to see which error codes came from the peer (private field; optional).
    const transport = server.underlying?.transport;
    if (transport) watchTransport(transport, log);
    else log.notes.push('the transport was not reachable: peer error codes are not tracked');
    const call = (index, signal) => server.callTool(cell.tool, cell.arguments, null, { signal });
    const observed = await observeCalls({ cell, kind: 'openai-agents', log, classes, call });
    return await answerCell(cell, log, observed, () => elapsed(started));
  } finally {
    await flushPendingSends(log);
    await closeWithin(() => server.close());
  }
}

// The Agents SDK logs through its own logger; its messages go to the cell's notes, not stdout.
function quietLogger(log) {
  const note = (...args) => {
    if (log.notes.length < 20) log.notes.push(args.map(String).join(' ').slice(0, 300));
  };
  return { namespace: 'mcp-error-matrix', debug: () => {}, info: () => {}, warn: note, error: note, dontLogModelData: true, dontLogToolData: true };
}
