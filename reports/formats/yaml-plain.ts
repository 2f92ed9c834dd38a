// A YAML mapping entry `key: value` for the common string that needs no quoting, written
// directly: passing every such string through the yaml package was most of the TAP report's
// time for a large run (each repro line is unique, so no memo helps). Anything the conservative
// test below does not accept goes to the yaml package as before.

// Starts with a letter; then letters, digits, spaces and punctuation that YAML gives no meaning
// inside a plain scalar. `: ` and ` #` (a mapping and a comment), a trailing `:` or space, two
// spaces in a row and the core schema's keywords are refused.
const PLAIN = /^[A-Za-z][A-Za-z0-9 ._/@=+,~:#-]*$/;
const UNSAFE = /: | #|:$| $| {2}/;
const KEYWORD = /^(?:true|false|null)$/i;

/** `key: value\n` when both are plain YAML scalars the yaml package writes unquoted; else undefined. */
export function stringifyPlainEntry(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || !isPlainScalar(key) || !isPlainScalar(value)) return undefined;
  return `${key}: ${value}\n`;
}

function isPlainScalar(text: string): boolean {
  return PLAIN.test(text) && !UNSAFE.test(text) && !KEYWORD.test(text);
}
