// 2026-07-28 request headers: Mcp-Method, Mcp-Name and Mcp-Param-* (SH26 § Standard Request Headers).
import type { ToolSpec } from '../cases/case-types.js';
import type { ToolCallRequest } from '../vocabulary/types.js';

/** The headers of a 2026 tools/call POST, beyond Accept and Content-Type. */
export function buildModernHeaders(request: ToolCallRequest, tool: ToolSpec | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': request.method,
    'mcp-name': encodeHeaderValue(request.params.name),
  };
  const properties = (tool?.inputSchema as { properties?: Record<string, { 'x-mcp-header'?: unknown }> } | undefined)?.properties ?? {};
  for (const [property, schema] of Object.entries(properties)) {
    const headerName = schema?.['x-mcp-header'];
    const value = request.params.arguments?.[property];
    if (typeof headerName !== 'string' || value === null || value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value))) {
      headers[`mcp-param-${headerName.toLowerCase()}`] = encodeHeaderValue(String(value));
    }
  }
  return headers;
}

/** Plain value, or the `=?base64?…?=` form for non-ASCII, control characters or edge whitespace (SH26 § Value Encoding). */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x20-\x7e]*$/.test(value) && value.trim() === value && !/^=\?base64\?.*\?=$/i.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
