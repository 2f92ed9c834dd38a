// Report inputs for the tests of the streamed writers: a mixed 10,000-cell result and a source
// that makes its cells afresh on every read, as a generator over a huge run does.
import type { ReportSource } from '../reports/model/index.js';
import type { Cell, RunResult } from '../runner/vocabulary/types.js';
import { HOSTILE, makeCell, makeHostileRunResult, makeRunResult, makeSyntheticRunResult, summarize } from './make-run-result.js';

/** 10,000 synthetic cells, then hostile cells, a two-version target family, raw C1 and separator characters. */
export function makeMixedLargeResult(): RunResult {
  const synthetic = makeSyntheticRunResult({ cases: 50, targets: 100 });
  const hostile = makeHostileRunResult();
  const family = ['sdk@1.0.0', 'sdk@1.1.0'].flatMap((target, i) =>
    synthetic.cases.slice(0, 3).map((item, j) => makeCell({ case: item.id, target, status: (i + j) % 2 ? 'pass' : 'fail', reason: `raw \u009b[31m and \u2028 separator ${j}` })),
  );
  const cells = [...synthetic.cells, ...hostile.cells, ...family];
  return makeRunResult({
    cases: [...synthetic.cases, ...hostile.cases.filter((item) => !synthetic.cases.some((other) => other.id === item.id))],
    targets: [...synthetic.targets, ...hostile.targets, { name: 'sdk@1.0.0', kind: 'sdk', version: '1.0.0' }, { name: 'sdk@1.1.0', kind: 'sdk', version: `1.1.0 ${HOSTILE}` }],
    cells,
    summary: summarize(cells),
  });
}

/** A source that makes every cell afresh on each read and counts the reads; its head has no `cells` key. */
export function makeFreshSource(result: RunResult): ReportSource & { reads: number } {
  const { cells, ...head } = result;
  const copy = (cell: Cell): Cell => structuredClone(cell);
  const source = {
    head,
    cellCount: cells.length,
    reads: 0,
    *cells() {
      for (const cell of cells) {
        source.reads++;
        yield copy(cell);
      }
    },
    cellAt(index: number) {
      source.reads++;
      return copy(cells[index]!);
    },
  };
  return source;
}
