// Builds the tools/call request the harness sends for one exchange of a case.
import { DEFAULT_TOOL, type Case, type ToolSpec } from '../cases/case-types.js';
import { deepFreeze } from '../util/deep-freeze.js';
import type { ProtocolVersion, ToolCallRequest } from '../vocabulary/types.js';
import { hasStructuredContent } from '../vocabulary/version-features.js';

/** The client capabilities the harness declares: it can answer every kind of input request. */
export const HARNESS_CLIENT_CAPABILITIES = deepFreeze({ elicitation: {}, roots: {}, sampling: {} });
const CAPABILITIES_2025_03_26 = deepFreeze({ roots: {}, sampling: {} });

/** The capabilities a correct client of `version` declares: elicitation exists from 2025-06-18 (LEGACY 5.1–5.2). */
export function getHarnessCapabilities(version: ProtocolVersion): Readonly<Record<string, unknown>> {
  return hasElicitation(version) ? HARNESS_CLIENT_CAPABILITIES : CAPABILITIES_2025_03_26;
}

// Elicitation arrived with structured content in 2025-06-18 (CL0618 § Major changes).
function hasElicitation(version: ProtocolVersion): boolean {
  return hasStructuredContent(version);
}
export const HARNESS_CLIENT_INFO = deepFreeze({ name: 'mcp-error-matrix-harness', version: '0.1.0' });

export interface BuildToolCallOptions {
  case: Case;
  protocolVersion: ProtocolVersion;
  exchangeIndex: number;
  /** The previous exchange's result (or whole response message), for an MRTR follow-up. */
  previousResult?: unknown;
}

/** Builds the request: id from the script or exchangeIndex+1; 2026 adds `_meta` and MRTR fields. */
export function buildToolCallRequest(options: BuildToolCallOptions): ToolCallRequest {
  const exchange = options.case.exchanges[options.exchangeIndex];
  const tool: ToolSpec = options.case.tool ?? DEFAULT_TOOL;
  const params: ToolCallRequest['params'] = { name: tool.name, arguments: tool.arguments ?? {} };
  if (options.protocolVersion === '2026-07-28') {
    // RequestMetaObject requires both keys (WIRE-FACTS S1); clientInfo is a SHOULD (B26 § _meta).
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': options.protocolVersion,
      'io.modelcontextprotocol/clientCapabilities': HARNESS_CLIENT_CAPABILITIES,
      'io.modelcontextprotocol/clientInfo': HARNESS_CLIENT_INFO,
    };
    if (exchange?.request?.followUp) Object.assign(params, buildFollowUpParams(options.previousResult));
  }
  return { jsonrpc: '2.0', id: exchange?.request?.id ?? options.exchangeIndex + 1, method: 'tools/call', params };
}

// MR26 § Client Requirements: answer every input request under its key; echo requestState
// byte-for-byte when given, and never invent one.
function buildFollowUpParams(previous: unknown): Record<string, unknown> {
  const result = unwrapResult(previous);
  if (result === undefined) return {};
  const extra: Record<string, unknown> = {};
  const requests = result.inputRequests;
  if (isRecord(requests)) {
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const response = answerInputRequest(request);
      if (response !== undefined) responses[key] = response;
    }
    extra.inputResponses = responses;
  }
  if ('requestState' in result) extra.requestState = result.requestState;
  return extra;
}

/**
 * A well-behaved answer to a server's input request (MRTR) or server-to-client request (2025 SSE);
 * undefined when the client has no answer (the caller replies -32601). A 2025-03-26 client does not
 * know elicitation/create (LEGACY 5.1, §8.12).
 */
export function answerInputRequest(request: unknown, version: ProtocolVersion = '2026-07-28'): Record<string, unknown> | undefined {
  if (!isRecord(request)) return undefined;
  switch (request.method) {
    case 'elicitation/create': {
      if (!hasElicitation(version)) return undefined;
      const params = isRecord(request.params) ? request.params : {};
      // Form data only exists in form mode; a URL-mode accept only means consent (EL26).
      return params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: {} };
    }
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'synthetic' }, model: 'synthetic-model', stopReason: 'endTurn' };
    case 'roots/list':
      return { roots: [] };
    default:
      return undefined;
  }
}

function unwrapResult(previous: unknown): Record<string, unknown> | undefined {
  if (!isRecord(previous)) return undefined;
  if ('jsonrpc' in previous) return isRecord(previous.result) ? previous.result : undefined;
  return previous;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
