// Loaded into a client's own process (`NODE_OPTIONS=--import=<this file>`) by an adapter that runs a
// command-line client per call (inspector-cli.mjs): the process-boundary twin of the worker's
// recording fetch (../cell-log.mjs). It wraps the global fetch, which the client's SDK calls for every
// POST, and reports on stderr, one line each, prefixed WIRE_PREFIX so the adapter can take them out of
// what the client printed:
//   {"sent": n}                   a POST carrying n tools/call requests is about to go out
//   {"status": s}                 the HTTP status of that POST (0: fetch failed before one)
//   {"peerError": {code, message}}  a JSON-RPC error the server sent for one of those requests' ids
// It changes nothing the client sees: the response is returned as fetched, and the error codes are
// read from a clone. A child process the client starts inherits NODE_OPTIONS and reports too. Only
// where MEM_CLI_WIRE=1 (the adapter imports this module for WIRE_PREFIX and must not be wrapped).
import { writeSync } from 'node:fs';

export const WIRE_PREFIX = '\u0001mem-wire ';

const baseFetch = globalThis.fetch;
if (process.env.MEM_CLI_WIRE === '1' && typeof baseFetch === 'function') {
  globalThis.fetch = async (input, init) => {
    const ids = readToolCallIds(init?.body);
    if (ids.length === 0) return baseFetch(input, init);
    report({ sent: ids.length });
    let response;
    try {
      response = await baseFetch(input, init);
    } catch (error) {
      report({ status: 0 });
      throw error;
    }
    report({ status: response.status });
    readPeerErrors(response.clone(), new Set(ids)).catch(() => {});
    return response;
  };
}

function report(event) {
  try {
    // Synchronous: a process that exits (or is stopped) right after still has every line out.
    writeSync(2, `${WIRE_PREFIX}${JSON.stringify(event)}\n`);
  } catch {
    // stderr closed: nothing to report to.
  }
}

function readToolCallIds(body) {
  if (typeof body !== 'string' || !body.includes('"tools/call"')) return [];
  try {
    const message = JSON.parse(body);
    return (Array.isArray(message) ? message : [message]).filter((entry) => entry?.method === 'tools/call' && 'id' in entry).map((entry) => entry.id);
  } catch {
    return [];
  }
}

// A JSON body, or the data of each SSE event as it arrives (a stream may never end).
async function readPeerErrors(response, ids) {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body) return;
  if (!type.includes('text/event-stream')) return reportErrors(safeParse(await response.text()), ids);
  const decoder = new TextDecoder();
  let buffer = '';
  let data = [];
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) reportErrors(safeParse(data.join('\n')), ids);
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  }
}

function reportErrors(message, ids) {
  for (const entry of Array.isArray(message) ? message : [message]) {
    if (entry && typeof entry === 'object' && ids.has(entry.id) && entry.error && typeof entry.error.code === 'number') {
      report({ peerError: { code: entry.error.code, message: typeof entry.error.message === 'string' ? entry.error.message.slice(0, 500) : '' } });
    }
  }
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
