// Text hygiene shared by every report format: what a target printed or a server sent is
// untrusted, may carry terminal escapes, and may carry secrets the user never meant to publish.

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

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and any other two-byte ESC sequence; the
// 8-bit CSI (U+009B) too, because some terminals honour it.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 controls except tab/newline/carriage return, DEL, C1 controls, lone surrogates and the
// two non-characters XML 1.0 forbids (U+FFFE, U+FFFF).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;

/** Remove ANSI escape sequences and characters that are invalid in XML 1.0 or unprintable. */
export function stripControl(text: string): string {
  // Every ANSI sequence starts with ESC or U+009B, both in this class: one scan for clean text.
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(ANSI, '').replace(CONTROL, '');
}

// Token-like values. Each pattern keeps its label (group 1) and drops the secret.
const TOKEN_PATTERNS: RegExp[] = [
  // A header line inside free text (stderr, a raw request dump).
  /((?:^|[\s"'{,])(?:proxy-)?(?:authorization|cookie|set-cookie)\s*[:=]\s*)[^\r\n]+/gim,
  /(\b(?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{6,}/gi,
  // key=value and "key": "value" for secret-sounding keys.
  /(\b[\w-]*(?:token|secret|password|passwd|api[_-]?key|apikey|session[_-]?id|sid)["']?\s*[=:]\s*["']?)[^\s"'&;,}]{4,}/gi,
  // JSON Web Tokens.
  /()\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?/g,
  // Long hex secrets (digests we print ourselves never go through here).
  /()\b[0-9a-fA-F]{32,}\b/g,
];

// Long base64/base64url runs; redacted only when they mix digits, upper and lower case
// (checked in code: lookaheads at every position made this quadratic on long bodies).
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}/g;

function looksLikeSecret(run: string): boolean {
  return /[0-9]/.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run);
}

// A necessary condition for any pattern above to match (a word each needs, or a long run):
// one scan lets the common clean text through without running every pattern.
const MAY_HOLD_SECRET = /authorization|cookie|bearer|basic|token|secret|passw|api|session|sid|eyJ|[A-Za-z0-9+/_-]{32}/i;

/** Replace token-like substrings (Bearer …, token=…, JWTs, long hex/base64 secrets) in free text. */
export function redactText(text: string): string {
  // Nothing shorter than this can hold a secret worth hiding; most header values and ids are short.
  if (text.length < 8 || !MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, (_match, label: string) => `${label}${REDACTED}`);
  return out.replace(BASE64_RUN, (run) => (looksLikeSecret(run) ? REDACTED : run));
}

// Reports sanitize the same short strings (headers, ids, messages) thousands of times.
const cache = new Map<string, string>();
const CACHE_LIMIT = 20_000;

/** Strip control characters, then redact: the treatment for any wire or target text. */
export function sanitizeText(text: string): string {
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

/** Any value (check expected/actual, verdicts) as sanitized one-line-friendly text. */
export function sanitizeValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return sanitizeText(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return sanitizeText(text);
}

/** Collapse whitespace runs (newlines included) so the text fits on one line, then cap it. */
export function toOneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
