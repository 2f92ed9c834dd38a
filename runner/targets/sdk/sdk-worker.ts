// One long-lived worker process per SDK package: cells go in as JSON lines, verdicts come back.
// A worker that dies or stops answering is replaced; the cells it held become errors, never lost.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { SDK_ANSWER_MAX_BYTES } from '../../io/input-caps.js';
import { formatByteCap } from '../../io/read-user-file.js';
import { setStallAwareTimeout, type StallAwareTimeout } from '../../starvation/loop-stall.js';
import { packagePath } from '../../util/package-paths.js';
import type { ProtocolVersion } from '../../vocabulary/types.js';
import { describeOutsideStop, isStopSignal } from '../stop-signals.js';
import { readBoundedLines } from './read-bounded-lines.js';

/** The variable that names a worker's parent to it (worker.mjs ends once its parent is another). */
export const WORKER_PARENT_ENV = 'MCP_ERROR_MATRIX_WORKER_PARENT';

/** v1/v2: the TypeScript SDK majors (worker.mjs); any other: the stack adapter ./stacks/<flavor>.mjs. */
export type SdkFlavor = 'v1' | 'v2' | 'ai-sdk' | 'openai-agents' | 'langchain' | 'mastra' | 'mcp-remote' | 'inspector-cli' | 'cloudflare-agents';

/** One cell as the worker receives it. */
export interface WorkerCell {
  url: string;
  caseId: string;
  protocolVersion: string;
  tool: string;
  arguments: Record<string, unknown>;
  calls: number;
  timeoutMs: number;
  /** The whole-call deadline for a library that offers no per-request one (call-deadlines.ts). */
  callDeadlineMs: number;
  /** The host's last-resort abort per call, the same for every stack. */
  callBudgetMs: number;
  /** Test hook: the worker blocks its event loop this long once the cell has started (a starved worker). */
  blockForTestMs?: number;
  /** Test hook: the worker pads its answer with this many bytes (an answer past the cap). */
  padAnswerForTestBytes?: number;
}

/** What the worker answered for one cell (or why there is no answer). */
export interface WorkerAnswer {
  /** Per call, what the library's observation maps to: {verdict} | {none} | {gap} (map-observation.mjs). */
  results?: unknown[];
  /** What the library did, before any mapping (docs/adapter-observation.md). */
  observed?: unknown;
  notes?: string[];
  error?: string;
  durationMs?: number;
  /** How starved the worker was over the cell (cell-starvation.mjs); read by readWorkerStarvation. */
  starvation?: unknown;
  /** Set by the runner, never read from the worker: it died of a stop signal the runner did not send. */
  interrupted?: true;
}

export interface WorkerHello {
  versions: string[];
  packageVersion: string;
  /** Versions a probed library did not speak, with what went wrong (stacks that declare no list). */
  unspoken?: Record<string, string>;
  /** Extra time per cell a stack needs before its first call (mcp-remote: a process start per cell). */
  startupMs?: number;
  /** The versions a probed library was asked about (all four unless the run selected fewer). */
  probed?: string[];
}

interface Pending {
  resolve: (answer: WorkerAnswer) => void;
  timer: StallAwareTimeout | NodeJS.Timeout;
}

function clearPendingTimer(timer: Pending['timer']): void {
  if ('clear' in timer) timer.clear();
  else clearTimeout(timer);
}

const STDERR_CAP = 16_384;

/** The worker script: plain ESM next to this module's sources (shipped as-is, never compiled). */
export function getWorkerScript(): string {
  return packagePath('runner', 'targets', 'sdk', 'worker.mjs');
}

/** A persistent worker for one SDK package directory. */
export class SdkWorker {
  private child: ChildProcess | undefined;
  private ready: Promise<WorkerHello> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderr = '';
  /** How many times a worker process was started (1 + restarts). */
  starts = 0;
  private blockNextForTestMs: number | undefined;
  private padNextForTestBytes: number | undefined;

  /** `probeVersions`: the protocol versions a library that declares no list is probed for (default: all). */
  constructor(
    private readonly flavor: SdkFlavor,
    private readonly packageDir: string,
    private readonly probeVersions?: readonly ProtocolVersion[],
  ) {}

  /** Starts the worker if needed and waits for its greeting (the protocol versions the SDK speaks). */
  start(): Promise<WorkerHello> {
    this.ready ??= this.spawnWorker();
    return this.ready;
  }

  /** Runs one cell; resolves with an `error` answer when the worker crashes or misses `budgetMs`. */
  async run(cell: WorkerCell, budgetMs: number): Promise<WorkerAnswer> {
    try {
      await this.start();
    } catch (error) {
      this.ready = undefined;
      return { error: `the SDK worker did not start: ${error instanceof Error ? error.message : String(error)}` };
    }
    const child = this.child!;
    const id = this.nextId++;
    return new Promise((resolve) => {
      // Stall-aware: an answer the worker wrote while this loop stalled is read before the budget ends.
      const timer = setStallAwareTimeout(() => {
        this.pending.delete(id);
        resolve({ error: `the SDK worker gave no answer within ${budgetMs} ms` });
        void this.checkHealth(child);
      }, budgetMs);
      this.pending.set(id, { resolve, timer });
      const block = this.blockNextForTestMs === undefined ? {} : { blockForTestMs: this.blockNextForTestMs };
      const pad = this.padNextForTestBytes === undefined ? {} : { padAnswerForTestBytes: this.padNextForTestBytes };
      this.blockNextForTestMs = undefined;
      this.padNextForTestBytes = undefined;
      child.stdin!.write(JSON.stringify({ id, ...cell, ...block, ...pad }) + '\n');
    });
  }

