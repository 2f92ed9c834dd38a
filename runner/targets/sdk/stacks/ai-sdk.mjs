// Adapter for `ai-sdk@<version>`: `@ai-sdk/mcp` (the Vercel AI SDK's MCP client, its own wire
// implementation). What a host does: createMCPClient({ transport: { type: 'http', url } }), then
// the named tool's `execute` from client.tools(), under an abort signal carrying the cell's
// timeout (the library sets no timeout on tool calls by itself). Loaded by ../worker.mjs.
import { mapAiSdkError, mapAiSdkResult } from './map-ai-sdk-outcome.mjs';

/** The package exports no list of protocol versions: the worker probes them (`versions: 'probe'`). */
export async function load(dir, pkg, tools) {
  const entry = typeof pkg.exports?.['.']?.import === 'string' ? pkg.exports['.'].import : 'dist/index.js';
  const library = await tools.load(entry);
  if (typeof library.createMCPClient !== 'function') throw new Error(`@ai-sdk/mcp ${pkg.version} exports no createMCPClient`);
  return { versions: 'probe', runCell: (cell) => runCell(library, cell, tools) };
}

async function runCell(library, cell, { createCellLog, createRecordingFetch, describe, elapsed }) {
  const started = performance.now();
  const log = createCellLog();
  let client;
  let tool;
  try {
    client = await library.createMCPClient({
      transport: { type: 'http', url: cell.url, fetch: createRecordingFetch(log) },
      clientName: 'mcp-error-matrix-ai-sdk-adapter',
      capabilities: { elicitation: {} },
      // Connecting is not under test: a generous timeout, so a cold start is not read as a hang.
      initializationOptions: { timeout: Math.max(cell.timeoutMs, 5000) },
      onUncaughtError: (error) => {
        if (log.notes.length < 20) log.notes.push(`uncaught: ${describe(error)}`);
      },
    });
    // A host that declines every elicitation (as the SDK adapters do).
    if (library.ElicitationRequestSchema) client.onElicitationRequest(library.ElicitationRequestSchema, async () => ({ action: 'decline' }));
    const toolSet = await client.tools();
    tool = toolSet[cell.tool];
    if (typeof tool?.execute !== 'function') throw new Error(`client.tools() has no tool named ${JSON.stringify(cell.tool)}`);
  } catch (error) {
    await closeQuietly(client);
    return { id: cell.id, error: `connect failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed(started) };
  }
  try {
    const verdicts = [];
    for (let call = 0; call < cell.calls; call++) {
      log.statuses.length = 0;
      try {
        const options = { toolCallId: `call-${call + 1}`, messages: [], abortSignal: AbortSignal.timeout(cell.timeoutMs) };
        verdicts.push(mapAiSdkResult(await tool.execute(cell.arguments, options)));
      } catch (error) {
        verdicts.push(mapAiSdkError(error, log));
      }
    }
    return { id: cell.id, verdicts, notes: log.notes, durationMs: elapsed(started) };
  } finally {
    await closeQuietly(client);
  }
}

async function closeQuietly(client) {
  if (!client) return;
  await Promise.race([client.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 500).unref())]);
}
