// Reading JSON text as a receiver: the helpers every check shares.

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: string };

/** Parses JSON text as a receiver, ignoring one leading byte order mark. */
export function parseJsonText(text: string): ParsedJson {
  // RFC 8259 §8.1: senders MUST NOT add a BOM; receivers MAY ignore one. We ignore it, as
  // the WHATWG "UTF-8 decode" behind fetch's text()/json() and the SSE parser already do, so a
  // BOM gives the same verdict whether the body came over a socket or in direct mode.
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (unmarked.trim() === '') return { ok: false, problem: 'the body is empty' };
  try {
    return { ok: true, value: JSON.parse(unmarked) as unknown };
  } catch (error) {
    return { ok: false, problem: `the body is not JSON (${(error as Error).message})` };
  }
}
