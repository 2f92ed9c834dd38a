// Which scripts may keep their keep-alive connections on the run's shared listener. That the shared
// listener and connections change no verdict (every cell of the table, and a case that breaks its
// connection's framing, judged over the shared loopback equals the same cell judged against a
// server and connections of its own) is tested on the first http run of
// test/hostile/determinism.test.ts, which runs that table anyway.
import { describe, expect, it } from 'vitest';
import { FRAMING_BREAKER } from '../../test/framing-breaker.js';
import type { ResponseSpec } from '../cases/case-types.js';
import { makeCase, SUCCESS_JSON } from '../mock-server/test-cases.js';
import { canShareConnections } from './shares-connections.js';

describe('canShareConnections', () => {
  it('keeps connections only for scripts whose every response ends cleanly on a reusable connection', () => {
    expect(canShareConnections(makeCase([{ body: { json: SUCCESS_JSON } }, { status: 503, headers: { 'Retry-After': '0' } }]))).toBe(true);
    expect(canShareConnections(makeCase([{ body: { sse: { events: [{ data: SUCCESS_JSON, response: true }], end: 'close' } } }]))).toBe(true);
    expect(canShareConnections(FRAMING_BREAKER.case)).toBe(false);
    const breakers: ResponseSpec[] = [
      { start: 'hang' as const },
      { start: 'reset' as const },
      { status: 101 },
      { headers: { connection: 'close' } },
      { headers: { 'Transfer-Encoding': 'chunked' }, body: { raw: 'x' } },
      { body: { sse: { events: [], end: 'reset' as const } } },
      { body: { sse: { events: [], end: 'hang' as const } } },
    ];
    for (const response of breakers) {
      expect(canShareConnections(makeCase([{ body: { json: SUCCESS_JSON } }, response])), JSON.stringify(response)).toBe(false);
    }
  });
});
