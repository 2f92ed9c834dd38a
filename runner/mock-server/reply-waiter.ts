// Matches client JSON-RPC responses (POSTed separately) to server requests sent on a stream.
import { isDeepStrictEqual } from 'node:util';
import { setStallAwareTimeout } from '../starvation/loop-stall.js';

export interface ReplyWaiter {
  /** Resolves true when a reply with this id arrived (before or after the call), false on timeout or close. */
  wait(id: unknown, timeoutMs: number): Promise<boolean>;
  /** Registers a client response's id. */
  deliver(id: unknown): void;
  /** Resolves every pending wait with false and clears the timers. */
  close(): void;
}

interface PendingWait {
  id: unknown;
  settle(received: boolean): void;
}

/** Creates the per-server registry; nothing is shared between servers. */
export function createReplyWaiter(): ReplyWaiter {
  const delivered: unknown[] = [];
  const pending = new Set<PendingWait>();
  const takeDelivered = (id: unknown): boolean => {
    const index = delivered.findIndex((candidate) => isDeepStrictEqual(candidate, id));
    if (index < 0) return false;
    delivered.splice(index, 1);
    return true;
  };
  return {
    wait(id, timeoutMs) {
      // A fast client may answer before the server starts waiting.
      if (takeDelivered(id)) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const entry: PendingWait = {
          id,
          settle(received) {
            timer.clear();
            pending.delete(entry);
            resolve(received);
          },
        };
        // A stall of this process's loop is not the client's delay (runner/starvation/loop-stall.ts).
        const timer = setStallAwareTimeout(() => entry.settle(false), timeoutMs);
        pending.add(entry);
      });
    },
    deliver(id) {
      for (const entry of pending) {
        if (isDeepStrictEqual(entry.id, id)) return entry.settle(true);
      }
      delivered.push(id);
    },
    close() {
      for (const entry of [...pending]) entry.settle(false);
    },
  };
}
