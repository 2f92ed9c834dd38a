import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeExit, spawnClient } from './spawn-client.js';

const run = (command: string, timeoutMs = 5000) => spawnClient({ command, env: process.env, cwd: process.cwd(), timeoutMs, signal: new AbortController().signal });

describe('spawnClient', () => {
  it('records the exit code, output and duration of an ordinary exit', async () => {
    const result = await run('echo out; echo err >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false, crashed: false, stdout: 'out\n', stderr: 'err\n', lastStdoutLine: 'out' });
    expect(describeExit(result)).toBe('exit code 3');
  });

  it.each([
    ['a signal to the shell itself', 'kill -SEGV $$'],
    ['a child killed by a signal, reported by the shell as 128+N', 'sh -c \'kill -ABRT $$\'; exit $?'],
  ])('calls %s a crash', async (_title, command) => {
    const result = await run(command);
    expect(result.crashed).toBe(true);
    expect(describeExit(result)).toMatch(/SIGSEGV|SIGABRT/);
  });

  it('does not call "command not found" (127) a crash', async () => {
    expect(await run('no-such-command-for-mem-tests 2>/dev/null')).toMatchObject({ exitCode: 127, crashed: false });
  });

  it('kills the whole group on timeout, background children included', async () => {
    const result = await run('sleep 30 & echo $!; sleep 30', 300);
    expect(result).toMatchObject({ timedOut: true, crashed: false, signal: 'SIGKILL' });
    expect(result.durationMs).toBeLessThan(2000);
    const background = Number(result.lastStdoutLine);
    expect(isAlive(background)).toBe(false);
  });

  it('does not wait for a background child that keeps the pipes open after the client exits', async () => {
    const started = performance.now();
    const result = await run('(sleep 30 &); echo done');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, lastStdoutLine: 'done' });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

// Alive and not a zombie waiting for its reaper.
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
