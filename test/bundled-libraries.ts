// The bundled client libraries' own modules, imported as the workers import them, so mapping tests
// build errors with the libraries' real classes (names, fields, brands).
import { pathToFileURL } from 'node:url';
import { packagePath } from '../runner/util/package-paths.js';

async function load(...path: string[]): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(packagePath('node_modules', ...path)).href)) as Record<string, unknown>;
}

/** @modelcontextprotocol/sdk 1.32.2: types.js (McpError) and client/streamableHttp.js (StreamableHTTPError). */
export const v1Types = await load('mcp-sdk-1.32.2', 'dist', 'esm', 'types.js');
export const v1Http = await load('mcp-sdk-1.32.2', 'dist', 'esm', 'client', 'streamableHttp.js');
/** @modelcontextprotocol/client 2.4.0 (ProtocolError, SdkError, SdkHttpError, InsufficientScopeError, …). */
export const v2Client = await load('mcp-client-2.4.0', 'dist', 'index.mjs');
/** @ai-sdk/mcp 2.0.99 (MCPClientError). */
export const aiSdk = await load('ai-sdk-mcp-2.0.99', 'dist', 'index.js');
/** @langchain/mcp-adapters 1.1.4's tools.js (ToolException: not exported by the package root). */
export const langchainTools = await load('langchain-mcp-adapters-1.1.4', 'dist', 'tools.js');
