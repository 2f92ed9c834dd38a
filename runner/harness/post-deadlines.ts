// The time budgets of one session's POSTs: one timer and one abort listener for all of them,
// instead of an AbortController, an AbortSignal.any and a timer per POST.
import { readLostMs } from '../starvation/loop-stall.js';

/** One POST being watched: whether it was stopped, and how to stop watching it. */
export interface WatchedPost {
  /** The POST's own deadline passed (it is then stopped as a timeout). */
  readonly expired: boolean;
  /** The POST ended: its deadline no longer applies. */
  release(): void;
}

export interface PostDeadlines {
  /** Whether the caller's signal has aborted (every POST then ends as a timeout). */
  readonly aborted: boolean;
  /** Starts a POST's budget now; `stop` is called once when it runs out or the caller's signal aborts. */
  watch(stop: () => void): WatchedPost;
  /** Clears the timer and the link to the caller's signal; call when the session is over. */
  close(): void;
}

interface Entry {
  /** When the POST runs out of time: its start + timeoutMs, plus the loop stalls credited to it. */
  deadline: number;
  /** readLostMs() when the lost time was last credited to this POST. */
  stallSeen: number;
  /** The stalled time added so far (at most timeoutMs: a POST waits at most twice its budget). */
  credited: number;
  /** Whether the one more loop turn before it is stopped was given (see expire). */
  lastTurn: boolean;
  expired: boolean;
  stop: () => void;
}

// A timer may fire up to a millisecond before performance.now() reaches the deadline (libuv keeps
// a cached loop time): a POST that close to its deadline is stopped then, not after one more turn.
const FIRE_TOLERANCE_MS = 1;

/**
 * Watches the POSTs of one session, each against its own deadline of `timeoutMs` from its start.
 * Every POST gets the same budget, so deadlines come in start order: the one timer, armed for the
 * earliest, is never late for a later POST; when it fires it stops the POSTs past their deadline
 * and re-arms for the next one still open. The caller's signal gets one listener for the whole
 * session, removed by close(): give it a signal of the session's own (runCell gives each cell one,
 * linked to the run's through AbortSignal.any), never one shared by many sessions at once.
 */
export function createPostDeadlines(timeoutMs: number, signal?: AbortSignal): PostDeadlines {
  const open = new Set<Entry>();
  let timer: NodeJS.Timeout | undefined;
  const stopAll = (): void => {
    for (const entry of [...open]) stopEntry(entry);
  };
  const stopEntry = (entry: Entry): void => {
    open.delete(entry);
    entry.stop();
  };
  const arm = (deadline: number, now: number): void => {
    timer = setTimeout(expire, Math.max(1, Math.ceil(deadline - now)));
  };
  // The time this process's event loop stalled (or waited for a CPU) while a POST waited is not
  // counted against it (runner/starvation/loop-stall.ts): after a stall, expired timers run before the socket is read, so an
  // answer the server had already sent would otherwise be lost to the deadline. Credits keep the
  // deadlines in start order: a later POST saw no stall that an earlier one did not.
  const expire = (): void => {
    timer = undefined;
    const now = performance.now();
    const stalled = readLostMs();
    for (const entry of [...open]) {
      const owed = Math.min(stalled - entry.stallSeen, timeoutMs - entry.credited);
      entry.stallSeen = stalled;
      if (owed > 0) {
        entry.credited += owed;
        entry.deadline += owed;
      }
      if (entry.deadline > now + FIRE_TOLERANCE_MS) return arm(entry.deadline, now);
      // Then one more turn of the loop, once, so the sockets are read first (a stall past the
      // credit, or a short lateness not counted as a stall).
      if (!entry.lastTurn) {
        entry.lastTurn = true;
        return arm(now + 1, now);
      }
      entry.expired = true;
      stopEntry(entry);
    }
  };
  signal?.addEventListener('abort', stopAll, { once: true });
  return {
    get aborted() {
      return signal?.aborted ?? false;
    },
    watch(stop) {
      const now = performance.now();
      const entry: Entry = { deadline: now + timeoutMs, stallSeen: readLostMs(), credited: 0, lastTurn: false, expired: false, stop };
      if (signal?.aborted) {
        stop();
      } else {
        open.add(entry);
        if (timer === undefined) arm(entry.deadline, now);
      }
      return {
        get expired() {
          return entry.expired;
        },
        release: () => void open.delete(entry),
      };
    },
    close() {
      clearTimeout(timer);
      timer = undefined;
      open.clear();
      signal?.removeEventListener('abort', stopAll);
    },
  };
}
