import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTableText } from './compare-table-text.js';

describe('compareTableText', () => {
  it('orders plain ids and paths exactly as localeCompare does', () => {
    const plain = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-./'), maxLength: 12 });
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        expect(Math.sign(compareTableText(a, b))).toBe(Math.sign(a.localeCompare(b)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('falls back to localeCompare for anything else (capitals, underscores, accents)', () => {
    for (const [a, b] of [['B', 'a'], ['a_b', 'a-b'], ['é', 'f'], ['Case', 'case']] as const) {
      expect(Math.sign(compareTableText(a, b))).toBe(Math.sign(a.localeCompare(b)));
    }
    expect(compareTableText('B', 'a')).toBeGreaterThan(0); // code points would put B first
  });
});
