// Drives one probe process (probe-host.mjs) over its stdio: one command at a time, one answer each.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HOST = fileURLToPath(new URL('./probe-host.mjs', import.meta.url));
const STDERR_KEPT = 8192;

export interface ProbeHello {
  package: { name: string; dir: string };
  version: string;
  builtOn?: { name: string; version: string; dir: string };
}

export type ProbeCommand = { op: 'open'; url: string; protocolVersion: string; tool: string } | { op: 'call'; arguments: Record<string, unknown> } | { op: 'close' };

/** An answer line of the probe host; `unknown` parts are the observation records it made. */
export type ProbeAnswer = { opened: true } | { openFailed: Record<string, unknown> } | { call: Record<string, unknown>; tookMs: number } | { closed: true };

export class ProbeProcess {
  private readonly child: ChildProcess;
  private readonly answers: string[] = [];
  private waiter: ((line: string | undefined) => void) | undefined;
  private exited = false;
  private stderr = '';

  constructor(kind: string, alias: string) {
    this.child = spawn(process.execPath, ['--experimental-import-meta-resolve', '--no-warnings', HOST, kind, alias], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.deliver(line));
    this.child.once('exit', () => {
      this.exited = true;
      this.deliver(undefined);
    });
  }

  /** The greeting: which package and version the probe loaded. */
  async hello(): Promise<ProbeHello> {
    const answer = await this.next();
    if (!('hello' in answer)) throw new Error(`the probe did not greet: ${JSON.stringify(answer)}`);
    return answer.hello as ProbeHello;
  }

  async send(command: ProbeCommand): Promise<ProbeAnswer> {
    this.child.stdin!.write(JSON.stringify(command) + '\n');
    const answer = await this.next();
    if ('failed' in answer) throw new Error(`the probe host failed on ${command.op}: ${String(answer.failed)}`);
    return answer as ProbeAnswer;
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private async next(): Promise<Record<string, unknown>> {
    const queued = this.answers.shift();
    const line = queued ?? (this.exited ? undefined : await new Promise<string | undefined>((resolve) => (this.waiter = resolve)));
    if (line === undefined) throw new Error(`the probe process exited; its stderr ends with:\n${this.stderr.slice(-2000)}`);
    return JSON.parse(line) as Record<string, unknown>;
  }

  private deliver(line: string | undefined): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(line);
    else if (line !== undefined) this.answers.push(line);
  }
}
