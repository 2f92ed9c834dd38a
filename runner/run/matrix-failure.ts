// A bug in the runner itself (a throwing progress callback, schema check...) stops the matrix
// the way a signal does: the cells not started are left out, the cells running are stopped
// (client processes killed), and the result so far travels with the error, marked incomplete,
// so the command can still write it before it reports the bug and exits 1.
import type { RunResult } from '../vocabulary/types.js';

/** The matrix stopped on an internal error; `partial` is the result so far (complete: false). */
export class MatrixFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly partial: RunResult,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'MatrixFailure';
  }
}
