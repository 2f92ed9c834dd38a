// What changes from one recording to the next without the library doing anything different: the
// mock server's ephemeral port and the session ids it draws. Replaced by fixed markers so a
// re-recording of the same behaviour gives the same bytes.
const LOOPBACK_PORT = /127\.0\.0\.1:\d+/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const PORT_KEYS = new Set(['port', 'localPort', 'remotePort']);

/** A copy of a JSON value with the server's port and any UUID replaced by markers. */
export function normalizeVolatile<T>(value: T, origin?: string): T {
  return normalize(value, origin) as T;
}

function normalize(value: unknown, origin: string | undefined): unknown {
  if (typeof value === 'string') return normalizeText(value, origin);
  if (Array.isArray(value)) return value.map((item) => normalize(item, origin));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = PORT_KEYS.has(key) && typeof item === 'number' ? 0 : normalize(item, origin);
  return out;
}

/** The text with the server's origin, any loopback port and any UUID replaced by markers. */
export function normalizeText(text: string, origin?: string): string {
  const base = origin === undefined ? text : text.split(origin).join('http://127.0.0.1:PORT');
  return base.replace(LOOPBACK_PORT, '127.0.0.1:PORT').replace(UUID, '[uuid]');
}
