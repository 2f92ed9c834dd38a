// Text hygiene shared by every report format: what a target printed or a server sent is
// untrusted, may carry terminal escapes, and may carry secrets the user never meant to publish.
import { stringifySafe } from '../runner/safe-copy.js';

/** Header names whose values are always replaced, compared lower-cased. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

export const REDACTED = '[REDACTED]';

// Custom credential headers (X-API-Key, X-Auth-Token, X-Client-Secret, …) by name.
const SECRET_HEADER_NAME = /api-?key|token|secret|password|credential/;

/** Whether a header's value is a credential and is always replaced whole. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || SECRET_HEADER_NAME.test(lower);
}

// C0 controls except tab/newline/carriage return, DEL, C1 controls (U+0080–U+009F, U+009B the
// 8-bit CSI among them), lone surrogates and the two non-characters XML 1.0 forbids.
const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;

/**
 * Remove ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL or ESC \\`, any other
 * two-character ESC sequence, the 8-bit CSI U+009B … final) and characters that are invalid in
 * XML 1.0 or unprintable (see ANY_CONTROL). One linear scan, no regex over the text.
 */
export function stripControl(text: string): string {
  // Every ANSI sequence starts with ESC or U+009B, both in this class: one scan for clean text.
  if (!ANY_CONTROL.test(text)) return text;
  const parts: string[] = [];
  let kept = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    let end: number;
    if (code === 0x1b) end = skipEscape(text, i);
    else if (code === 0x9b) end = skipCsi(text, i + 1) ?? i + 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 2;
        continue;
      }
      end = i + 1;
    } else if (isControlCode(code)) end = i + 1;
    else {
      i++;
      continue;
    }
    if (i > kept) parts.push(text.slice(kept, i));
    i = end;
    kept = end;
  }
  if (kept < text.length) parts.push(text.slice(kept));
  return parts.join('');
}

// Lone low surrogates are controls here: a paired one was skipped with its high half.
function isControlCode(code: number): boolean {
  return (code <= 0x1f && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f) || (code >= 0xdc00 && code <= 0xdfff) || code === 0xfffe || code === 0xffff;
}

// Where the ESC sequence starting at `start` ends.
function skipEscape(text: string, start: number): number {
  const next = text.charCodeAt(start + 1);
  if (next === 0x5b) return skipCsi(text, start + 2) ?? start + 2; // ESC [ : a CSI, or a bare two-character sequence
  if (next === 0x5d) {
    // OSC: up to BEL or ESC \ (or the end of the text).
    for (let i = start + 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x07) return i + 1;
      if (code === 0x1b) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
    }
    return text.length;
  }
  return next >= 0x40 && next <= 0x5f ? start + 2 : start + 1;
}

// A CSI body (parameters 0x30–0x3F, intermediates 0x20–0x2F, one final 0x40–0x7E) from `from`; its end, or undefined without a final.
function skipCsi(text: string, from: number): number | undefined {
  let i = from;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  const final = text.charCodeAt(i);
  return final >= 0x40 && final <= 0x7e ? i + 1 : undefined;
}

// What is redacted in free text (the README's "Redaction" paragraph says the same):
// - the value of an Authorization, Proxy-Authorization, Cookie or Set-Cookie header written in
//   the text (`Authorization: …` to the end of the line, or a quoted JSON value);
// - the value after a secret-sounding key (`…token`, `…secret`, `password`, `passwd`, `api_key`,
//   `apikey`, `session_id`, `sid`) followed by `=` or `:` — URL query parameters included;
// - the credential after `Bearer`, `Basic` or `token` when it looks like one (a digit, inner
//   capitals, `. _ ~ + /`, or 32+ characters) — an auth-param (`realm="…"`,
//   `resource_metadata="…"`) is a challenge, not a credential, and stays;
// - JSON Web Tokens, provider keys by their prefix (sk-, sk_, pk_live_, rk_live_, ghp_, gho_,
//   ghu_, ghs_, ghr_, github_pat_, glpat-, xoxa-/xoxb-/xoxp-/xoxr-/xoxs-, npm_, AKIA…, AIza…),
//   and hex runs of 32+ characters.
// Titles, challenges (WWW-Authenticate), URLs and ordinary words stay readable.
// Every rule is a linear scan: a trigger word is found by a regex without quantifiers over the
// text, and the key and value around it are read by hand, so no input can make it quadratic or
// overflow a regex backtracking stack.

