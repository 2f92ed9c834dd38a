// Rules of the credential scanner (redact-text.ts) that the mutation run found unstated: how the
// replaced ranges combine, where a header value ends, and where scanning resumes after a value.
// Small texts only: these run against every mutant (vitest.mutate.config.ts).
import { describe, expect, it } from 'vitest';
import { REDACTED, redactText } from './redact-text.js';

const R = REDACTED;
const HEX = '0123456789abcdef0123456789abcdef';

describe('redactText: every secret is replaced, whatever the order the rules find them in', () => {
  it.each([
    // Hex runs are found after the trigger words: one before a key=value is replaced all the same.
    [`h ${HEX} token=abcd1234`, `h ${R} token=${R}`],
    [`token=abcd1234 ${HEX}`, `token=${R} ${R}`],
    // A hex run inside a header value is part of that value: the value is replaced to its end.
    [`Authorization: x ${HEX} y`, `Authorization: ${R}`],
    [`Cookie: ${HEX} sid=1; path=/`, `Cookie: ${R}`],
    // A secret at the very start of the text is replaced like any other.
    ['ghp_abcdefghijk1 x', `${R} x`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: a header value written in text runs to the end of its line or its quote', () => {
  it.each([
    // Control characters are not line ends (tap.ts redacts reasons that were not stripped).
    ['Cookie: a=1\u0001b', `Cookie: ${R}`],
    ['"cookie": "a=1\u0001b", "x": 1', `"cookie": "${R}", "x": 1`],
    // Only a double quote is escaped as \" (a value inside a JSON string): before a single quote or
    // at the end of the line, a backslash is part of the value.
    ["Cookie: 'a=1\\'", `Cookie: '${R}'`],
    ['Cookie: a=1\\', `Cookie: ${R}`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: scanning resumes after a replaced value', () => {
  it.each([
    // A secret-sounding word inside a value does not take what follows the value as its own.
    ['password=my_token : shown', `password=${R} : shown`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: an AWS access key id is AKIA and 16 digits or capitals, any of them', () => {
  it.each([
    ['key AKIA09AZ09AZ09AZ09AZ', `key ${R}`],
    ['key AKIA90ZA90ZA90ZA90ZA', `key ${R}`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: a backslash escapes a following double quote only (text inside a JSON string)', () => {
  it.each([
    // `token\x` is not the key `token`, and `\a` does not open a quoted header value.
    ['token\\x=abcd1234', 'token\\x=abcd1234'],
    ['Cookie: \\a=1', `Cookie: ${R}`],
    // An escaped line break right after `=` is an empty value: what follows is the next line.
    ['token=\\nabcd1234', 'token=\\nabcd1234'],
    ['token: \\"abcd1234\\"', `token: \\"${R}\\"`],
    // A quoted header value ends at its own kind of quote.
    ["Cookie: 'a=1\"b' x", `Cookie: '${R}' x`],
    ['Cookie: "a=1\'b" x', `Cookie: "${R}" x`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: where a word ends', () => {
  it.each([
    // A key or a hex run is made of A–Z, a–z, 0–9, `_` and `-`: it ends before `{` or `é`.
    ['key ghp_abcdefghijk1é', `key ${R}é`],
    [`h ${HEX}é`, `h ${R}é`],
    [`h ${HEX}{`, `h ${R}{`],
    // An empty quoted value is empty, whatever follows its closing quote.
    ['token=""abcd1234', 'token=""abcd1234'],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: a backslash inside a value is part of it unless it escapes a quote or a line break', () => {
  it.each([
    // `\a` is no escape a JSON string ends a value with: the value is still a secret (it leaked).
    ['token=\\abcd1234', `token=${R}`],
    ['token=ab\\cd1234 x', `token=${R} x`],
    // An escaped backslash is one character of the value: the quote after it is not escaped and
    // closes the value; an escaped quote after one still closes it.
    ['"token=abcd\\\\" x', `"token=${R}" x`],
    ['"token=ab\\\\cd12\\" x', `"token=${R}\\" x`],
    // A backslash escapes nothing else: a space after one still ends the value.
    ['token=abcd\\ x', `token=${R} x`],
    // Escaped quotes and line breaks end it, as in text inside a JSON string.
    ['token=abcd1234\\"x', `token=${R}\\"x`],
    ['token=abcd1234\\nnext', `token=${R}\\nnext`],
    ['token=abcd1234\\rnext', `token=${R}\\rnext`],
    ['token=abcd1234\\tnext', `token=${R}\\tnext`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: a credential runs to where a value ends, never stopping inside itself', () => {
  it.each([
    // A token68's `=` is only padding: characters after it are still the credential (they leaked).
    ['Bearer ab/token=abcdefgh', `Bearer ${R}`],
    ['Bearer ab/token=abcdefgh next', `Bearer ${R} next`],
    ['Bearer abcd1234==ef x', `Bearer ${R} x`],
    // A provider key right after the padding is part of the same credential: one replacement.
    ['Bearer abcdefg1==ghp_abcdefghijk1', `Bearer ${R}`],
    // A character outside token68 does not end it either; a quote, a space, `,` `;` `&` `}` do.
    ['Bearer abcd1234%41bc x', `Bearer ${R} x`],
    ['"Bearer ab/d=efgh", 1', `"Bearer ${R}", 1`],
    ['Bearer abcd1234, next', `Bearer ${R}, next`],
    ['Bearer abcd1234; next', `Bearer ${R}; next`],
    ['Bearer abcd1234&x=1', `Bearer ${R}&x=1`],
    ['{"a":"Bearer abcd1234"}', `{"a":"Bearer ${R}"}`],
    ['{\\"a\\":\\"Bearer ab/d=efgh\\"}', `{\\"a\\":\\"Bearer ${R}\\"}`],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: what makes a word a credential or a provider key', () => {
  it.each([
    // A dash is no digit: a lowercase word with dashes after a scheme word is a word, not a credential.
    ['Bearer some-value next', 'Bearer some-value next'],
    // A provider prefix needs a digit after it; a dash there is none.
    ['key sk-abcdefgh-ijklmn', 'key sk-abcdefgh-ijklmn'],
    // Only the key's own characters count: a digit before the prefix does not make it a key.
    ['12 sk-abcdefghijklmn', '12 sk-abcdefghijklmn'],
  ])('%j → %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});
