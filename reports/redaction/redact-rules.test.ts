// The redaction and control-stripping rules at their edges, one row per rule: small texts only, so
// the mutation run (vitest.mutate.config.ts) kills a mutant here before redact.test.ts's huge texts.
import { describe, expect, it } from 'vitest';
import { isSecretHeader, REDACTED, redactText, sanitizeHeaderValue, sanitizeText, sanitizeValue, stripControl, toOneLine } from './redact.js';

const R = REDACTED;

describe('isSecretHeader: standard credential headers and custom ones by name', () => {
  it.each([
    ['Authorization', true],
    ['PROXY-AUTHORIZATION', true],
    ['Cookie', true],
    ['Set-Cookie', true],
    ['X-API-Key', true],
    ['X-Apikey', true],
    ['X-Auth-Token', true],
    ['X-Client-Secret', true],
    ['X-Password', true],
    ['X-Credential-Id', true],
    ['Accept', false],
    ['Mcp-Session-Id', false],
    ['Content-Type', false],
  ])('%s → %s', (name, secret) => {
    expect(isSecretHeader(name)).toBe(secret);
    expect(sanitizeHeaderValue(name, 'v\u0007alue')).toBe(secret ? R : 'value');
  });
});

describe('stripControl: escape sequences end where the terminal ends them', () => {
  it.each([
    // A two-character ESC sequence (ESC 0x40–0x5F) goes whole; ESC before anything else goes alone.
    ['a\u001bMb', 'ab'],
    ['a\u001b_b', 'ab'],
    ['a\u001b@b', 'ab'],
    ['a\u001b`b', 'a`b'],
    ['a\u001b?b', 'a?b'],
    ['a\u001bab', 'aab'],
    // CSI: parameters, then intermediates, then one final 0x40–0x7E.
    ['x\u001b[0;1 qy', 'xy'],
    ['x\u001b[?25hy', 'xy'],
    ['x\u001b[1~y', 'xy'],
    ['x\u001b[1@y', 'xy'],
    ['x\u001b[1\u007fy', 'x1y'],
    ['x\u001b[/y', 'x'],
    ['x\u001b[!1my', 'x!1my'],
    ['x\u001b[1!\u001fmy', 'x1!my'],
    ['x\u001b[1/!Az', 'xz'],
    ['x\u009b0;1 @y', 'xy'],
    ['x\u009b1\u007fy', 'x1y'],
    // OSC: ends at BEL, at ESC \, or before an ESC that starts something else.
    ['x\u001b]0;t\u0007y', 'xy'],
    ['x\u001b]0;t\u001b\\y', 'xy'],
    ['x\u001b]0;t\u001b[1my', 'xy'],
    ['x\u001b]0;t\u001bMy', 'xy'],
    ['x\u001b]0;t', 'x'],
    // Controls and surrogates at the edges of their ranges.
    ['\u0008\u0009\u000a\u000b\u000c\u000d\u000e\u001f\u0020', '\t\n\r '],
    ['~\u007f\u0080\u009f\u00a0', '~\u00a0'],
    ['\ud7ff\udbff\ud83d\udfff\ue000', '\ud7ff\ud83d\udfff\ue000'],
    ['a\ud800', 'a'],
    ['\udfffz', 'z'],
    ['\ufffd\ufffe', '\ufffd'],
    // A pair at the edges of the low half stays; a high half before a non-surrogate goes alone.
    ['\ud83d\udc00', '\ud83d\udc00'],
    ['\ud800\ue000', '\ue000'],
    // An OSC ends at ESC; a backslash before that ESC is OSC text, not the start of ST.
    ['x\u001b]0;t\\\u001bay', 'xay'],
  ])('%j → %j', (input, expected) => {
    expect(stripControl(input)).toBe(expected);
  });
});

