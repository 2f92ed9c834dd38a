// One cell of the truth corpus, probe side: a mock server for the case (as the runner starts it), the
// probe's client opened against it, the case's calls one after another, and, from the server's
// recording, each call's wire context and the number of tools/call the server received.
import { DEFAULT_TOOL, type LoadedCase } from '../../runner/cases/case-types.js';
import { startMockServer } from '../../runner/mock-server/server.js';
import type { ProtocolVersion } from '../../runner/vocabulary/types.js';
import type { ProbeProcess } from './probe-process.js';
import { normalizeVolatile } from './normalize-volatile.js';
import { countToolCalls, readCallContext, type MapContext } from './wire-context.js';

/** How long the server may still be sending after the client closed, before its recording is read. */
const SETTLE_MS = 2000;
/** Calls that took at least this long record how long (in seconds, as information, never asserted). */
const NOTE_DURATION_FROM_MS = 5000;

export interface ProbeCall {
  /** What the library gave the host (docs/adapter-observation.md, CallObservation). */
  observation: Record<string, unknown>;
  context: MapContext;
  tookSeconds?: number;
}

export type ProbeCellRecord = { calls: ProbeCall[]; toolCallsReceived: number } | { openFailed: Record<string, unknown>; toolCallsReceived: number };

export async function probeCell(probe: ProbeProcess, loaded: LoadedCase, protocolVersion: ProtocolVersion): Promise<ProbeCellRecord> {
  const item = loaded.case;
  const tool = item.tool ?? DEFAULT_TOOL;
  const server = await startMockServer({ case: item, protocolVersion });
  const origin = new URL(server.url).origin;
  try {
    const opened = await probe.send({ op: 'open', url: server.url, protocolVersion, tool: tool.name });
    const bounds: { start: number; answer: { call: Record<string, unknown>; tookMs: number } }[] = [];
    if ('opened' in opened) {
      for (let index = 0; index < (item.client?.calls ?? 1); index++) {
        const start = server.recording().exchanges.length;
        const answer = await probe.send({ op: 'call', arguments: tool.arguments ?? {} });
        if (!('call' in answer)) throw new Error(`the probe answered a call with ${JSON.stringify(answer)}`);
        bounds.push({ start, answer });
      }
    }
    await probe.send({ op: 'close' });
    await server.settle(SETTLE_MS);
    const exchanges = server.recording().exchanges;
    const toolCallsReceived = countToolCalls(exchanges);
    if ('openFailed' in opened) return { openFailed: normalizeVolatile(opened.openFailed, origin), toolCallsReceived };
    const calls = bounds.map(({ start, answer }, index): ProbeCall => {
      // A call's exchanges run until the next call starts (the last one's until the end: late re-sends count).
      const end = bounds[index + 1]?.start ?? exchanges.length;
      const call: ProbeCall = { observation: normalizeVolatile(answer.call, origin), context: readCallContext(exchanges.slice(start, end), protocolVersion) };
      if (answer.tookMs >= NOTE_DURATION_FROM_MS) call.tookSeconds = Math.round(answer.tookMs / 1000);
      return call;
    });
    return { calls, toolCallsReceived };
  } finally {
    await server.close();
  }
}
