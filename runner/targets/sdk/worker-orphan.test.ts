// A worker whose parent went away ends, even before its hello: start-up (loading the library,
// probing its versions, starting workerd for cloudflare-agents) can wait for ever on a server
// that went away with the parent, and a worker orphaned there was found still running 24 min
// after a test run that had timed out in its beforeAll.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../test/temp-dirs.js';
import { WORKER_PARENT_ENV } from './sdk-worker.js';

const makeTempDir = useTempDirs();

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const HANGING_SDK = fileURLToPath(new URL('../../../test/fixtures/hanging-sdk', import.meta.url));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('an SDK worker', () => {
  it('ends when its parent is gone, though its start-up never finished', async () => {
    // The shell starts the worker with a pipe as stdin that it keeps, names itself as the worker's
    // parent (as the runner does), prints the worker's pid, waits until the worker has begun loading
    // its library (the fixture writes a mark then) and exits: the worker is re-parented while its
    // library is still loading. Waiting for the mark, not for a time, is what makes the worker
    // reach that point, however slow the machine.
    const mark = join(makeTempDir('worker-orphan-'), 'loading');
    const script = `sleep 600 </dev/null 2>/dev/null | ${WORKER_PARENT_ENV}=$$ HANGING_SDK_MARK="${mark}" "${process.execPath}" "${WORKER}" v1 "${HANGING_SDK}" >/dev/null 2>&1 & echo $!; while [ ! -f "${mark}" ]; do sleep 0.05; done`;
    const started = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(existsSync(mark)).toBe(true);
    const pid = Number(started.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    try {
      // A bound against a hang, not a measure: the worker looks at its parent once a second.
      for (let waited = 0; isAlive(pid) && waited < 60_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(isAlive(pid)).toBe(false);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
