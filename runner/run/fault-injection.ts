// TEST-ONLY fault injection: lets the fatal-path tests (test/hostile/fatal-paths.test.ts) break
// the runner itself mid-run, deterministically, without timing games. Inert unless the
// environment sets MEM_TEST_FAULT=<kind>@<when>:
//   throw@N     - the progress callback throws after the N-th cell (an internal error in a lane);
//   uncaught@N  - a timer throws after the N-th cell (an uncaught exception);
//   rejection@N - a promise rejects unhandled after the N-th cell;
//   exit@N      - process.exit(0) after the N-th cell (code that ends the process early);
//   sigterm@write - the process sends itself SIGTERM as the reports start being written.
// It never changes a result: it only breaks the process, as a bug or a signal would.

export type FaultPoint = { cellsDone: number } | 'write';

/** A hook that injects the configured fault at its point; undefined when MEM_TEST_FAULT is unset. */
export function createFaultInjector(env: NodeJS.ProcessEnv): ((point: FaultPoint) => void) | undefined {
  const match = /^(throw|uncaught|rejection|exit|sigterm)@(\d+|write)$/.exec(env['MEM_TEST_FAULT'] ?? '');
  if (!match) return undefined;
  const [, kind, when] = match;
  return (point) => {
    if (point === 'write' ? when !== 'write' : String(point.cellsDone) !== when) return;
    const error = new Error(`injected fault (MEM_TEST_FAULT=${kind}@${when})`);
    if (kind === 'throw') throw error;
    if (kind === 'uncaught') setTimeout(() => { throw error; }, 0);
    else if (kind === 'rejection') void Promise.reject(error);
    else if (kind === 'exit') process.exit(0);
    else process.kill(process.pid, 'SIGTERM');
  };
}
