// Probe of `langchain@<version>` (@langchain/mcp-adapters) used as an application does: a
// MultiServerMCPClient with one http server, getTools(), the tool's invoke(args) — the default
// timeout of the SDK underneath (60 s) and nothing else. instanceOf is checked against the adapters
// and the @modelcontextprotocol/sdk they import themselves.
import { findInstalled } from './installed.mjs';

export async function load(alias) {
  const installed = findInstalled(alias);
  const types = findInstalled('@modelcontextprotocol/sdk/types.js', installed.url);
  const [library, sdkTypes, sdkHttp] = await Promise.all([import(alias), import(types.url), import(import.meta.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js', installed.url))]);
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    builtOn: { name: types.name, version: types.version, dir: types.dir },
    errorModules: [library, sdkTypes, sdkHttp],
    async open({ url, tool }) {
      const client = new library.MultiServerMCPClient({ mcpServers: { matrix: { transport: 'http', url } } });
      try {
        const found = (await client.getTools()).find((candidate) => candidate.name === tool);
        if (!found) throw new Error(`getTools() has no tool ${tool}`);
        return {
          call: (args, signal) => found.invoke(args, { signal }),
          close: () => client.close(),
        };
      } catch (error) {
        await client.close().catch(() => {});
        throw error;
      }
    },
  };
}