  /** Test hook: the worker blocks its event loop for `ms` once the next cell has started (an overloaded machine). */
  blockNextCellForTest(ms: number): void {
    this.blockNextForTestMs = ms;
  }

  /** Test hook: the worker pads its next answer with `bytes` bytes (an answer past the cap). */
  padNextAnswerForTest(bytes: number): void {
    this.padNextForTestBytes = bytes;
  }

  /** Test hook: makes the worker exit as if the SDK had crashed it. */
  crashForTest(): void {
    this.child?.stdin?.write(JSON.stringify({ id: 0, crash: true }) + '\n');
  }

  /** The pid of the running worker, if any. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Ends the worker. */
  async close(): Promise<void> {
    const child = this.child;
    this.ready = undefined;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
  }

  private spawnWorker(): Promise<WorkerHello> {
    this.starts++;
    this.stderr = '';
    const probeArgs = this.probeVersions ? [this.probeVersions.join(',')] : [];
    // The worker ends when its parent is no longer this process, even before its hello (worker.mjs).
    // fd 3 carries the worker's answers and nothing else (worker.mjs): what the library writes to
    // stdout is kept with its stderr, a bounded tail, never read as an answer.
    const child = spawn(process.execPath, [getWorkerScript(), this.flavor, this.packageDir, ...probeArgs], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: { ...process.env, [WORKER_PARENT_ENV]: String(process.pid) } });
    this.child = child;
    for (const output of [child.stdout!, child.stderr!]) {
      output.setEncoding('utf8');
      output.on('data', (chunk: string) => {
        if (this.stderr.length < STDERR_CAP) this.stderr += chunk.slice(0, STDERR_CAP - this.stderr.length);
      });
    }
    child.stdin!.on('error', () => {}); // a dead worker's stdin: the exit handler reports it
    return new Promise((resolveHello, rejectHello) => {
      readBoundedLines(child.stdio[3] as Readable, SDK_ANSWER_MAX_BYTES, {
        onLine: (line) => {
          const message = parseLine(line);
          if (!message) return;
          if (message.hello) return resolveHello(message.hello as WorkerHello);
          this.settle(message);
        },
        // An answer past the cap is not read: its cell is an error that says so (the id opens the line).
        onOverflow: (head, bytes) => {
          const id = Number(/"id"\s*:\s*(\d+)/.exec(head)?.[1]);
          if (Number.isInteger(id)) this.settle({ id, error: `the SDK worker's answer for this cell is larger than the ${formatByteCap(SDK_ANSWER_MAX_BYTES)} an answer may have (${bytes} bytes or more); it was not read` });
        },
      });
      child.once('error', (error) => rejectHello(error));
      child.once('exit', (code, signal) => {
        const how = signal ?? `code ${code}`;
        // Ctrl-C, `timeout`, a CI cancel or `docker stop` signal the whole process group: the
        // worker then dies with the runner, which stops the run itself (the cell is not the SDK's doing).
        const stopped = isStopSignal(signal);
        const why = stopped ? describeOutsideStop('the SDK worker', signal!) : `the SDK worker exited (${how}) while this cell was running; it is restarted for the next cell`;
        // Settled once: after the hello this does nothing, before it the start fails (and is handled by whoever awaits start()).
        rejectHello(new Error(`its worker exited (${how}) before it was ready${describeStderrTail(this.stderr)}`));
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
        for (const [id, entry] of this.pending) {
          clearPendingTimer(entry.timer);
          this.pending.delete(id);
          entry.resolve({ error: why, notes: this.stderr ? [this.stderr.trim().slice(-2000)] : [], ...(stopped ? { interrupted: true as const } : {}) });
        }
      });
    });
  }

  private settle(message: Record<string, unknown>): void {
    const id = typeof message.id === 'number' ? message.id : -1;
    const entry = this.pending.get(id);
    if (!entry) return; // an answer after its cell's budget ran out: already reported as an error
    clearPendingTimer(entry.timer);
    this.pending.delete(id);
    const { interrupted: _only_the_runner_sets_this, ...answer } = message;
    entry.resolve(answer as WorkerAnswer);
  }

  // A missed budget may be one stuck cell or a wedged process: ping it, and replace it if it is silent.
  private async checkHealth(child: ChildProcess): Promise<void> {
    if (this.child !== child) return;
    const id = this.nextId++;
    const alive = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(false);
      }, 1000);
      this.pending.set(id, { resolve: () => resolve(true), timer });
      child.stdin!.write(JSON.stringify({ id, ping: true }) + '\n');
    });
    if (!alive && this.child === child) child.kill('SIGKILL');
  }
}

/** The last lines of a worker's stderr, for a start that failed (the import error is at the end). */
function describeStderrTail(stderr: string): string {
  const tail = stderr.trim().split('\n').slice(-6).join('\n').slice(-2000);
  return tail === '' ? ' (it wrote nothing to stderr)' : `; its stderr ends: ${tail}`;
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
