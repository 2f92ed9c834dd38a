// Reading JSON text as a receiver: the helpers every check shares.

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Parses JSON text as a receiver. The text was decoded already (docs/targets.md § Your own classifier: WHATWG
 * "UTF-8 decode", as fetch's text() does), and that decode dropped the one leading BOM RFC 8259 §8.1
 * lets a receiver ignore; nothing more is dropped here. A U+FEFF still at the start was a second BOM
 * in the bytes: data, and not JSON white space (RFC 8259 §2), so the text is not JSON, as fetch's
 * json() finds too.
 */
export function parseJsonText(text: string): ParsedJson {
  if (JSON_WHITE_SPACE_ONLY.test(text)) return { ok: false, problem: 'the body is empty' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `the body is not JSON (${(error as Error).message})` };
  }
}

// RFC 8259 §2: space, horizontal tab, line feed, carriage return. (String#trim would also take U+FEFF.)
const JSON_WHITE_SPACE_ONLY = /^[ \t\n\r]*$/;
