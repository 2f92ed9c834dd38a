// What a worker records of one cell's wire while a client library runs it, apart from what the
// library returns: the HTTP status of each tools/call POST, the tools/call requests it sent (its
// own retries included), the JSON-RPC error codes the server sent for them, and POST activity for
// the drain window. Plain ESM, shipped as-is (worker.mjs and the stack adapters share it).

/** A fresh log for one cell. */
export function createCellLog() {
  return {
    /** HTTP status of each tools/call POST of the current call, in order; 0 = no status. */
    statuses: [],
    /** Ids of the current call's tools/call requests (to tell a peer's error codes). */
    toolCallIds: new Set(),
    /** JSON-RPC error codes the server sent for the current call's tools/call ids. */
    peerErrorCodes: new Set(),
    /** tools/call requests the library sent in the whole cell. */
    toolCallsSent: 0,
    /** Bumped on every POST started or settled: the drain window waits for it to stand still. */
    postActivity: 0,
    notes: [],
    pendingSends: new Set(),
  };
}

/** Clears the per-call part of the log before the next explicit call. */
export function startCall(log) {
  log.toolCallIds.clear();
  log.peerErrorCodes.clear();
  log.statuses.length = 0;
}

/** The wire context of the call just made (docs/adapter-observation.md, MapContext). */
export function readCallContext(log, protocolVersion) {
  return { protocolVersion, toolCallStatuses: [...log.statuses], peerErrorCodes: [...log.peerErrorCodes] };
}

/** A fetch that records into `log` (a library's `fetch` option), on top of `baseFetch`. */
export function createRecordingFetch(log, baseFetch = globalThis.fetch) {
  return (input, init) => recordFetch(log, input, init, baseFetch);
}

/**
 * Fetches, recording a tools/call POST's status (0 when fetch failed before one) and counting the
 * tools/call requests the body carries (a batch may carry several).
 */
export async function recordFetch(log, input, init, baseFetch) {
  const isPost = String(init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase() === 'POST';
  const toolCalls = countToolCalls(init?.body);
  log.toolCallsSent += toolCalls;
  if (isPost) log.postActivity++;
  try {
    const response = await baseFetch(input, init);
    if (toolCalls > 0) log.statuses.push(response.status);
    return response;
  } catch (error) {
    if (toolCalls > 0) log.statuses.push(0);
    throw error;
  } finally {
    if (isPost) log.postActivity++;
  }
}

function countToolCalls(body) {
  if (typeof body !== 'string' || !body.includes('"tools/call"')) return 0;
  try {
    const message = JSON.parse(body);
    const messages = Array.isArray(message) ? message : [message];
    return messages.filter((entry) => entry !== null && typeof entry === 'object' && entry.method === 'tools/call' && 'id' in entry).length;
  } catch {
    return 0;
  }
}

/**
 * After connect: note tools/call ids going out, peer error responses coming in, and what the
 * transport reports to onerror (the library's own log of what it dropped). Sends the library does
 * not await (notifications/cancelled after a timeout) are kept in `log.pendingSends`.
 */
export function watchTransport(transport, log, describe) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (message && message.method === 'tools/call') log.toolCallIds.add(message.id);
    const sending = send(message, options);
    // Requests are awaited by the library; notifications and responses may be fire-and-forget.
    if (!message || typeof message.method !== 'string' || !('id' in message)) {
      const settled = Promise.resolve(sending).then(
        () => {},
        () => {},
      );
      log.pendingSends.add(settled);
      settled.then(() => log.pendingSends.delete(settled));
    }
    return sending;
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message && message.error && typeof message.error.code === 'number' && log.toolCallIds.has(message.id)) log.peerErrorCodes.add(message.error.code);
    return onmessage?.call(transport, message, extra);
  };
  const onerror = transport.onerror;
  transport.onerror = (error) => {
    if (log.notes.length < 20) log.notes.push(`transport onerror: ${describe(error)}`);
    return onerror?.call(transport, error);
  };
}

// A notification or response the library sent without awaiting it (notifications/cancelled after
// a timeout) was still in flight when close() aborted the transport: the server recorded it in
// some runs and not others. The mock server answers these at once, so every one the client sent
// is delivered, and recorded, before the cell answers.
export async function flushPendingSends(log, limitMs = 2000) {
  if (log.pendingSends.size === 0) return;
  await Promise.race([Promise.allSettled([...log.pendingSends]), new Promise((resolve) => setTimeout(resolve, limitMs).unref())]);
}
