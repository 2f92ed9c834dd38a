// The mock-server hosts of one run: listening sockets reused from cell to cell (one case armed
// at a time each), so a loopback cell no longer pays a listen and a close of its own.
import { createMockServerHost, type MockServerHost } from '../mock-server/server.js';

export interface ServerHosts {
  /** An idle host, or a new one when every host is busy. */
  acquire(): Promise<MockServerHost>;
  /** Returns a host whose case is closed; `reusable: false` (a target may still be talking to it) closes it instead. */
  release(host: MockServerHost, reusable: boolean): Promise<void>;
  /** Closes every idle host; call once the run is over. */
  close(): Promise<void>;
}

/** Creates the (empty) set of hosts for a run; hosts are started on demand, at most one per lane. */
export function createServerHosts(): ServerHosts {
  const idle: MockServerHost[] = [];
  return {
    acquire: async () => idle.pop() ?? (await createMockServerHost()),
    async release(host, reusable) {
      if (reusable) idle.push(host);
      else await host.close();
    },
    async close() {
      await Promise.all(idle.splice(0).map((host) => host.close()));
    },
  };
}
