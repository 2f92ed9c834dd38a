// The environment a command client runs with: the runner's own plus the cell's variables.
import { DEFAULT_TOOL } from '../../cases/case-types.js';
import type { TargetContext } from '../../vocabulary/types.js';

/** The variables every command client gets (docs/targets.md § Your own client: command targets). */
export function buildClientEnv(context: TargetContext, verdictFile: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const item = context.case;
  const tool = item.tool ?? DEFAULT_TOOL;
  return {
    ...base,
    // The official conformance runner's variables, so its clients run unchanged.
    MCP_CONFORMANCE_SCENARIO: item.id,
    MCP_CONFORMANCE_PROTOCOL_VERSION: context.protocolVersion,
    MCP_MATRIX_CASE_ID: item.id,
    MCP_MATRIX_TOOL_NAME: tool.name,
    MCP_MATRIX_TOOL_ARGUMENTS: JSON.stringify(tool.arguments ?? {}),
    MCP_MATRIX_PROTOCOL_VERSION: context.protocolVersion,
    MCP_MATRIX_CALLS: String(item.client?.calls ?? 1),
    MCP_MATRIX_VERDICT_FILE: verdictFile,
    // A hint: a client that sets its request timeout to this turns a hang into a verdict in time.
    MCP_MATRIX_TIMEOUT_MS: String(context.timeoutMs),
    ...(context.serverUrl ? { MCP_MATRIX_SERVER_URL: context.serverUrl } : {}),
  };
}
