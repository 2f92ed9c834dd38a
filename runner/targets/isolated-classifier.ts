// A classifier module run in a worker thread (see classifier-worker.mjs): the runner posts each
// input and waits for the verdict. The worker says when it starts a call, and from then the call
// has its deadline, so a call queued behind a blocked one is never blamed for it. A worker that
// exits, crashes, blocks or stops answering is terminated and started again; the call it was
// running fails with the reason, the calls that only waited are sent again, and the runner
// never notices. Only module specs run here: a function object cannot be moved
// to another thread, so the programmatic API and the vitest helper keep theirs in-process.
import { Worker } from 'node:worker_threads';
import { CLASSIFIER_ANSWER_MAX_CHARS } from '../io/input-caps.js';
import { packagePath } from '../util/package-paths.js';
import type { ClassifierInput } from '../vocabulary/types.js';
import { setStallAwareTimeout, type StallAwareTimeout } from '../starvation/loop-stall.js';

/** How long a module may take to load (its top-level code) before the worker is given up. */
export const CLASSIFIER_LOAD_TIMEOUT_MS = 15_000;
/** A worker whose heap grows past this is stopped by V8: the call fails, the runner is untouched. */
const WORKER_HEAP_MB = 512;
/** A call whose worker was dropped this many times while it waited fails too (a worker that dies on its own). */
const MAX_RESENDS = 5;

const STOPPED = 'the cell was stopped (the run was interrupted, or the cell budget ran out)';

/** The classifier did not produce an answer: the message says why (the cell becomes `error`). */
export class ClassifierFailure extends Error {
  constructor(
    message: string,
    /** The classifier's own exception (as opposed to a broken, blocked or stopped worker). */
    readonly threw = false,
  ) {
    super(message);
    this.name = 'ClassifierFailure';
  }
}

export interface IsolatedCallOptions {
  /** The longest the classifier may take for this input; past it the worker is terminated. */
  deadlineMs: number;
  /** The cell's abort signal (the run's, or the cell budget's): the call fails at once when it fires. */
  signal?: AbortSignal;
}

type WorkerMessage =
  | { type: 'loaded'; exports: Record<string, string> }
  | { type: 'load-error'; message: string }
  | { type: 'started'; id: number }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'threw' | 'unsendable' | 'too-large'; id: number; message: string };

interface PendingCall {
  id: number;
  input: ClassifierInput;
  options: IsolatedCallOptions;
  /** The worker it was posted to, until it settles or that worker is dropped. */
  sentTo?: Running;
  /** When the worker started it (a counter, for "the latest started"); the deadline runs from there. */
  startedAt?: number;
  /** Workers dropped while it waited without being to blame: bounded, so no call is re-sent forever. */
  resends: number;
  timer?: StallAwareTimeout | undefined;
  resolve(value: unknown): void;
  reject(error: ClassifierFailure): void;
}

interface Running {
  worker: Worker;
  ready: Promise<Record<string, string>>;
}

/** The worker script: plain ESM next to this module's sources (shipped as-is, never compiled). */
function getWorkerScript(): string {
  return packagePath('runner', 'targets', 'classifier-worker.mjs');
}

/** One classifier module in its own worker thread. */
export class IsolatedClassifier {
  private running: Running | undefined;
  private readonly pending = new Map<number, PendingCall>();
  private nextId = 1;
  private callsStarted = 0;
  private closed = false;
  /** How many workers were started (1 + restarts). */
  starts = 0;
  /** Which export to call; set once the module is loaded and the export chosen. */
  exportName = 'default';

  constructor(readonly file: string) {}

  /** Starts the worker and returns the module's exports (name → typeof), or throws why it did not load. */
  load(): Promise<Record<string, string>> {
    return this.start().ready;
  }

