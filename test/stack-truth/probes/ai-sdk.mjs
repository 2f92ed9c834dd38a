// Probe of `ai-sdk@<version>` (@ai-sdk/mcp, the Vercel AI SDK's own MCP client) used as an
// application does: createMCPClient over HTTP, client.tools(), the tool's execute. The library sets
// no deadline on a tool call; the host passes its abort signal (it fires only after the probe
// host's patience, far beyond any cell the corpus keeps). The host declines elicitation.
import { findInstalled } from './installed.mjs';

export async function load(alias) {
  const installed = findInstalled(alias);
  const library = await import(alias);
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    errorModules: [library],
    async open({ url, tool }) {
      const client = await library.createMCPClient({ transport: { type: 'http', url }, capabilities: { elicitation: {} } });
      try {
        client.onElicitationRequest(library.ElicitationRequestSchema, async () => ({ action: 'decline' }));
        const execute = (await client.tools())[tool]?.execute;
        if (typeof execute !== 'function') throw new Error(`client.tools() has no tool ${tool}`);
        return {
          call: (args, signal) => execute(args, { toolCallId: 'probe-call', messages: [], abortSignal: signal }),
          close: () => client.close(),
        };
      } catch (error) {
        await client.close().catch(() => {});
        throw error;
      }
    },
  };
}
