// The word and definition of each cell status, as every human-readable report shows them.
import type { CellStatus } from '../../runner/vocabulary/types.js';

export interface StatusStyle {
  /** The word shown in every cell: colour is never the only signal. */
  word: string;
  description: string;
}

// Exhaustive: a new CellStatus fails to compile until it has a word, a colour class and a definition.
export const STATUS_STYLE: Record<CellStatus, StatusStyle> = {
  pass: { word: 'PASS', description: 'Every check passed.' },
  fail: { word: 'FAIL', description: 'A MUST check failed: the target violates the specification.' },
  non_strict: { word: 'NON-STRICT', description: 'Every MUST check passed, but a SHOULD or POLICY check failed.' },
  skip: { word: 'SKIP', description: 'Not run: the target does not support this case or protocol version.' },
  error: { word: 'ERROR', description: 'Not measured: the harness or the target broke (crash, timeout, unreadable verdict).' },
  xfail: { word: 'XFAIL', description: 'Failed as the baseline of known failures expects; does not fail the run.' },
  xpass: { word: 'XPASS', description: 'Passed although the baseline lists it as a known failure: the baseline entry is stale and fails the run.' },
};
