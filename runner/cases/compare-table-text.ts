// The order the case table is sorted in (ids, file paths), and every report after it: English
// collation (String#localeCompare with 'en'), pinned, so the order is the same on every machine.
// Without a locale, localeCompare follows the machine's (LANG): under lt_LT 'y' sorts before 'j',
// so the same inputs gave other report bytes, and this module's own fast path below disagreed with
// its fallback. The first collation of a process loads the ICU collator (about 15 ms of CPU, a
// tenth of `list`'s own time); for strings made only of lowercase ASCII letters, digits, '-', '.'
// and '/' (every bundled id and path), English order is the code-point order
// (compare-table-text.test.ts checks it), so those skip the collator.
const PLAIN = /^[a-z0-9./-]*$/;
const LOCALE = 'en';

/** Negative, zero or positive, as `a.localeCompare(b, 'en')` orders a and b. */
export function compareTableText(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b, LOCALE);
}
