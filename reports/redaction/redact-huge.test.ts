// redact's scans on texts of 6 to 50 MB: no throw, linear time, early stop. Kept apart from
// redact.test.ts so the mutation run (vitest.mutate.config.ts) does not rerun them for every
// mutant: redact-rules.test.ts and redact.test.ts state the rules on short texts.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, sanitizeText, toOneLine } from './redact.js';

describe('redaction of huge texts', () => {
  // Before: "Maximum call stack size exceeded" from a regex over one long run (6 MB and more).
  it.each([
    ['a 6 MB run of base64 characters', () => 'Qz9'.repeat(2 * 1024 * 1024)],
    ['a 6 MB run of word characters after a secret key', () => `token=${'x'.repeat(6 * 1024 * 1024)}`],
    ['a 6 MB header value', () => `Authorization: ${'y'.repeat(6 * 1024 * 1024)}`],
    ['a 6 MB unterminated OSC', () => `\u001b]${'z'.repeat(6 * 1024 * 1024)}`],
    ['6 MB of repeated triggers', () => 'sidtokensecret'.repeat(450_000)],
  ])('%s is processed without throwing', (_name, make) => {
    const text = make();
    expect(() => sanitizeText(text)).not.toThrow();
  });

  it('keeps the secret-free parts of a huge text and redacts what is inside it', () => {
    const filler = 'Qz9'.repeat(2 * 1024 * 1024);
    const text = `${filler} api_key=ZZZZ9999 ${filler}`;
    const clean = redactText(text);
    expect(clean.length).toBe(text.length - 'ZZZZ9999'.length + REDACTED.length);
    expect(clean).toContain(`api_key=${REDACTED}`);
  });

  it('handles a 32 MB text in time linear in its length', () => {
    const line = 'INFO request ok Bearer challenge http://127.0.0.1:1/x?q=1 session\n';
    const big = line.repeat(Math.ceil((32 * 1024 * 1024) / line.length));
    const small = line.repeat(Math.ceil((1024 * 1024) / line.length));
    const time = (text: string) => {
      const started = performance.now();
      expect(sanitizeText(text).length).toBe(text.length);
      return performance.now() - started;
    };
    time(small);
    const perMbSmall = time(small);
    const perMbBig = time(big) / 32;
    // Linear: a megabyte of a 32 MB text costs about what a 1 MB text costs (generous bound for a loaded machine).
    expect(perMbBig).toBeLessThan(Math.max(perMbSmall, 5) * 10);
  }, 120_000);
});

describe('toOneLine on a huge text', () => {
  const reference = (text: string, max = 300) => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
  };

  // Before: a regex replace over the whole text, minutes for this one (585 s measured on a loaded machine).
  it('stops early on a huge text with millions of whitespace runs', () => {
    const text = 'a b\n'.repeat(12_000_000);
    expect(toOneLine(text, 300)).toBe(reference(text.slice(0, 1000), 300));
  }, 60_000);
});
