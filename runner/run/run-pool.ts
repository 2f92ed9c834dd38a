// Runs async jobs with bounded concurrency, keeping results in input order.

/** Maps `items` through `worker`, at most `concurrency` at a time; results keep the input order. */
export async function runPool<T, R>(items: readonly T[], concurrency: number, worker: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await worker(items[index]!, index);
    }
  });
  await Promise.all(lanes);
  return results;
}
