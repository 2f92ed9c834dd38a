import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasCpuWaitCounter } from '../../starvation/schedstat.js';
import { describeExit, spawnClient } from './spawn-client.js';

// The shell waits until its background job has become the sleep (setsid done, outside the
// group), so only the marker can find it when the shell exits; then prints its pid.
const WAIT_FOR_SLEEP = 'pid=$!; while [ "$(cat /proc/$pid/comm 2>/dev/null)" != sleep ]; do sleep 0.01; done; echo $pid';
const run = (command: string, timeoutMs = 5000) => spawnClient({ command, env: process.env, cwd: process.cwd(), timeoutMs, signal: new AbortController().signal });

describe('spawnClient', () => {
  it('records the exit code, output and duration of an ordinary exit', async () => {
    const result = await run('echo out; echo err >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false, crashed: false, stdout: 'out\n', stderr: 'err\n', lastStdoutLine: 'out' });
    expect(describeExit(result)).toBe('exit code 3');
  });

  it("records how starved the client's process group was while it ran (Linux: its CPU wait)", async () => {
    const result = await run('sh -c "sleep 0.05"; exit 0');
    expect(result.starvation).toMatchObject({ process: 'client' });
    if (hasCpuWaitCounter()) expect(result.starvation!.cpuWaitMs).toBeGreaterThanOrEqual(0);
    else expect(result.starvation!.cpuWaitMs).toBeUndefined();
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
    // Killed at its time, not when the 30 s sleeps end; a loaded machine may add seconds (a 2 s
    // stall of this thread failed a 2 s bound here), never 15.
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
    expect(result.durationMs).toBeLessThan(15_000);
    const background = Number(result.lastStdoutLine);
    expect(isAlive(background)).toBe(false);
  });

  it('does not wait for a background child that keeps the pipes open after the client exits', async () => {
    const started = performance.now();
    const result = await run('(sleep 30 &); echo done');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, lastStdoutLine: 'done' });
    // Far from the child's 30 s: the cell end now also scans /proc for marked processes, which
    // took 300-500 ms per scan with a load average of 30 on 2 cores (3.6 s seen against 2 s).
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('kills a process that left the group with setsid, found by the marker in its environment', async () => {
    const result = await run(`setsid sleep 30 >/dev/null 2>&1 & ${WAIT_FOR_SLEEP}`);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    const escaped = Number(result.lastStdoutLine);
    expect(escaped).toBeGreaterThan(0);
    expect(isAlive(escaped)).toBe(false);
  });

  it('lets go of the pipes when what holds them cannot be found (it cleared its environment), and ends the cell', async () => {
    const result = await run(`env -i setsid sleep 30 & ${WAIT_FOR_SLEEP}`, 60_000);
    const escaped = Number(result.lastStdoutLine);
    try {
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
      // The limit the README states: without the marker it is out of reach, but no longer waited for.
      expect(isAlive(escaped)).toBe(true);
    } finally {
      if (escaped > 0) process.kill(escaped, 'SIGKILL');
    }
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
