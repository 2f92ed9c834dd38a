// Keeps a large run's heap near what it really holds. A run that writes its cells to disk
// (run/cell-store.ts) reads every cell back once per pass (the baseline, TAP, each report), and a
// large table parses its cases again per pass (cases/lazy-loaded-case.ts), making hundreds of MB
// of short-lived objects per pass; V8 lets its heap grow to several times what is
// live before it collects, which took a run of 100,000 cells past 700 MB although it held under
// 200 MB (issue 28 item 4). Node has no runtime heap limit, so such a run collects the garbage itself
// once the heap has grown by GROWTH_BYTES since the last collection (a full GC of such a heap costs
// about 0.1-0.3 s; a run of 100,000 cells does a few dozen). Small runs never do this.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth of the heap, past what the last collection left, that triggers the next one. */
const GROWTH_BYTES = 96 * 1024 * 1024;
/** Cells between two looks at the heap (reading the heap's size costs about a microsecond). */
const CHECK_EVERY = 128;

let collect: (() => void) | undefined;

/** V8's collector, made callable once (the flag adds `gc` to contexts created from then on). */
function getCollector(): () => void {
  if (collect) return collect;
  setFlagsFromString('--expose-gc');
  collect = runInNewContext('gc') as () => void;
  return collect;
}

/** The heap in use plus the buffers outside it (a cell read back from disk arrives in one). */
function measure(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Counts work (a cell written or read); every CHECK_EVERY calls, collects if the heap grew by GROWTH_BYTES. */
export function createHeapBound(): { tick(): void } {
  const gc = getCollector();
  let calls = 0;
  let floor = measure();
  return {
    tick() {
      if (++calls % CHECK_EVERY !== 0) return;
      if (measure() < floor + GROWTH_BYTES) return;
      gc();
      floor = measure();
    },
  };
}
