// The per-exchange timeout for tests that run a real client (an SDK worker, a command) on cells whose
// script answers at once.
//
// A cell whose outcome a deadline produced while a process that timed it was starved past a
// quarter of the timeout is `error` until runMatrix confirms it by running it again
// (runner/starvation/judge-starvation.ts, runner/run/confirm-cells.ts). The tests share worker
// threads with other files, so on a loaded machine their loop can stall for a second or more. A
// cell that is answered at once never waits for its timeout, so a long one costs nothing and keeps
// the threshold (2.5 s here) out of reach, leaving the mechanism to the tests that are about it
// (runner/run/stalled-client.test.ts, runner/targets/sdk/starved-worker.test.ts).
export const ANSWERED_AT_ONCE_TIMEOUT_MS = 10_000;
