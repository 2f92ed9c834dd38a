// Probe of `mastra@<version>` (@mastra/mcp) used as an application does: new MCPClient({ servers:
// { matrix: { url } } }), listToolsetsWithErrors(), the tool's execute(args, { abortSignal }) — the
// library's defaults (60 s timeout, tool errors thrown, no input-request handler, one reconnect and
// re-send after a transport failure). instanceOf is checked against @mastra/mcp, the
// @modelcontextprotocol/client it imports itself, and @mastra/core/error (MastraError, which it throws
// for a tool error; @mastra/core is its peer).
import { findInstalled } from './installed.mjs';

let instances = 0;

export async function load(alias) {
  const installed = findInstalled(alias);
  const sdk = findInstalled('@modelcontextprotocol/client', installed.url);
  const [library, client, core] = await Promise.all([import(alias), import(sdk.url), import(import.meta.resolve('@mastra/core/error', installed.url))]);
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    builtOn: { name: sdk.name, version: sdk.version, dir: sdk.dir },
    errorModules: [library, client, core],
    async open({ url, tool }) {
      // MCPClient refuses a second instance with the same configuration unless each has its own id.
      const mcp = new library.MCPClient({ id: `stack-truth-probe-${++instances}`, servers: { matrix: { url: new URL(url) } } });
      try {
        const { toolsets, errors } = await mcp.listToolsetsWithErrors();
        if (errors?.matrix) throw new Error(String(errors.matrix));
        const found = toolsets.matrix?.[tool];
        if (typeof found?.execute !== 'function') throw new Error(`listToolsets() has no tool ${tool}`);
        return {
          call: (args, signal) => found.execute(args, { abortSignal: signal }),
          close: () => mcp.disconnect(),
        };
      } catch (error) {
        await mcp.disconnect().catch(() => {});
        throw error;
      }
    },
  };
}
