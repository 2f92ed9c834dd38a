// The persistent lane's processes for one `command:… #persistent[=N]` target: up to N client
// processes, each holding several cells at once. A cell that misses its time limit fails alone
// and its process is retired (it takes no new cells and is ended once the cells it still holds
// are settled), so one stuck cell never costs the others. A client that keeps dying before it
// answers anything is given up on after a few starts, so a broken client cannot restart forever.
import { setStallAwareTimeout, type StallAwareTimeout } from '../../starvation/loop-stall.js';
import type { TargetContext, TargetOutcome } from '../../vocabulary/types.js';
import { PersistentProcess, type CellAnswer } from './persistent-process.js';
import { formatCellLine } from './persistent-protocol.js';
import { readReportValue } from './read-client-report.js';

export interface PersistentPoolOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  runMark: string;
  /** Client processes at most. @default 1 */
  processes?: number;
  /** The longest answer line. */
  maxLineChars?: number;
}

/** Starts that die before answering any cell, in a row, after which the client is given up on. */
export const MAX_DEAD_STARTS = 3;

export class PersistentPool {
  private readonly live: PersistentProcess[] = [];
  private readonly retiring = new Set<PersistentProcess>();
  private deadStarts = 0;
  private lastDeath = '';
  private nextCell = 0;
  private closed = false;
  /** Processes started so far (for tests and the bench). */
  starts = 0;

  constructor(private readonly options: PersistentPoolOptions) {}

  /** Runs one cell on a client of the pool; never throws: what went wrong is the outcome's `error`. */
  async run(context: TargetContext, serverUrl: string, timeoutMs: number): Promise<TargetOutcome> {
    if (context.signal.aborted) return { verdicts: [], error: 'interrupted: the run was aborted' };
    if (this.deadStarts >= MAX_DEAD_STARTS) {
      return { verdicts: [], error: `the persistent client exited ${MAX_DEAD_STARTS} times in a row before answering any cell; it is not started again. The last time: ${this.lastDeath}` };
    }
    if (this.closed) return { verdicts: [], error: 'the persistent client was already closed (harness bug)' };
    const client = this.pick();
    const cell = `c${++this.nextCell}`;
    const window = client.openWindow();
    let timedOut = false;
    const answer = await new Promise<CellAnswer>((settle) => {
      let done = false;
      const finish = (value: CellAnswer): void => {
        if (done) return;
        done = true;
        timer.clear();
        context.signal.removeEventListener('abort', onAbort);
        settle(value);
      };
      // Stall-aware: an answer the client wrote while this loop stalled is read before the limit ends.
      const timer: StallAwareTimeout = setStallAwareTimeout(() => {
        timedOut = true;
        client.cancel(cell);
        this.retire(client);
        finish({ error: `the persistent client gave no answer for this cell within ${timeoutMs} ms; its client takes no more cells and a new one is started` });
      }, timeoutMs);
      const onAbort = (): void => {
        client.cancel(cell);
        finish({ error: 'interrupted: the run was aborted' });
      };
      context.signal.addEventListener('abort', onAbort, { once: true });
      client.send(cell, formatCellLine(cell, context, serverUrl), finish);
    });
    const measured = client.measureSince(window);
    const starvation = measured ? { starvation: [measured] } : {};
    this.endIfIdle(client);
    if ('error' in answer) return { verdicts: [], error: answer.error, ...starvation, ...(timedOut ? { errorKind: 'timeout' as const } : {}) };
    const report = readReportValue(answer.report, 'stdout', context.case.client?.calls ?? 1);
    if (report.skip !== undefined) return { verdicts: [], skip: report.skip };
    return { verdicts: report.verdicts, ...(report.invalidVerdicts.length ? { invalidVerdicts: report.invalidVerdicts } : {}), ...starvation };
  }

  /** Ends every client: input closed, then killed with everything it started if it lingers. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.live, ...this.retiring];
    this.live.length = 0;
    this.retiring.clear();
    await Promise.all(all.map((client) => client.close()));
  }

  // The live client with the fewest cells in flight; a new one while the pool is below its size.
  private pick(): PersistentProcess {
    const size = Math.max(1, this.options.processes ?? 1);
    const idle = this.live.find((client) => client.inFlight === 0);
    if (idle || this.live.length >= size) return idle ?? this.live.reduce((best, next) => (next.inFlight < best.inFlight ? next : best));
    const client = new PersistentProcess(this.options, (gone, selfExit, why) => this.forget(gone, selfExit, why));
    this.starts++;
    this.live.push(client);
    return client;
  }

  private retire(client: PersistentProcess): void {
    const index = this.live.indexOf(client);
    if (index === -1) return;
    this.live.splice(index, 1);
    this.retiring.add(client);
  }

  private endIfIdle(client: PersistentProcess): void {
    if (!this.retiring.has(client) || client.inFlight > 0) return;
    this.retiring.delete(client);
    void client.close();
  }

  private forget(client: PersistentProcess, selfExit: boolean, why: string): void {
    const index = this.live.indexOf(client);
    if (index !== -1) this.live.splice(index, 1);
    this.retiring.delete(client);
    if (!selfExit) return;
    if (client.answered > 0) this.deadStarts = 0;
    else {
      this.deadStarts++;
      this.lastDeath = why;
    }
  }
}
