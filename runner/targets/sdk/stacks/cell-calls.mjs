// The part of a cell every stack adapter runs alike: the cell's calls one after another, each mapped
// to a verdict, and a close that may not hold the cell's answer. Plain ESM, shipped as-is.

/** Runs `call(index)` `cell.calls` times, resetting the per-call part of the log the mappers read. */
export async function collectVerdicts(cell, log, call, mapResult, mapError) {
  const verdicts = [];
  for (let index = 0; index < cell.calls; index++) {
    log.toolCallIds.clear();
    log.statuses.length = 0;
    try {
      verdicts.push(mapResult(await call(index)));
    } catch (error) {
      verdicts.push(mapError(error));
    }
  }
  return verdicts;
}

/** Closes a client, waiting `limitMs` at most: a close that hangs must not hold the cell's answer. */
export async function closeWithin(close, limitMs = 500) {
  const closing = Promise.resolve()
    .then(close)
    .catch(() => {});
  await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, limitMs).unref())]);
}
