// The mixed large result (make-report-source.ts: 50 synthetic cases × 100 targets × the 4 protocol
// versions, then 12 hostile and family cells: 20,012 cells) made once per worker thread, for the report tests that
// only read it: three files built it five times, each build about 0.3 s of CPU and tens of MB for
// the garbage collector. Its lists and every cell, case and target in them are
// frozen, so a writer or a test that changed one would throw instead of changing the next file's
// input. (Not deeper: a cell's checks hold make-run-result's shared FAILING_CHECK, which other
// files' cells share too; and freezing every nested object cost half a build.)
import type { RunResult } from '../runner/vocabulary/types.js';
import { makeMixedLargeResult } from './make-report-source.js';
import { summarize } from './make-run-result.js';

let shared: RunResult | undefined;
const tails = new Map<number, RunResult>();

/** The mixed large result, frozen as above; the same object on every call in a thread. */
export function getMixedLargeResult(): RunResult {
  shared ??= freezeLists(makeMixedLargeResult());
  return shared;
}

/** Its last `count` cells (hostile and family cells among them) as a result of its own, frozen the same way. */
export function getMixedLargeTail(count: number): RunResult {
  let tail = tails.get(count);
  if (!tail) {
    const large = getMixedLargeResult();
    const cells = large.cells.slice(-count);
    tail = freezeLists({ ...large, cells, summary: summarize(cells) });
    tails.set(count, tail);
  }
  return tail;
}

/** Freezes the result, each of its lists and each item of those lists (a cell, a case, a target, a schema). */
function freezeLists(result: RunResult): RunResult {
  for (const value of Object.values(result)) {
    if (Array.isArray(value)) for (const item of value) Object.freeze(item);
    Object.freeze(value);
  }
  return Object.freeze(result);
}
