// How a rendered response is framed on the wire; shared by the server and direct mode.
import type { RenderedResponse } from './render-response.js';

/** Statuses that never carry a body (RFC 9110 § 6.4.1). */
export function isBodylessStatus(status: number): boolean {
  return status < 200 || status === 204 || status === 304;
}

/**
 * The Content-Length the server adds: complete non-stream bodies are sent with one,
 * streams with chunked framing. Undefined when the script framed the body itself.
 */
export function getContentLength(rendered: RenderedResponse): number | undefined {
  if (rendered.isStream || isBodylessStatus(rendered.status)) return undefined;
  const scripted = rendered.headers.some(([name]) => ['content-length', 'transfer-encoding'].includes(name.toLowerCase()));
  if (scripted) return undefined;
  return rendered.chunks.reduce((total, chunk) => total + chunk.bytes.length, 0);
}
