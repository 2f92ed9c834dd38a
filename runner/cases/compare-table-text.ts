// The order the case table is sorted in (ids, file paths): the locale order of String#localeCompare,
// without its cost where it cannot differ. The first localeCompare of a process loads the ICU
// collator (about 15 ms of CPU, a tenth of `list`'s own time); for strings made only of
// lowercase ASCII letters, digits, '-', '.' and '/' (every bundled id and path), the locale order
// is the code-point order (compare-table-text.test.ts checks it against localeCompare).
const PLAIN = /^[a-z0-9./-]*$/;

/** Negative, zero or positive, as `a.localeCompare(b)` orders a and b. */
export function compareTableText(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}
