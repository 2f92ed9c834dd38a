// The correct MCP server around the script: built-in replies per protocol version.
import type { Case, ResponseSpec } from '../cases/case-types.js';
import { DEFAULT_TOOL } from '../cases/case-types.js';
import { deepFreeze } from '../util/deep-freeze.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { getAdvertisedOutputSchema, hasInitializeSession } from '../vocabulary/version-features.js';

export const SERVER_INFO = deepFreeze({ name: 'mcp-error-matrix-mock', version: '0.1.0' });

/** A JSON-RPC result reply (status 200, application/json, id echoed). */
export function createResultReply(result: Record<string, unknown>, headers?: Record<string, string>): ResponseSpec {
  return { body: { json: { jsonrpc: '2.0', result } }, ...(headers ? { headers } : {}) };
}

/** A JSON-RPC error reply with the given HTTP status; `withId: false` sends it without id. */
export function createErrorReply(status: number, code: number, message: string, withId = true): ResponseSpec {
  return { status, body: { json: { jsonrpc: '2.0', error: { code, message } } }, ...(withId ? {} : { id: 'omit' }) };
}

/** An empty response with the given status (202 for notifications, 405 for GET). */
export function createEmptyReply(status: number, headers?: Record<string, string>): ResponseSpec {
  return { status, ...(headers ? { headers } : {}) };
}

/** The InitializeResult of every version before 2026-07-28 (L0326/L0618/L25 § Initialization). */
export function createInitializeResult(testCase: Case, version: ProtocolVersion): Record<string, unknown> {
  return {
    protocolVersion: testCase.server?.initializeVersion ?? version,
    capabilities: { tools: {} },
    serverInfo: SERVER_INFO,
  };
}

/** The tools/list result advertising the case's tool; 2026 adds the cache fields (WIRE-FACTS S9). */
export function createToolsListResult(testCase: Case, version: ProtocolVersion): Record<string, unknown> {
  const tool = testCase.tool ?? DEFAULT_TOOL;
  const advertised: Record<string, unknown> = { name: tool.name };
  if ('description' in tool && tool.description !== undefined) advertised.description = tool.description;
  advertised.inputSchema = tool.inputSchema ?? DEFAULT_TOOL.inputSchema;
  // 2025-03-26 has no outputSchema (LEGACY 3.11): a server of that version does not advertise one.
  const outputSchema = getAdvertisedOutputSchema(testCase.tool, version);
  if (outputSchema !== undefined) advertised.outputSchema = outputSchema;
  if ('annotations' in tool && tool.annotations !== undefined) advertised.annotations = tool.annotations;
  if (hasInitializeSession(version)) return { tools: [advertised] };
  return { tools: [advertised], ...createCacheFields() };
}

/** The DiscoverResult of 2026-07-28 (DS26 § Response). */
export function createDiscoverResult(): Record<string, unknown> {
  return {
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {} },
    ...createCacheFields(),
    _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
  };
}

/** The correct success result used once the script is exhausted (`afterScript: baseline`). */
export function createBaselineReply(): ResponseSpec {
  return createResultReply({ resultType: 'complete', content: [{ type: 'text', text: 'ok' }], isError: false });
}

function createCacheFields(): Record<string, unknown> {
  return { resultType: 'complete', ttlMs: 0, cacheScope: 'public' };
}
