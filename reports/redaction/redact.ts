// Text hygiene shared by every report format: what a target printed or a server sent is
// untrusted, may carry terminal escapes, and may carry secrets the user never meant to publish.
import { stringifySafe } from '../../runner/util/safe-copy.js';
import { REDACTED, redactText } from './redact-text.js';
import { stripControl } from './strip-control.js';

export { REDACTED, redactText, stripControl };

/** Header names whose values are always replaced, compared lower-cased. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);


// Custom credential headers (X-API-Key, X-Auth-Token, X-Client-Secret, …) by name.
const SECRET_HEADER_NAME = /api-?key|token|secret|password|credential/;

/** Whether a header's value is a credential and is always replaced whole. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || SECRET_HEADER_NAME.test(lower);
}

// Reports sanitize the same short strings (headers, ids, messages) thousands of times. Bounded in
// entries and in characters: 20,000 texts of up to 2 KiB could hold 80 MB (issue 28 item 4).
const cache = new Map<string, string>();
const CACHE_LIMIT = 20_000;
const CACHE_MAX_CHARS = 4 * 1024 * 1024;
let cacheChars = 0;

/** Strip control characters, then redact: the treatment for any wire or target text. */
export function sanitizeText(text: string): string {
  // Long texts are not cached (they rarely repeat), but they are redacted all the same.
  if (text.length > 2048) return redactText(stripControl(text));
  let clean = cache.get(text);
  if (clean === undefined) {
    if (cache.size >= CACHE_LIMIT || cacheChars >= CACHE_MAX_CHARS) {
      cache.clear();
      cacheChars = 0;
    }
    clean = redactText(stripControl(text));
    cache.set(text, clean);
    cacheChars += text.length + (clean === text ? 0 : clean.length);
  }
  return clean;
}

/** A header value as it may be shown: secret headers replaced whole, others sanitized. */
export function sanitizeHeaderValue(name: string, value: string): string {
  return isSecretHeader(name) ? REDACTED : sanitizeText(value);
}

/** A header map as it may be shown, in the original order. */
export function sanitizeHeaders(headers: Record<string, string>): [string, string][] {
  return Object.entries(headers).map(([name, value]) => [stripControl(name), sanitizeHeaderValue(name, String(value))]);
}

/** Any value (check expected/actual, verdicts) as sanitized one-line-friendly text. Never throws. */
export function sanitizeValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return sanitizeText(value);
  return sanitizeText(stringifySafe(value));
}

/** Collapse whitespace runs (newlines included) so the text fits on one line, then cap it. */
export function toOneLine(text: string, max = 300): string {
  // One scan that stops once the line is longer than `max` (a regex replace over a 50 MB text
  // with millions of whitespace runs took minutes).
  const parts: string[] = [];
  let length = 0;
  let i = 0;
  while (i < text.length && length <= max) {
    while (i < text.length && isJsSpace(text.charCodeAt(i))) i++;
    const start = i;
    while (i < text.length && !isJsSpace(text.charCodeAt(i)) && length + (i - start) <= max) i++;
    if (i === start) break;
    if (parts.length > 0) {
      parts.push(' ');
      length++;
    }
    parts.push(text.slice(start, i));
    length += i - start;
  }
  const line = parts.join('');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

// JavaScript's \s: ASCII and Unicode white space, line terminators and the BOM.
function isJsSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
