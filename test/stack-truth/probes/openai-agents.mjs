// Probe of `openai-agents@<version>` (@openai/agents) used as an application does:
// new MCPServerStreamableHttp({ url }), connect(), callTool(name, args) — its own default timeout
// (60 s) and nothing else. instanceOf is checked against @openai/agents and the
// @modelcontextprotocol/client the Agents SDK itself imports (resolved from @openai/agents-core).
import { findInstalled } from './installed.mjs';

export async function load(alias) {
  const installed = findInstalled(alias);
  const core = findInstalled('@openai/agents-core', installed.url);
  const sdk = findInstalled('@modelcontextprotocol/client', core.url);
  const [library, client] = await Promise.all([import(alias), import(sdk.url)]);
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    builtOn: { name: sdk.name, version: sdk.version, dir: sdk.dir },
    errorModules: [library, client],
    async open({ url, tool }) {
      const server = new library.MCPServerStreamableHttp({ url, name: 'stack-truth-probe' });
      await server.connect();
      return {
        call: (args, signal) => server.callTool(tool, args, null, { signal }),
        close: () => server.close(),
      };
    },
  };
}
