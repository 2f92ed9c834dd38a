// @ts-check
// The reference for real clients: one MCP TypeScript SDK doing one tools/call in a fresh node
// process, as a one-process-per-case runner pays for every cell.
//   node sdk-one-call.mjs <v1|v2> <package dir> <url> <tool> <protocol version>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [flavor, dir, url, tool, protocolVersion] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(join(dir, file)).href);
let Client;
let Transport;
if (flavor === 'v1') {
  [{ Client }, { StreamableHTTPClientTransport: Transport }] = await Promise.all([load('dist/esm/client/index.js'), load('dist/esm/client/streamableHttp.js')]);
} else {
  ({ Client, StreamableHTTPClientTransport: Transport } = await load('dist/index.mjs'));
}
const options = flavor === 'v2' && protocolVersion === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
const client = new Client({ name: 'mcp-error-matrix-bench', version: '0.1.0' }, options);
await client.connect(new Transport(new URL(url)));
const result = await client.callTool({ name: tool, arguments: {} });
process.stdout.write(JSON.stringify({ isError: result.isError === true }) + '\n');
await client.close();
