// Probe of `ts-client@<version>` (@modelcontextprotocol/client 2.x) used as an application does: a
// Client with a Streamable HTTP transport (pinned to 2026-07-28 against a server of that era, the
// library's default negotiation otherwise), connect, listTools, callTool — the client's own request
// timeout (60 s) and nothing else. The host declines elicitation, answers sampling with fixed text
// and lists no roots (README § Real SDK clients).
import { findInstalled } from './installed.mjs';

export async function load(alias) {
  const installed = findInstalled(alias);
  const client = await import(alias);
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    // What an application imports to tell errors apart: the package root exports every error class.
    errorModules: [client],
    async open({ url, protocolVersion, tool }) {
      const options = { capabilities: { elicitation: {}, sampling: {}, roots: {} } };
      if (protocolVersion === '2026-07-28') options.versionNegotiation = { mode: { pin: '2026-07-28' } };
      const mcp = new client.Client({ name: 'stack-truth-probe', version: '0.0.0' }, options);
      mcp.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
      mcp.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'synthetic' }, model: 'synthetic' }));
      mcp.setRequestHandler('roots/list', async () => ({ roots: [] }));
      await mcp.connect(new client.StreamableHTTPClientTransport(new URL(url)));
      await mcp.listTools();
      return {
        call: (args, signal) => mcp.callTool({ name: tool, arguments: args }, { signal }),
        close: () => mcp.close(),
      };
    },
  };
}
