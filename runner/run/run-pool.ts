// Runs async jobs with bounded concurrency, keeping results in input order.

/** How many jobs may run at once, read again before each job starts (adaptive-concurrency.ts). */
export interface PoolLimit {
  current(): number;
}

/**
 * Maps `items` through `worker`, at most `concurrency` at a time (a number, or a limit read before
 * each start, so a limit that falls lets running jobs finish and starts fewer); results keep the
 * input order. Rejects with the first job that throws.
 */
export function runPool<T, R>(items: readonly T[], concurrency: number | PoolLimit, worker: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const limit = typeof concurrency === 'number' ? { current: () => concurrency } : concurrency;
  const results = new Array<R>(items.length);
  let next = 0;
  let active = 0;
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      if (next >= items.length && active === 0) return resolve(results);
      while (next < items.length && active < Math.max(1, limit.current())) {
        const index = next++;
        active++;
        worker(items[index]!, index).then(
          (result) => {
            results[index] = result;
            active--;
            pump();
          },
          (error: unknown) => reject(error),
        );
      }
    };
    pump();
  });
}
