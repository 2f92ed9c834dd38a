import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createGroupTracker, processGroups, type ProcessSource } from './process-groups.js';
import { hasCpuWaitCounter, parseCpuWaitMs } from './schedstat.js';

/** A fake /proc: processes with a group and a CPU-wait counter each, changed by the test. */
function makeSource(available = true) {
  const processes = new Map<number, { group: number; cpuWaitMs: number }>();
  const source: ProcessSource = {
    available: () => available,
    listPids: async () => [...processes.keys()],
    readGroup: async (pid) => processes.get(pid)?.group,
    readCpuWaitMs: (pid) => processes.get(pid)?.cpuWaitMs,
  };
  return { processes, source };
}

describe('the CPU wait of a client process group', () => {
  it("is its most starved member's wait over the window, a member started meanwhile counted from 0", async () => {
    const { processes, source } = makeSource();
    processes.set(100, { group: 100, cpuWaitMs: 5 }); // the shell the runner started
    processes.set(7, { group: 7, cpuWaitMs: 9000 }); // another group: never counted
    const tracker = createGroupTracker(source);
    const group = tracker.track(100);
    const window = group.mark();
    processes.set(101, { group: 100, cpuWaitMs: 40 }); // the client the shell started
    await tracker.scan();
    processes.get(101)!.cpuWaitMs = 1240;
    processes.get(100)!.cpuWaitMs = 25;
    expect(group.since(window)).toMatchObject({ process: 'client', cpuWaitMs: 1240 });
    group.release();
  });

  it("counts a long-lived process's window from its counter when the window opened (the persistent lane)", async () => {
    const { processes, source } = makeSource();
    processes.set(200, { group: 200, cpuWaitMs: 700 });
    const tracker = createGroupTracker(source);
    const group = tracker.track(200);
    processes.set(201, { group: 200, cpuWaitMs: 3000 });
    await tracker.scan();
    const first = group.mark();
    processes.get(201)!.cpuWaitMs = 3100;
    expect(group.since(first).cpuWaitMs).toBe(100);
    const second = group.mark();
    processes.get(200)!.cpuWaitMs = 1300;
    expect(group.since(second).cpuWaitMs).toBe(600);
    group.release();
  });

  it('keeps the last value read of a member that exited', async () => {
    const { processes, source } = makeSource();
    processes.set(300, { group: 300, cpuWaitMs: 0 });
    const tracker = createGroupTracker(source);
    const group = tracker.track(300);
    const window = group.mark();
    processes.get(300)!.cpuWaitMs = 450;
    await tracker.scan();
    processes.delete(300);
    expect(group.since(window).cpuWaitMs).toBe(450);
    group.release();
  });

  it('measures nothing, and says so, where the machine does not count CPU wait', () => {
    const { processes, source } = makeSource(false);
    processes.set(400, { group: 400, cpuWaitMs: 99 });
    const group = createGroupTracker(source).track(400);
    const measured = group.since(group.mark());
    expect(measured.process).toBe('client');
    expect(measured.cpuWaitMs).toBeUndefined();
    group.release();
  });
});

describe('schedstat', () => {
  it("reads the second field, the time runnable but waiting for a CPU, in ms", () => {
    expect(parseCpuWaitMs('2284485 842863000 2\n')).toBe(842.863);
    expect(parseCpuWaitMs('garbage')).toBeUndefined();
  });

  it.runIf(hasCpuWaitCounter())("reads a real client's process group on Linux", async () => {
    const child = spawn('sh -c "node -e \\"setTimeout(() => {}, 300)\\"; true"', { shell: true, detached: true, stdio: 'ignore' });
    const group = processGroups.track(child.pid!);
    const window = group.mark();
    await new Promise((resolve) => child.once('exit', resolve));
    const measured = group.since(window);
    group.release();
    expect(measured.process).toBe('client');
    expect(measured.cpuWaitMs).toBeGreaterThanOrEqual(0);
  });
});
