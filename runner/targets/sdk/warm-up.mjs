// The SDK worker's warm-up and version probe (worker.mjs): one call per protocol version against a
// tiny in-process server before the worker greets the runner. Plain ESM, shipped as-is.
import { createServer } from 'node:http';

// One call per protocol version against a tiny in-process server before the greeting, so the SDK's
// lazy start-up (schema compilation, fetch) is paid once here and not by the first real cell.
export async function warmUp(sdk, runCell, describe) {
  // One session-era call (initialize) and one 2026-07-28 call, for the eras the SDK speaks.
  const sessionEra = sdk.versions.find((v) => v !== '2026-07-28');
  for (const protocolVersion of [sessionEra, '2026-07-28'].filter((v) => v !== undefined && sdk.versions.includes(v))) {
    await callWarmServer(runCell, describe, protocolVersion, undefined);
  }
}

// A library that declares no version list is asked: one call against a server that speaks only
// that version (the other era's entry point refused as the mock server refuses it). The versions
// whose call came back as a tool result are the ones it speaks; the others are reported, with
// what went wrong, in the greeting's `unspoken`. `only` (the versions a run selected) limits the
// probe to those; the greeting's `probed` lists what was asked.
export async function probeVersions(sdk, runCell, describe, only) {
  const versions = [];
  sdk.unspoken = {};
  sdk.probed = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'].filter((version) => only === undefined || only.includes(version));
  for (const protocolVersion of sdk.probed) {
    const answer = await callWarmServer(runCell, describe, protocolVersion, protocolVersion);
    const first = answer?.results?.[0];
    if (first?.verdict?.outcome === 'TOOL_SUCCESS') versions.push(protocolVersion);
    else sdk.unspoken[protocolVersion] = (answer?.error ?? first?.verdict?.detail ?? first?.gap ?? first?.none ?? 'no answer').slice(0, 300);
  }
  return versions;
}

/** One warm-up cell against a tiny in-process server; `only` restricts it to one era. */
async function callWarmServer(runCell, describe, protocolVersion, only) {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const message = request.method === 'POST' ? safeParse(body) : undefined;
      if (!message || message.id === undefined) return response.writeHead(request.method === 'POST' ? 202 : 405).end();
      const modern = message.method === 'server/discover' || message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === '2026-07-28';
      if (only !== undefined && only !== '2026-07-28' && message.method === 'server/discover') return respond(response, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      if (only === '2026-07-28' && message.method === 'initialize') return respond(response, 400, { jsonrpc: '2.0', id: message.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } });
      const complete = modern ? { resultType: 'complete' } : {};
      const results = {
        // Echo the client's offer: whatever session version the SDK speaks, the warm-up negotiates it.
        // A probe answers with the version it probes, whatever the client offers (as the mock server does).
        initialize: { protocolVersion: only !== undefined && only !== '2026-07-28' ? only : (message.params?.protocolVersion ?? '2025-11-25'), capabilities: { tools: {} }, serverInfo: { name: 'warm-up', version: '0' } },
        'server/discover': { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'warm-up', version: '0' } } },
        'tools/list': { tools: [{ name: 'warm', inputSchema: { type: 'object' } }], ...(modern ? { ttlMs: 0, cacheScope: 'public' } : {}) },
        'tools/call': { content: [{ type: 'text', text: 'ok' }] },
      };
      const result = results[message.method];
      const reply = result ? { jsonrpc: '2.0', id: message.id, result: { ...result, ...complete } } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  try {
    return await runCell({ id: 0, url, protocolVersion, tool: 'warm', arguments: {}, calls: 1, timeoutMs: 10_000 }).catch((error) => ({ error: describe(error) }));
  } finally {
    server.closeAllConnections?.();
    server.close();
  }
}

function respond(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
