// Credentials in free text, found and replaced by linear scans (what is redacted: below).

/** What replaces a redacted value. */
export const REDACTED = '[REDACTED]';

// What is redacted in free text (the README's "Redaction" paragraph says the same):
// - the value of an Authorization, Proxy-Authorization, Cookie or Set-Cookie header written in
//   the text (`Authorization: …` to the end of the line, or a quoted JSON value);
// - the value after a secret-sounding key (`…token`, `…secret`, `password`, `passwd`, `api_key`,
//   `apikey`, `session_id`, `sid`) followed by `=` or `:` — URL query parameters included;
// - the credential after `Bearer`, `Basic` or `token` when it looks like one (a digit, inner
//   capitals, `. _ ~ + /`, or 32+ characters), to where a key's value would end (`=` padding and
//   anything after it included) — an auth-param (`realm="…"`,
//   `error=invalid_token`: one `=`, no `/` in the name) is a challenge, not a credential, and stays;
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

/** A token68 character that is also a tchar (RFC 9110), so it may start an auth-param's bare value: all but `/`. */
function isTokenStartCode(code: number): boolean {
  return code !== 0x2f && isToken68Code(code);
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

// A key's value: to where a value ends (findValueEnd); at least 4 characters.
function readKeyValue(text: string, from: number): Range | undefined {
  let i = from;
  if (text.charCodeAt(i) === 0x5c && text.charCodeAt(i + 1) === 0x22) i += 2;
  else if (text.charCodeAt(i) === 0x22 || text.charCodeAt(i) === 0x27) i++;
  const end = findValueEnd(text, i);
  return end - i >= 4 ? [i, end] : undefined;
}

// Where a value starting at `from` ends: at whitespace or a control character, a quote, `&`, `;`,
// `,`, `}`, or an escaped quote or line break (`\"`, `\n`, `\r`, `\t`: text inside a JSON string).
// Any other backslash is part of the value (`\\` is one escaped backslash).
function findValueEnd(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x22 || code === 0x27 || code === 0x26 || code === 0x3b || code === 0x2c || code === 0x7d) break;
    if (code === 0x5c) {
      const next = text.charCodeAt(i + 1);
      if (next === 0x22 || next === 0x6e || next === 0x72 || next === 0x74) break;
      if (next === 0x5c) i++;
    }
  }
  return i;
}

// After `Bearer`/`Basic`/`token`: spaces, then a credential (a token68 and what follows it to the
// end of the value), unless it is an auth-param. Scanning resumes at the word after the spaces in
// every case: a secret-named auth-param (`token="…"`) or key inside a credential (`a/token="…"`) is
// then a key like any other, and what the scan finds inside a credential is covered by it or lies
// after it (replaceRanges merges).
function redactSchemeCredential(text: string, from: number, ranges: Range[]): number {
  let start = from;
  while (isSpaceCode(text.charCodeAt(start))) start++;
  if (!isAuthParamAt(text, start)) {
    // `=` is only padding at the end of a token68: whatever follows up to the end of the value is
    // still the credential (a reader must never see part of one).
    const end = findValueEnd(text, start);
    if (looksLikeCredential(text, start, end)) ranges.push([start, end]);
  }
  return start;
}

// name=value, name="value" or name= "value" at `start`: an auth-param of a challenge, not a
// credential. (Two `=` are base64 padding, never an auth-param; a bare value after spaces is not one either.)
function isAuthParamAt(text: string, start: number): boolean {
  let i = start;
  while (i < text.length && isToken68Code(text.charCodeAt(i))) i++;
  const tokenEnd = i;
  while (text.charCodeAt(i) === 0x3d) i++;
  if (i !== tokenEnd + 1 || !isAuthParamName(text, start, tokenEnd)) return false;
  let j = i;
  while (isSpaceCode(text.charCodeAt(j))) j++;
  return text.charCodeAt(j) === 0x22 || (j === i && isTokenStartCode(text.charCodeAt(j)));
}

// An auth-param's name is a token (RFC 9110 tchar): a token68 with `/` in it cannot be one.
function isAuthParamName(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === 0x2f) return false;
  return true;
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