const TRIGGER = /authorization|cookie|bearer|basic|token|secret|passw|api[_-]?key|session[_-]?id|sid|eyJ|sk[-_]|[pr]k_live_|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|npm_|AKIA|AIza/gi;
const HEX_32 = /[0-9a-f]{32}/i;
const HEADER_KEYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const SCHEME_WORDS = new Set(['bearer', 'basic', 'token']);
const SECRET_KEY_END = /(?:token|secret|password|passwd|api[_-]?key|apikey|session[_-]?id|sid)$/;
const KEY_PREFIXES = ['sk-', 'sk_', 'pk_live_', 'rk_live_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'xoxa-', 'xoxb-', 'xoxp-', 'xoxr-', 'xoxs-', 'npm_'];

/** A character of a word or key: A–Z, a–z, 0–9, `_`, `-`. */
function isWordCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d;
}

/** A token68 character (RFC 9110): a word character or `. ~ + /`. */
function isToken68Code(code: number): boolean {
  return isWordCode(code) || code === 0x2e || code === 0x7e || code === 0x2b || code === 0x2f;
}

function isSpaceCode(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function isLineEnd(code: number): boolean {
  return code === 0x0a || code === 0x0d || Number.isNaN(code);
}

type Range = [start: number, end: number];

/** Replace credentials in free text (see the list above); everything else is returned as it was. */
export function redactText(text: string): string {
  if (text.length < 8) return text;
  const ranges: Range[] = [];
  TRIGGER.lastIndex = 0;
  let floor = 0;
  for (let match = TRIGGER.exec(text); match; match = TRIGGER.exec(text)) {
    let start = match.index;
    while (start > floor && isWordCode(text.charCodeAt(start - 1))) start--;
    let end = match.index + match[0].length;
    while (end < text.length && isWordCode(text.charCodeAt(end))) end++;
    const after = redactAround(text, start, match.index, end, ranges);
    floor = Math.max(end, after);
    TRIGGER.lastIndex = floor;
  }
  if (HEX_32.test(text)) findHexRuns(text, ranges);
  return ranges.length === 0 ? text : replaceRanges(text, ranges);
}

// The word [start, end) holds a trigger at `at`: record what it exposes; returns where scanning resumes.
function redactAround(text: string, start: number, at: number, end: number, ranges: Range[]): number {
  if (at === start) {
    const shape = matchTokenShape(text, start, end);
    if (shape > start) {
      ranges.push([start, shape]);
      return shape;
    }
  }
  if (end - start > 64) return end;
  const word = text.slice(start, end).toLowerCase();
  if (SCHEME_WORDS.has(word) && isSpaceCode(text.charCodeAt(end))) return redactSchemeCredential(text, end, ranges);
  if (!HEADER_KEYS.has(word) && !SECRET_KEY_END.test(word)) return end;
  // key ["'] spaces (: or =) spaces, then the value.
  let i = end;
  if (text.charCodeAt(i) === 0x5c && text.charCodeAt(i + 1) === 0x22) i += 2;
  else if (text.charCodeAt(i) === 0x22 || text.charCodeAt(i) === 0x27) i++;
  while (isSpaceCode(text.charCodeAt(i))) i++;
  const separator = text.charCodeAt(i);
  if (separator !== 0x3a && separator !== 0x3d) return end;
  i++;
  while (isSpaceCode(text.charCodeAt(i))) i++;
  const valueEnd = HEADER_KEYS.has(word) ? readHeaderValue(text, i) : readKeyValue(text, i);
  if (valueEnd === undefined) return end;
  ranges.push([valueEnd[0], valueEnd[1]]);
  return valueEnd[1];
}

// A header value: a quoted one to its closing quote, otherwise to the end of the line.
function readHeaderValue(text: string, from: number): Range | undefined {
  let i = from;
  let quote = -1;
  if (text.charCodeAt(i) === 0x5c && text.charCodeAt(i + 1) === 0x22) {
    i += 2;
    quote = 0x22;
  } else if (text.charCodeAt(i) === 0x22 || text.charCodeAt(i) === 0x27) quote = text.charCodeAt(i++);
  const start = i;
  while (!isLineEnd(text.charCodeAt(i)) && text.charCodeAt(i) !== quote) i++;
  // An escaped quote (\") closes a value written inside a JSON string.
  const end = quote === 0x22 && i > start && text.charCodeAt(i - 1) === 0x5c ? i - 1 : i;
  return end > start ? [start, end] : undefined;
}

// A key's value: up to whitespace, a quote, `&`, `;`, `,`, `}` or `\\`; at least 4 characters.
function readKeyValue(text: string, from: number): Range | undefined {
  let i = from;
  if (text.charCodeAt(i) === 0x5c && text.charCodeAt(i + 1) === 0x22) i += 2;
  else if (text.charCodeAt(i) === 0x22 || text.charCodeAt(i) === 0x27) i++;
  const start = i;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x22 || code === 0x27 || code === 0x26 || code === 0x3b || code === 0x2c || code === 0x7d || code === 0x5c) break;
  }
  return i - start >= 4 ? [start, i] : undefined;
}

