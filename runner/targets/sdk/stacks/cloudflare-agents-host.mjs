// The host application cloudflare-agents.mjs runs inside the Workers runtime (workerd): a Worker with
// one Agent class, bundled with the installed `agents` package. It is what the Agents documentation's
// basic pattern does, one fresh Agent (a Durable Object) per cell: `await this.addMcpServer(name, url)`,
// then the tool from `this.mcp.getAITools()`, called as the AI SDK calls a tool,
// `execute(args, { toolCallId, messages, abortSignal })`. Each call is observed before any mapping
// (../observe-call.mjs) and mapped by the contract (../map-observation.mjs), as in every worker.
//
//   POST /  {id, url, caseId, protocolVersion, tool, arguments, calls, timeoutMs, callDeadlineMs, callBudgetMs}
//        →  {id, results, observed, notes, durationMs} | {id, error, notes, durationMs}
//
// Deadlines: getAITools' execute passes no options to the client (it ignores the AI SDK's
// abortSignal), and the manager's client takes no default timeout: each request has the v2
// client's 60 s. The host passes its call deadline as the AI SDK does, and its last resort stops
// waiting: a call still pending then is `hung` (it concluded nothing).
import * as mcpClient from '@modelcontextprotocol/client';
import { Agent, getAgentByName } from 'agents';
import { createCellLog, flushPendingSends, recordFetch, watchTransport } from '../cell-log.mjs';
import { collectErrorClasses } from '../observe-call.mjs';
import { answerCell, closeWithin, observeCalls, withCallDeadline } from './cell-calls.mjs';

const classes = collectErrorClasses(mcpClient);

// Every request the library makes goes through the global fetch: a cell's are recorded into its log,
// found by the cell's URL (each cell has a mock server of its own).
const baseFetch = globalThis.fetch;
const cellLogsByUrl = new Map();
globalThis.fetch = (input, init) => {
  const log = cellLogsByUrl.get(String(input instanceof Request ? input.url : input));
  return log ? recordFetch(log, input, init, baseFetch) : baseFetch(input, init);
};

export class MatrixAgent extends Agent {
  async onRequest(request) {
    const cell = await request.json();
    try {
      return Response.json(await runCell(this, cell));
    } catch (error) {
      return Response.json({ id: cell.id, error: `the host failed: ${describe(error)}` });
    }
  }
}

export default {
  // One Agent per cell, named by the cell: a fresh MCP client manager and storage every time.
  async fetch(request, env) {
    const cell = await request.clone().json();
    const agent = await getAgentByName(env.MatrixAgent, `cell-${cell.id}-${crypto.randomUUID()}`);
    return agent.fetch(request);
  },
};

async function runCell(agent, cell) {
  const started = performance.now();
  const log = createCellLog();
  const elapsed = () => Math.round(performance.now() - started);
  cellLogsByUrl.set(new URL(cell.url).href, log);
  let serverId;
  try {
    let tool;
    try {
      ({ id: serverId } = await agent.addMcpServer('matrix', cell.url));
      // getAITools names each tool `tool_<server id without dashes>_<name>`.
      tool = agent.mcp.getAITools()[`tool_${serverId.replace(/-/g, '')}_${cell.tool}`];
      if (typeof tool?.execute !== 'function') throw new Error(`getAITools() has no tool named ${JSON.stringify(cell.tool)}`);
    } catch (error) {
      return { id: cell.id, error: `connect failed before any tools/call: ${describe(error)}`, notes: log.notes, durationMs: elapsed() };
    }
    // The transport the manager opened, to see which error codes came from the peer (private field; optional).
    const transport = agent.mcp.mcpConnections[serverId]?._transport;
    if (transport) watchTransport(transport, log, describe);
    else log.notes.push('the transport was not reachable: peer error codes are not tracked');
    const deadlineMs = cell.callDeadlineMs ?? cell.timeoutMs;
    const call = (index, hostSignal) => withCallDeadline(deadlineMs, hostSignal, (abortSignal) => tool.execute(cell.arguments, { toolCallId: `call-${index + 1}`, messages: [], abortSignal }));
    const observed = await observeCalls({ cell, kind: 'cloudflare-agents', log, classes, call });
    return await answerCell(cell, log, observed, elapsed);
  } finally {
    await flushPendingSends(log);
    if (serverId !== undefined) await closeWithin(() => agent.mcp.closeConnection(serverId));
    cellLogsByUrl.delete(new URL(cell.url).href);
  }
}

function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}
