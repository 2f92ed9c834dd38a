// Probe of `ts-sdk@<version>` (@modelcontextprotocol/sdk 1.x) used as an application does: a
// Client with a Streamable HTTP transport, connect, listTools, callTool — the SDK's own request
// timeout (60 s) and nothing else. The host declines elicitation, answers sampling with fixed text
// and lists no roots (README § Real SDK clients).
import { findInstalled } from './installed.mjs';

export async function load(alias) {
  const installed = findInstalled(`${alias}/client/index.js`);
  const [{ Client }, http, types] = await Promise.all([import(`${alias}/client/index.js`), import(`${alias}/client/streamableHttp.js`), import(`${alias}/types.js`)]);
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    // What an application imports to tell errors apart: McpError (types.js), StreamableHTTPError.
    errorModules: [types, http],
    async open({ url, tool }) {
      const client = new Client({ name: 'stack-truth-probe', version: '0.0.0' }, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
      if (types.ElicitRequestSchema) client.setRequestHandler(types.ElicitRequestSchema, async () => ({ action: 'decline' }));
      client.setRequestHandler(types.CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'synthetic' }, model: 'synthetic' }));
      client.setRequestHandler(types.ListRootsRequestSchema, async () => ({ roots: [] }));
      await client.connect(new http.StreamableHTTPClientTransport(new URL(url)));
      await client.listTools();
      return {
        call: (args, signal) => client.callTool({ name: tool, arguments: args }, undefined, { signal }),
        close: () => client.close(),
      };
    },
  };
}