// After `Bearer`/`Basic`/`token`: spaces, then a token68 credential, unless it is an auth-param.
function redactSchemeCredential(text: string, from: number, ranges: Range[]): number {
  let i = from;
  while (isSpaceCode(text.charCodeAt(i))) i++;
  const start = i;
  while (i < text.length && isToken68Code(text.charCodeAt(i))) i++;
  const tokenEnd = i;
  while (text.charCodeAt(i) === 0x3d) i++;
  if (i > tokenEnd) {
    // name=value or name="value": an auth-param of a challenge, not a credential.
    let j = i;
    while (isSpaceCode(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) === 0x22 || isToken68Code(text.charCodeAt(j))) return tokenEnd;
  }
  if (!looksLikeCredential(text, start, tokenEnd)) return tokenEnd;
  ranges.push([start, i]);
  return i;
}

// A credential, not a word: 8+ characters with a digit, a capital after the first character or
// one of . ~ + / — or simply 32+ characters.
function looksLikeCredential(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 8) return false;
  if (length >= 32) return true;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x30 && code <= 0x39) || (i > start && code >= 0x41 && code <= 0x5a) || code === 0x2e || code === 0x7e || code === 0x2b || code === 0x2f) return true;
  }
  return false;
}

// A JSON Web Token or a provider key starting at `start` (the word is [start, wordEnd)); its end, or `start`.
function matchTokenShape(text: string, start: number, wordEnd: number): number {
  const length = wordEnd - start;
  if (text.startsWith('eyJ', start)) {
    // header.payload[.signature], each base64url: the word stops at the first dot.
    if (length < 11 || text.charCodeAt(wordEnd) !== 0x2e) return start;
    let i = wordEnd + 1;
    const payload = i;
    while (i < text.length && isWordCode(text.charCodeAt(i))) i++;
    if (i - payload < 8) return start;
    if (text.charCodeAt(i) === 0x2e) for (i++; i < text.length && isWordCode(text.charCodeAt(i)); i++);
    return i;
  }
  if (text.startsWith('AKIA', start)) return length === 20 && /^AKIA[0-9A-Z]{16}$/.test(text.slice(start, wordEnd)) ? wordEnd : start;
  if (text.startsWith('AIza', start)) return length >= 39 ? wordEnd : start;
  for (const prefix of KEY_PREFIXES) {
    if (text.startsWith(prefix, start) && length >= prefix.length + 12 && hasDigit(text, start + prefix.length, wordEnd)) return wordEnd;
  }
  return start;
}

function hasDigit(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) return true;
  }
  return false;
}

// Runs of 32+ hex digits that are whole words (digests we print ourselves never go through here).
function findHexRuns(text: string, ranges: Range[]): void {
  let i = 0;
  while (i < text.length) {
    if (!isWordCode(text.charCodeAt(i)) || text.charCodeAt(i) === 0x2d) {
      i++;
      continue;
    }
    const start = i;
    let hex = true;
    for (; i < text.length && isWordCode(text.charCodeAt(i)) && text.charCodeAt(i) !== 0x2d; i++) {
      const code = text.charCodeAt(i) | 0x20;
      if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) hex = false;
    }
    if (hex && i - start >= 32) ranges.push([start, i]);
  }
}

function replaceRanges(text: string, ranges: Range[]): string {
  ranges.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let kept = 0;
  for (const [start, end] of ranges) {
    if (end <= kept) continue;
    if (start >= kept) {
      parts.push(text.slice(kept, start), REDACTED);
    }
    kept = end;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

// Reports sanitize the same short strings (headers, ids, messages) thousands of times.
const cache = new Map<string, string>();
const CACHE_LIMIT = 20_000;

/** Strip control characters, then redact: the treatment for any wire or target text. */
export function sanitizeText(text: string): string {
  // Long texts are not cached (they rarely repeat), but they are redacted all the same.
  if (text.length > 2048) return redactText(stripControl(text));
  let clean = cache.get(text);
  if (clean === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    clean = redactText(stripControl(text));
    cache.set(text, clean);
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