  /** Runs the classifier on a copy of the input; rejects with a ClassifierFailure saying why there is no answer. */
  call(input: ClassifierInput, options: IsolatedCallOptions): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) return reject(new ClassifierFailure(STOPPED));
      if (this.closed) return reject(new ClassifierFailure('the classifier was closed'));
      const call: PendingCall = { id: this.nextId++, input, options, resends: 0, resolve, reject };
      // Each call has its cell's signal: stopping one cell (its budget ran out) must not fail
      // the other cells' calls queued on the same worker; an interrupted run aborts them all.
      const onAbort = (): void => this.stopCall(call);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const settle = <T>(finish: (value: T) => void) => (value: T) => {
        options.signal?.removeEventListener('abort', onAbort);
        finish(value);
      };
      call.resolve = settle(resolve);
      call.reject = settle(reject);
      this.pending.set(call.id, call);
      void this.dispatch(call);
    });
  }

  /** Terminates the worker; pending calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new ClassifierFailure('the classifier was closed'), true);
  }

  private async dispatch(call: PendingCall): Promise<void> {
    const running = this.start();
    try {
      await running.ready;
    } catch (error) {
      this.finish(call.id)?.reject(error instanceof ClassifierFailure ? error : new ClassifierFailure(String(error)));
      return;
    }
    if (this.pending.get(call.id) !== call || this.running !== running) return;
    // While a call is out, the worker keeps the process alive; idle, it does not.
    running.worker.ref();
    call.sentTo = running;
    running.worker.postMessage({ type: 'call', id: call.id, exportName: this.exportName, input: call.input });
  }

  private onStarted(running: Running, id: number): void {
    const call = this.pending.get(id);
    if (!call || call.sentTo !== running) return;
    call.startedAt = ++this.callsStarted;
    const { deadlineMs } = call.options;
    // A stall of the runner's own loop is not the module's: only the module's worker time counts.
    call.timer = setStallAwareTimeout(() => {
      const reason = `the classifier gave no answer within ${deadlineMs} ms (a blocked event loop, or a promise that never settles); its worker was stopped`;
      this.restart(running, reason, call);
    }, deadlineMs);
  }

  private start(): Running {
    if (this.running) return this.running;
    this.starts++;
    const worker = new Worker(getWorkerScript(), {
      workerData: { file: this.file, maxAnswerChars: CLASSIFIER_ANSWER_MAX_CHARS },
      // The module's console output goes to stderr: stdout carries the TAP stream.
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    for (const stream of [worker.stdout, worker.stderr]) stream.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const running: Running = { worker, ready: undefined as unknown as Promise<Record<string, string>> };
    running.ready = new Promise((resolve, reject) => {
      const timer = setStallAwareTimeout(() => {
        reject(new ClassifierFailure(`the module did not finish loading within ${CLASSIFIER_LOAD_TIMEOUT_MS} ms`));
        this.restart(running, 'the module did not load');
      }, CLASSIFIER_LOAD_TIMEOUT_MS);
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'loaded') {
          timer.clear();
          resolve(message.exports);
        } else if (message.type === 'load-error') {
          timer.clear();
          reject(new ClassifierFailure(message.message));
          this.restart(running, 'the module did not load');
        } else if (message.type === 'started') this.onStarted(running, message.id);
        else this.onAnswer(message);
      });
      worker.on('error', (error) => {
        timer.clear();
        const reason = `the classifier crashed its worker: ${describeError(error)}`;
        reject(new ClassifierFailure(reason));
        this.restart(running, reason);
      });
      worker.on('exit', (code) => {
        timer.clear();
        const reason = `the classifier ended its worker thread (process.exit(${code}))`;
        reject(new ClassifierFailure(reason));
        this.restart(running, reason);
      });
    });
    running.ready.catch(() => undefined);
    // Idle, the worker does not keep the process alive; each dispatched call refs it again.
    worker.unref();
    this.running = running;
    return running;
  }

  private onAnswer(message: Exclude<WorkerMessage, { type: 'loaded' | 'load-error' | 'started' }>): void {
    const call = this.finish(message.id);
    if (!call) return;
    if (message.type === 'answer') call.resolve(message.value);
    else if (message.type === 'threw') call.reject(new ClassifierFailure(message.message, true));
    else if (message.type === 'too-large') call.reject(new ClassifierFailure(message.message));
    else call.reject(new ClassifierFailure(`the verdict cannot be passed back as plain data (${message.message})`));
  }

  private finish(id: number): PendingCall | undefined {
    const call = this.pending.get(id);
    if (!call) return undefined;
    this.pending.delete(id);
    call.timer?.clear();
    const running = call.sentTo;
    call.sentTo = undefined;
    if (running && ![...this.pending.values()].some((other) => other.sentTo === running)) running.worker.unref();
    return call;
  }

  /**
   * Drops a broken worker. The call that missed its deadline (else the call it started last) is
   * failed with `reason`; the calls that only waited are sent again to a fresh worker. Each
   * drop fails one call, so this ends; MAX_RESENDS bounds a worker that dies on its own.
   */
  private restart(running: Running, reason: string, culprit?: PendingCall): void {
    if (this.running !== running) return;
    this.running = undefined;
    void running.worker.terminate();
    const affected = [...this.pending.values()].filter((call) => call.sentTo === running);
    const started = affected.filter((call) => call.startedAt !== undefined);
    const blamed = culprit ?? started.sort((a, b) => b.startedAt! - a.startedAt!)[0];
    for (const call of affected) {
      call.timer?.clear();
      call.timer = undefined;
      call.sentTo = undefined;
      call.startedAt = undefined;
      if (call === blamed || ++call.resends > MAX_RESENDS) {
        this.pending.delete(call.id);
        call.reject(new ClassifierFailure(call === blamed ? reason : describeWaitedOut(reason)));
      } else void this.dispatch(call);
    }
  }

  /** Fails one call whose cell was stopped; a worker busy with it is dropped (it may be blocked), the others go again. */
  private stopCall(call: PendingCall): void {
    if (this.pending.get(call.id) !== call) return;
    if (call.startedAt !== undefined && call.sentTo !== undefined && this.running === call.sentTo) {
      this.restart(call.sentTo, STOPPED, call);
      return;
    }
    this.finish(call.id);
    call.reject(new ClassifierFailure(STOPPED));
  }

  private failAll(failure: ClassifierFailure, stop: boolean): void {
    for (const call of [...this.pending.values()]) {
      this.finish(call.id);
      call.reject(failure);
    }
    if (stop && this.running) {
      const { worker } = this.running;
      this.running = undefined;
      void worker.terminate();
    }
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
}

// Why an input that only waited for the worker is failed: the worker was replaced too often while it
// waited, each time because of another input (one that crashed it, blocked it past its deadline, or
// was still running when its own cell was stopped).
function describeWaitedOut(lastReason: string): string {
  const last = lastReason === STOPPED ? 'it was still busy with another input when that input\'s cell was stopped' : lastReason;
  return `the classifier's worker had to be replaced ${MAX_RESENDS} times while this input waited for it; the last time: ${last}`;
}