describe('redactText: what is a credential and what stays', () => {
  it.each([
    // Texts under 8 characters cannot hold a credential worth the scan; 8 can.
    ['sid=abc', 'sid=abc'],
    ['sid=abcd', `sid=${R}`],
    // A key's value needs 4 characters and ends at a separator.
    ['token=abc', 'token=abc'],
    ['token=abcd', `token=${R}`],
    ['secret = abcd;rest', `secret = ${R};rest`],
    ['token=abcd,x', `token=${R},x`],
    ['{token:abcd}', `{token:${R}}`],
    ["token='abcd' x", `token='${R}' x`],
    ['token=abcd\\n x', `token=${R}\\n x`],
    ['token=abcd\tx', `token=${R}\tx`],
    ['{\\"token\\":\\"abcd1234\\"}', `{\\"token\\":\\"${R}\\"}`],
    ['session-id: abcdef', `session-id: ${R}`],
    ['sessionid=abcdef', `sessionid=${R}`],
    ['my_passwd=abcdef', `my_passwd=${R}`],
    ['the token is abcd', 'the token is abcd'],
    ['the token; abcdef', 'the token; abcdef'],
    // Header values: to the end of the line, or to the closing quote.
    ["'Cookie': 'a=1; b=2', x", `'Cookie': '${R}', x`],
    ['Cookie:\ta=1\r\nnext', `Cookie:\t${R}\r\nnext`],
    ['Cookie: \nnext line', 'Cookie: \nnext line'],
    ['"cookie": "", "x": 1', '"cookie": "", "x": 1'],
    ['{\\"cookie\\":\\"a=1\\"}', `{\\"cookie\\":\\"${R}\\"}`],
    ['set-cookie="a=1\\"', `set-cookie="${R}\\"`],
    // After a scheme word: a credential-looking token68 (padding included), not a word or a challenge.
    ['Bearer abcdefg1', `Bearer ${R}`],
    ['Bearer abcdefg0', `Bearer ${R}`],
    ['Bearer abcdefg9', `Bearer ${R}`],
    ['Bearer abcdefg/', `Bearer ${R}`],
    ['Bearer abcdefgA', `Bearer ${R}`],
    ['Bearer abcdefgZ', `Bearer ${R}`],
    ['Bearer abcdefg:', 'Bearer abcdefg:'],
    ['Bearer abcdefg@', 'Bearer abcdefg@'],
    ['Bearer abcdefg[', 'Bearer abcdefg['],
    [`token ${'x'.repeat(32)}`, `token ${R}`],
    [`token ${'x'.repeat(31)}`, `token ${'x'.repeat(31)}`],
    ['key ghp_abcdefghijk0', `key ${R}`],
    ['key ghp_abcdefghijk9', `key ${R}`],
    ['key ghp_abcdefghijk/', 'key ghp_abcdefghijk/'],
    ['key ghp_abcdefghijk:', 'key ghp_abcdefghijk:'],
    ['key xAKIAABCDEFGHIJKLMNOP', 'key xAKIAABCDEFGHIJKLMNOP'],
    ['Bearer abcdef1', 'Bearer abcdef1'],
    ['Bearer abcdefgh', 'Bearer abcdefgh'],
    ['Bearer Abcdefgh', 'Bearer Abcdefgh'],
    ['Bearer abcDefgh', `Bearer ${R}`],
    ['Bearer abcdefg.', `Bearer ${R}`],
    ['Bearer abcdefg~', `Bearer ${R}`],
    ['Bearer abcdefg+', `Bearer ${R}`],
    ['Bearer abcdefg/', `Bearer ${R}`],
    ['Bearer abcdefgh1j==', `Bearer ${R}`],
    ['Bearer abcdefghij==', 'Bearer abcdefghij=='],
    ['Basic dXNlcjpw==', `Basic ${R}`],
    ['Basic dXNlcjpw==, next', `Basic ${R}, next`],
    [`token ${'a'.repeat(32)}`, `token ${R}`],
    [`token ${'a'.repeat(31)}`, `token ${'a'.repeat(31)}`],
    ['Bearer  \t abcdefg1', `Bearer  \t ${R}`],
    ['Bearer realm= "x1234567"', 'Bearer realm= "x1234567"'],
    ['Bearer abcdefg1=;', `Bearer ${R};`],
    ['Bearer\nabcdefg1', 'Bearer\nabcdefg1'],
    ['Bearer:abcdefg1', 'Bearer:abcdefg1'],
    // JSON Web Tokens: header of 11+, payload of 8+, signature optional.
    ['jwt eyJhbGciOiJ.eyJzdWIi x', `jwt ${R} x`],
    ['jwt eyJhbGciOi.eyJzdWIi x', 'jwt eyJhbGciOi.eyJzdWIi x'],
    ['jwt eyJhbGciOiJ.eyJzdWI x', 'jwt eyJhbGciOiJ.eyJzdWI x'],
    ['jwt eyJhbGciOiJ eyJzdWIi', 'jwt eyJhbGciOiJ eyJzdWIi'],
    ['jwt eyJhbGciOiJ.eyJzdWIi.sig-_1 x', `jwt ${R} x`],
    ['jwt eyJhbGciOiJ.eyJzdWIi. x', `jwt ${R} x`],
    // Provider keys: the prefix, then 12+ characters with a digit.
    ['key ghp_abcdefghijk1', `key ${R}`],
    ['key ghp_abcdefghij1', 'key ghp_abcdefghij1'],
    ['key ghp_abcdefghijkl', 'key ghp_abcdefghijkl'],
    ['key npm_abcdefghijk1', `key ${R}`],
    ['key xoxp-abcdefghijk1', `key ${R}`],
    ['key AKIAABCDEFGHIJKLMNOP', `key ${R}`],
    ['key AKIAABCDEFGHIJKLMNO', 'key AKIAABCDEFGHIJKLMNO'],
    ['key AKIAabcdefghijklmnop', 'key AKIAabcdefghijklmnop'],
    [`key AIza${'b'.repeat(35)}`, `key ${R}`],
    [`key AIza${'b'.repeat(34)}`, `key AIza${'b'.repeat(34)}`],
    ['xghp_abcdefghijk1', 'xghp_abcdefghijk1'],
    // Hex runs of 32+ that are whole words.
    [`h ${'a'.repeat(31)}1 x`, `h ${R} x`],
    [`h ${'F'.repeat(31)} x`, `h ${'F'.repeat(31)} x`],
    [`h ${'0'.repeat(31)}g x`, `h ${'0'.repeat(31)}g x`],
    [`h-${'0'.repeat(32)}-x`, `h-${R}-x`],
    [`${'9'.repeat(32)}`, R],
    // A trigger inside a word longer than 64 characters is left alone.
    [`${'a'.repeat(59)}token=abcdef`, `${'a'.repeat(59)}token=${R}`],
    [`${'a'.repeat(60)}token=abcdef`, `${'a'.repeat(60)}token=abcdef`],
    // Two secrets side by side, and a secret inside a key's value already redacted.
    ['token=abcd1234 secret=wxyz5678', `token=${R} secret=${R}`],
    [`token=${'ab12'.repeat(8)}`, `token=${R}`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('sanitizeText and sanitizeValue', () => {
  it('strips controls, then redacts, the same on a first and a cached call, and past the cache limit', () => {
    for (let round = 0; round < 2; round++) expect(sanitizeText('\u001b[1mtoken=abcd1234')).toBe(`token=${R}`);
    for (let i = 0; i < 20_001; i++) sanitizeText(`line ${i} token=abcd1234`);
    expect(sanitizeText('line 1 token=abcd1234')).toBe(`line 1 token=${R}`);
  });

  it('a text of exactly 2,048 characters and one of 2,049 are both redacted', () => {
    for (const length of [2048, 2049]) {
      const text = `token=abcd1234 ${'x'.repeat(length - 15)}`;
      expect(text).toHaveLength(length);
      expect(sanitizeText(text).startsWith(`token=${R} `)).toBe(true);
    }
  });

  it.each([
    [undefined, ''],
    ['token=abcd1234', `token=${R}`],
    [{ secret: 'abcd1234' }, `{"secret":"${R}"}`],
    [42, '42'],
    [null, 'null'],
  ])('%j → %j', (value, expected) => {
    expect(sanitizeValue(value)).toBe(expected);
  });
});

describe('toOneLine edges', () => {
  it.each([
    ['', 300, ''],
    ['abc', 3, 'abc'],
    ['abcd', 3, 'ab…'],
    ['a  b\n\nc', 300, 'a b c'],
    ['  lead and trail  ', 300, 'lead and trail'],
    ['ab cd', 4, 'ab …'],
    ['ab cd', 5, 'ab cd'],
    ['a\u0008b\u000bc\u000cd\re\u001ff', 300, 'a\u0008b c d e\u001ff'],
    ['a\u1680b\u2000c\u200ad\u2029e\u202ff\u205fg\u3000h\ufeffi\u00a0j', 300, 'a b c d e f g h i j'],
    ['a\u009fb\u1fffc\u200bd\u200be\u2030f\u205eg\u2fffh\ufefei', 300, 'a\u009fb\u1fffc\u200bd\u200be\u2030f\u205eg\u2fffh\ufefei'],
  ])('%j capped at %i → %j', (text, max, expected) => {
    expect(toOneLine(text, max)).toBe(expected);
  });

  it('caps at 300 characters by default', () => {
    expect(toOneLine('x'.repeat(301))).toBe(`${'x'.repeat(299)}…`);
    expect(toOneLine('x'.repeat(300))).toBe('x'.repeat(300));
  });
});

// A text that records the furthest character toOneLine reads (it only calls charCodeAt and slice).
function probeText(text: string): { value: string; furthest: () => number } {
  let furthest = -1;
  const value = {
    length: text.length,
    charCodeAt: (index: number): number => {
      furthest = Math.max(furthest, index);
      return text.charCodeAt(index);
    },
    slice: (start?: number, end?: number): string => text.slice(start, end),
  } as unknown as string;
  return { value, furthest: () => furthest };
}

describe('toOneLine reads no further than the character after the line it keeps', () => {
  it.each([
    // One long word: it stops one character past the cap, not at the end of the word.
    ['x'.repeat(1000), 'xxxxxxxxx…'],
    // Many short words: it stops once the line is longer than the cap, not at the end of the text.
    [`ab${' cd'.repeat(500)}`, 'ab cd cd …'],
    // A line full at the end of a word: the white space after it is not read.
    [`${'x'.repeat(11)}${' '.repeat(1000)}y`, 'xxxxxxxxx…'],
  ])('%#: capped at 10 → %j, reading at most 12 characters', (text, expected) => {
    const probe = probeText(text);
    expect(toOneLine(probe.value, 10)).toBe(expected);
    expect(probe.furthest()).toBeLessThanOrEqual(12);
  });
});

// RFC 9110 §11.2: auth-param = token BWS "=" BWS ( token / quoted-string ). One `=`, a name made of
// tchar (no `/`), and a bare value only right after the `=`; anything else after a scheme word is a
// token68 credential, whose `=` padding is part of it.
describe('redactText: a padded credential is not an auth-param', () => {
  it.each([
    ['Basic dXNlcjpw== next', `Basic ${R} next`],
    ['Basic dXNlcjpwYXM= next', `Basic ${R} next`],
    ['Bearer ab/defg1="x"', `Bearer ${R}"x"`],
    ['Basic realm="Access", charset="UTF-8"', 'Basic realm="Access", charset="UTF-8"'],
    ['Bearer error=invalid_token', 'Bearer error=invalid_token'],
    ['Bearer realm= "x1234567"', 'Bearer realm= "x1234567"'],
    ['Bearer realm=\t"x1234567"', 'Bearer realm=\t"x1234567"'],
    ['Bearer scope1234=read', 'Bearer scope1234=read'],
    ['Bearer scope1234="read"', 'Bearer scope1234="read"'],
    ['Bearer scope1234= "read"', 'Bearer scope1234= "read"'],
    ['Bearer scope1234= read', `Bearer ${R} read`],
    ['Bearer abcdefg1"x"', `Bearer ${R}"x"`],
    ['Basic dXNlcjpw=="x"', `Basic ${R}"x"`],
    // `.`, `~` and `+` are tchar: a name holding one is still an auth-param's (round 10's full
    // mutation run found these three unstated since the credential's end moved to findValueEnd).
    ['Bearer error.code=invalid', 'Bearer error.code=invalid'],
    ['Bearer a~b1234=read', 'Bearer a~b1234=read'],
    ['Bearer a+b1234=read', 'Bearer a+b1234=read'],
    // A bare value is a token, and `/` is no tchar: `name=/…` is no auth-param but a credential.
    ['Bearer scope1234=/abcdefg', `Bearer ${R}`],
    ['Bearer scope1234=.abcdefg', 'Bearer scope1234=.abcdefg'],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

// An auth-param is no credential, but a secret-named one is still a secret: its value is replaced as
// a key's value is anywhere else (`token="abcd1234"` after `Bearer` was left whole).
describe('redactText: a secret-named auth-param keeps its value redacted', () => {
  it.each([
    ['Bearer token="abcd1234"', `Bearer token="${R}"`],
    ['Bearer sid="abcd1234"', `Bearer sid="${R}"`],
    ['Basic password=hunter22', `Basic password=${R}`],
    ['Bearer realm="mcp", token="abcd1234"', `Bearer realm="mcp", token="${R}"`],
    ['Bearer realm="mcp", error="invalid_token"', 'Bearer realm="mcp", error="invalid_token"'],
    // A secret-named key inside a credential: its value after a quote or a colon is replaced too.
    ['Bearer a/token="abcd1234"', `Bearer ${R}"${R}"`],
    ['Bearer ab/password="hunter22"', `Bearer ${R}"${R}"`],
    ['Bearer x/secret: abcd1234', `Bearer ${R} ${R}`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});
