// The application the `cloudflare-agents` probe runs in the Workers runtime (workerd): a Worker with
// one Agent class, written as the Agents documentation writes one. An Agent adds the MCP server
// (`this.addMcpServer(name, url)`) and calls its tool through `this.mcp.getAITools()`, as the AI SDK
// calls a tool (`execute(args, { toolCallId, messages, abortSignal })`). What each call gave the
// Agent is recorded here, in the runtime, with the corpus's observe-call.mjs (the same witness the
// probe host uses), and sent back as JSON. No adapter code.
//
//   POST /open  {session, url, tool}   → {opened: true} | {openFailed: <thrown>}
//   POST /call  {session, arguments}   → {call: <CallObservation>}
//   POST /close {session}              → {closed: true}
import * as mcpClient from '@modelcontextprotocol/client';
import { Agent, getAgentByName } from 'agents';
import { collectErrorClasses, observeReturned, observeThrown } from '../../../runner/targets/sdk/observe-call.mjs';

const classes = collectErrorClasses(mcpClient);

export class ProbeAgent extends Agent {
  async onRequest(request) {
    const op = new URL(request.url).pathname.slice(1);
    const body = await request.json();
    if (op === 'open') {
      try {
        const { id } = await this.addMcpServer('probe', body.url);
        this.serverId = id;
        // getAITools names each tool `tool_<server id without dashes>_<name>`.
        this.execute = this.mcp.getAITools()[`tool_${id.replace(/-/g, '')}_${body.tool}`]?.execute;
        if (typeof this.execute !== 'function') throw new Error(`getAITools() has no tool ${body.tool}`);
        return Response.json({ opened: true });
      } catch (error) {
        return Response.json({ openFailed: observeThrown(error, classes) });
      }
    }
    if (op === 'call') {
      const abort = new AbortController();
      try {
        return Response.json({ call: observeReturned(await this.execute(body.arguments, { toolCallId: 'probe-call', messages: [], abortSignal: abort.signal })) });
      } catch (error) {
        return Response.json({ call: { threw: observeThrown(error, classes) } });
      }
    }
    if (op === 'close') {
      if (this.serverId !== undefined) await Promise.race([this.mcp.closeConnection(this.serverId).catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2000))]);
      this.serverId = undefined;
      return Response.json({ closed: true });
    }
    return Response.json({ failed: `unknown op ${op}` }, { status: 404 });
  }
}

export default {
  // One Agent (a Durable Object) per probe session, named by it.
  async fetch(request, env) {
    const { session } = await request.clone().json();
    return (await getAgentByName(env.ProbeAgent, String(session))).fetch(request);
  },
};
