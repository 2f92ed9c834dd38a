// A client whose background process leaves the process group (setsid) and holds stdout open:
// the runner still ends the cell, writes the reports and exits, and kills the escaped process
// (found by the marker variable the runner puts in every client's environment).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { countMarkedProcesses, isAlive } from './process-census.js';
import { CLI_ENTRY } from './start-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ESCAPES = resolve(ROOT, 'test/fixtures/hostile/escapes-with-setsid.mjs');
const work = mkdtempSync(join(tmpdir(), 'mem-escaped-'));
const mark = `mem-escaped-${process.pid}-${Date.now()}`;
let cliPid: number | undefined;
afterAll(() => {
  // Whatever the outcome, nothing this test started is left behind.
  if (cliPid !== undefined && isAlive(cliPid)) process.kill(cliPid, 'SIGKILL');
  for (const file of existsSync(join(work, 'pids')) ? readdirSync(join(work, 'pids')) : []) {
    try {
      process.kill(Number(readFileSync(join(work, 'pids', file), 'utf8')), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  rmSync(work, { recursive: true, force: true });
});

test.skipIf(process.platform !== 'linux')('a client that leaves `setsid sleep 240` holding stdout: the reports are written, the runner exits, the sleep is killed', { timeout: 150_000 }, async () => {
  const pids = join(work, 'pids');
  const out = join(work, 'out');
  const env = { ...process.env, HOSTILE_MARK: mark, HOSTILE_PID_DIR: pids, CI: 'true' };
  rmSync(pids, { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(pids));
  const args = ['run', '--case', 'baseline', '--target', `command:node ${ESCAPES}`, '--version', '2026-07-28', '--no-schemas', '--no-baseline', '--quiet', '--out', out];
  const cli = spawn(process.execPath, [CLI_ENTRY, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  cliPid = cli.pid;
  let stderr = '';
  cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  cli.stdout.resume();
  // The runner's exit is the event waited on. The test's timeout bounds it below the sleep's 240 s
  // (before the fix the runner waited for the sleep); with vite-node, start-up alone took most of
  // the 64 s one run needed with a load average of 30 on 2 cores (6-9 s at a lighter load).
  const ended = await new Promise<{ code: number | null; signal: string | null }>((done) => cli.on('exit', (code, signal) => done({ code, signal })));
  expect({ ...ended, stderr: stderr.slice(-800) }).toMatchObject({ code: 0, signal: null });
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { complete: boolean; cells: { status: string }[] };
  expect(results.complete).toBe(true);
  expect(results.cells.map((cell) => cell.status)).toEqual(['pass']);
  const escaped = readdirSync(pids).map((file) => Number(readFileSync(join(pids, file), 'utf8')));
  expect(escaped).toHaveLength(1);
  expect(escaped.filter(isAlive)).toEqual([]);
  expect(countMarkedProcesses('HOSTILE_MARK', mark)).toBe(0);
});
