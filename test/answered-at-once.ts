// The per-exchange timeout for tests that run a real client (an SDK worker, a command) on cells whose
// script answers at once.
//
// A real client's cell is `error` ("not measured") when this process's event loop stalled, while
// the mock server held a request of the cell, for half the timeout or more (runner/run/run-cell.ts).
// The tests share worker threads with other files, so on a loaded machine their loop can stall
// for a second or more (a stall of that size at a 2,000 ms timeout made a full-suite run fail).
// A cell that is answered at once never waits for its timeout, so a long one costs nothing and
// keeps the stall guard, which is tested on its own (runner/run/stalled-client.test.ts), out of
// tests that are about verdicts.
export const ANSWERED_AT_ONCE_TIMEOUT_MS = 10_000;
