// One long-lived client process of the persistent lane: cells go in as lines on its stdin,
// answers come back as lines on its stdout. It runs in its own process group with a marker
// variable (like a one-process-per-cell client), so ending it ends everything it started.
// Whatever goes wrong — an exit, a line that breaks the protocol, a flood — fails the cells it
// holds with the reason and ends the process; the pool starts another for the next cells.
import { spawn, type ChildProcess } from 'node:child_process';
import { processGroups, type GroupMark, type TrackedGroup } from '../../starvation/process-groups.js';
import type { ProcessStarvation } from '../../vocabulary/types.js';
import { describeExit } from './spawn-client.js';
import { CELL_MARK_VARIABLE, createMarkToken, killMarkedProcesses, RUN_MARK_VARIABLE } from './process-marks.js';
import { formatCancelLine, LineSplitter, MAX_ANSWER_LINE_CHARS, PERSISTENT_PROTOCOL, readAnswerLine } from './persistent-protocol.js';

export type CellAnswer = { report: unknown } | { error: string };

export interface PersistentProcessOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The run's marker token (RUN_MARK_VARIABLE). */
  runMark: string;
  /** @default MAX_ANSWER_LINE_CHARS */
  maxLineChars?: number;
}

const STDERR_TAIL_CHARS = 2000;
// How long a process gets to exit by itself once its input is closed.
const CLOSE_GRACE_MS = 1000;

export class PersistentProcess {
  private readonly child: ChildProcess;
  private readonly cellMark: string;
  private readonly pending = new Map<string, (answer: CellAnswer) => void>();
  // Every cell ever sent to this process, so a late answer (after a timeout) is told apart from an invented one.
  private readonly sent = new Set<string>();
  private stderrTail = '';
  private ended = false;
  private closing = false;
  private readonly exited: Promise<void>;
  /** Its process group, tracked for the process's life: each cell reads its members' CPU wait over its own window. */
  private readonly group: TrackedGroup | undefined;
  /** Cells this process answered. */
  answered = 0;
  /** It exited or was stopped: it takes no more cells. */
  get gone(): boolean {
    return this.ended;
  }
  get inFlight(): number {
    return this.pending.size;
  }

  constructor(
    options: PersistentProcessOptions,
    private readonly onGone: (process: PersistentProcess, selfExit: boolean, why: string) => void,
  ) {
    this.cellMark = `${options.runMark}.${createMarkToken()}`;
    const env = { ...options.env, [RUN_MARK_VARIABLE]: options.runMark, [CELL_MARK_VARIABLE]: this.cellMark, MCP_MATRIX_PERSISTENT: PERSISTENT_PROTOCOL };
    this.child = spawn(options.command, { shell: true, detached: true, cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.group = this.child.pid === undefined ? undefined : processGroups.track(this.child.pid);
    this.child.stdin!.on('error', () => {}); // a dead client's stdin: the exit handler reports it
    const lines = new LineSplitter(
      options.maxLineChars ?? MAX_ANSWER_LINE_CHARS,
      (line) => this.readLine(line),
      (length) => this.breach(`it wrote a line of ${length} characters or more (the limit is ${options.maxLineChars ?? MAX_ANSWER_LINE_CHARS})`),
    );
    this.child.stdout!.on('data', (chunk: Buffer) => lines.push(chunk));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.end(`the persistent client could not be started: ${error.message}`, true);
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        this.end(`the persistent client exited (${describeExit({ exitCode: code, signal })}) with this cell in flight; a new process takes the next cells`, !this.closing);
        resolve();
      });
    });
  }

  /** Hands one cell to the process; `settle` is called once, with its answer or why there is none. */
  send(cell: string, line: string, settle: (answer: CellAnswer) => void): void {
    if (this.ended) return settle({ error: 'the persistent client had already ended (harness bug)' });
    this.pending.set(cell, settle);
    this.sent.add(cell);
    this.child.stdin!.write(line);
  }

  /** Opens a cell's window over the process's starvation (read back with measureSince). */
  openWindow(): GroupMark | undefined {
    return this.group?.mark();
  }

  /** How starved the process and what it started were since `window` opened. */
  measureSince(window: GroupMark | undefined): ProcessStarvation | undefined {
    return window && this.group ? this.group.since(window) : undefined;
  }

  /** The cell's time is up or the run stopped: its answer is no longer waited for (and ignored if it comes). */
  cancel(cell: string): void {
    if (!this.pending.delete(cell) || this.ended) return;
    this.child.stdin!.write(formatCancelLine(cell));
  }

  /** Closes its input (the end of the run, or it was retired), then ends it if it does not exit by itself. */
  async close(): Promise<void> {
    this.closing = true;
    if (!this.ended) this.child.stdin!.end();
    const timer = setTimeout(() => this.stop('the persistent client was ended: it did not exit when its input closed'), CLOSE_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
    await this.killTree();
  }

  /** Ends the process now; the cells it holds fail with `why`. */
  stop(why: string): void {
    this.end(why, false);
  }

  private breach(problem: string): void {
    this.stop(`the persistent client broke the protocol: ${problem}; it was ended and a new process takes the next cells`);
  }

  private readLine(line: string): void {
    const read = readAnswerLine(line);
    if (read.kind === 'log') return;
    if (read.kind === 'violation') return this.breach(read.problem);
    const settle = this.pending.get(read.cell);
    if (settle === undefined) {
      if (!this.sent.has(read.cell)) this.breach(`it answered cell "${read.cell}", which was never sent to it`);
      return; // a late answer for a cell already given up on
    }
    this.pending.delete(read.cell);
    this.answered++;
    settle({ report: read.report });
  }

  private end(why: string, selfExit: boolean): void {
    if (this.ended) return;
    this.ended = true;
    this.group?.release();
    const tail = this.stderrTail.trim();
    const error = tail === '' ? why : `${why}\nits stderr ended with:\n${tail}`;
    for (const settle of this.pending.values()) settle({ error });
    this.pending.clear();
    void this.killTree();
    this.onGone(this, selfExit, error);
  }

  private async killTree(): Promise<void> {
    if (this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    }
    await killMarkedProcesses(CELL_MARK_VARIABLE, this.cellMark);
  }
}
