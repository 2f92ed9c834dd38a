// The loopback of one run for the built-in harness: one mock-server listener routed by a
// per-cell path, and one keep-alive connection pool to it, shared by the cells whose script
// leaves connections reusable (shares-connections.ts). Started on first use.
import type { Dispatcher } from 'undici';
import type { Case } from '../cases/case-types.js';
import type { MockServer } from '../mock-server/server.js';
import { startSharedMockServer, type SharedMockServer } from '../mock-server/shared-server.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { canShareConnections } from './shares-connections.js';

export interface ServerCell {
  server: MockServer;
  /** The run's shared pool, when the case may use it; otherwise the harness opens connections of its own. */
  connections: Dispatcher | undefined;
}

export interface ServerHosts {
  /** Opens a case on the shared listener under a fresh path. */
  open(item: Case, protocolVersion: ProtocolVersion): Promise<ServerCell>;
  /** Closes the pool and the listener; call once the run is over. */
  close(): Promise<void>;
}

/** Creates the run's loopback; nothing listens until the first cell opens. */
export function createServerHosts(): ServerHosts {
  let started: Promise<{ server: SharedMockServer; pool: Dispatcher }> | undefined;
  const start = async () => {
    // undici is imported on first use, as in the harness: direct mode never loads it.
    const [server, { Pool }] = await Promise.all([startSharedMockServer(), import('undici')]);
    return { server, pool: new Pool(server.origin) };
  };
  return {
    async open(item, protocolVersion) {
      const { server, pool } = await (started ??= start());
      return { server: server.open({ case: item, protocolVersion }), connections: canShareConnections(item) ? pool : undefined };
    },
    async close() {
      // A listener that failed to start has already failed its cells: nothing to close.
      const loopback = await started?.catch(() => undefined);
      if (!loopback) return;
      await loopback.pool.destroy();
      await loopback.server.close();
    },
  };
}
