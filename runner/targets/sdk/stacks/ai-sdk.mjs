// Adapter for `ai-sdk@<version>`: `@ai-sdk/mcp` (the Vercel AI SDK's MCP client, its own wire
// implementation). What a host does: createMCPClient({ transport: { type: 'http', url } }), then
// the named tool's `execute` from client.tools(), with an abort signal. Loaded by ../worker.mjs.
//
// Deadlines: a tool's `execute` takes no timeout; the library runs a call (its input_required
// rounds included, up to 10 with 250 ms pauses) under the one `abortSignal` the host passes, as an
// AI SDK host passes its own. That signal is the host's deadline for the whole call,
// `cell.callDeadlineMs` (long enough for the case's rounds), and "Request was aborted" is the
// library's conclusion under it; the host's last resort (`callBudgetMs`) comes later.
import { collectErrorClasses } from '../observe-call.mjs';
import { answerCell, closeWithin, observeCalls, withCallDeadline } from './cell-calls.mjs';

/** The package exports no list of protocol versions: the worker probes them (`versions: 'probe'`). */
export async function load(dir, pkg, tools) {
  const entry = typeof pkg.exports?.['.']?.import === 'string' ? pkg.exports['.'].import : 'dist/index.js';
  const library = await tools.load(entry);
  if (typeof library.createMCPClient !== 'function') throw new Error(`@ai-sdk/mcp ${pkg.version} exports no createMCPClient`);
  const classes = collectErrorClasses(library);
  return { versions: 'probe', runCell: (cell) => runCell(library, classes, cell, tools) };
}

async function runCell(library, classes, cell, { createCellLog, createRecordingFetch, describe, elapsed }) {
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
    const deadlineMs = cell.callDeadlineMs ?? cell.timeoutMs;
    const call = (index, hostSignal) => withCallDeadline(deadlineMs, hostSignal, (abortSignal) => tool.execute(cell.arguments, { toolCallId: `call-${index + 1}`, messages: [], abortSignal }));
    const observed = await observeCalls({ cell, kind: 'ai-sdk', log, classes, call });
    return await answerCell(cell, log, observed, () => elapsed(started));
  } finally {
    await closeQuietly(client);
  }
}

async function closeQuietly(client) {
  if (client) await closeWithin(() => client.close());
}
