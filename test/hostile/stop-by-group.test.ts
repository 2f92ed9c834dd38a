// Issue 28 item 1: Ctrl-C, `timeout`, a CI cancel and `docker stop` signal the whole process group,
// so the SDK and stack workers (and npm) get the signal beside the runner. With SDK targets, 8 of 26
// such stops exited 1 with "internal error: the SDK worker exited (SIGTERM)" and no report. A stop
// by group must end exactly like a stop by pid (signals.test.ts): 130/143, no internal error, the
// reports written and marked incomplete once the run has begun (before that, nothing written, as a
// stop by pid at that moment), no process of the run left, nothing left beside the report folder.
//
// Each stop lands at a random moment in the first seconds of a run over an SDK target, a client
// stack and two command clients (one hangs, so the run cannot end before the signal): before the
// signal handlers exist, while the workers start, while cells run. The assertions hold at every
// moment, so the outcome never depends on how fast the machine is. `npm test` runs
// MEM_STOP_BY_GROUP_RUNS stops (default 3); the issue's 30 are `MEM_STOP_BY_GROUP_RUNS=30 npx vitest
// run test/hostile/stop-by-group.test.ts` (MEM_STOP_BY_GROUP_SEED repeats a sequence of moments).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { STOP_DEADLINE_MS } from '../../runner/cli-io.js';
import { findMarkedProcesses } from './process-census.js';
import { startCli, waitFor } from './start-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HANGS = resolve(ROOT, 'test/fixtures/hostile/hangs.mjs');
const CORRECT = resolve(ROOT, 'test/fixtures/clients/correct-client.mjs');
const RUNS = Number(process.env['MEM_STOP_BY_GROUP_RUNS'] ?? 3);
const SEED = Number(process.env['MEM_STOP_BY_GROUP_SEED'] ?? Date.now() % 1_000_000);
/** The moments are spread over this long after the CLI is started: start-up, worker start, cells. */
const MAX_DELAY_MS = 15_000;
const REPORT_FILES = ['.mcp-error-matrix-report', 'SHA256SUMS', 'matrix.html', 'receipts.json', 'results.json', 'results.junit.xml', 'results.tap', 'summary.md'];

const work = mkdtempSync(join(tmpdir(), 'mem-stop-by-group-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A small deterministic generator (mulberry32), so a failing sequence of moments can be run again. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface StopOutcome {
  delayMs: number;
  signal: NodeJS.Signals;
  code: number | null;
  /** 'abort': the run had begun (reports written, marked incomplete); 'exit': it had not (nothing written); 'default': node had no handler yet. */
  mode: 'abort' | 'exit' | 'default';
  cells: number;
}

async function stopOnce(index: number, delayMs: number, signal: NodeJS.Signals): Promise<StopOutcome> {
  const mark = `mem-stop-group-${process.pid}-${index}-${Date.now()}`;
  const dir = mkdtempSync(join(work, `run-${index}-`));
  const out = join(dir, 'out');
  const cli = startCli(
    [
      'run',
      '--target', 'ts-sdk@1.32.2',
      '--target', 'ai-sdk@2.0.99',
      '--target', `command:node ${CORRECT}`,
      '--target', `command:node ${HANGS} #timeout=60000`,
      '--case', 'http-*',
      '--case', 'baseline',
      '--version', '2025-11-25',
      '--no-schemas',
      '--no-baseline',
      '--quiet',
      '--out', out,
    ],
    { HOSTILE_MARK: mark },
    { group: true },
  );
  await new Promise((wait) => setTimeout(wait, delayMs));
  const sent = performance.now();
  cli.killGroup(signal);
  const ended = await cli.exit;
  const stderr = cli.stderr();
  const context = `stop ${index} (${signal} after ${delayMs} ms, seed ${SEED}): ${stderr.slice(-800)}`;
  // Before node has installed the CLI's handlers the signal's default action ends the process, which
  // a shell reports as the same 130/143 (a stop by pid at that moment ends alike).
  const status = ended.code ?? (ended.signal === signal ? 128 + constants.signals[signal] : null);
  expect(status, context).toBe(signal === 'SIGINT' ? 130 : 143);
  expect(stderr, context).not.toMatch(/internal error|still not stopped|\n\s+at /);
  expect(ended.at - sent, context).toBeLessThan(STOP_DEADLINE_MS);
  const mode = new RegExp(`${signal}: stopping`).test(stderr) ? 'abort' : ended.code === null ? 'default' : 'exit';
  let cells = 0;
  if (mode === 'abort') {
    // The run had begun: every report is written and says the run is incomplete.
    expect(readdirSync(out).sort(), context).toEqual([...REPORT_FILES].sort());
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { complete: boolean; cells: { status: string; reason?: string }[] };
    expect(results.complete, context).toBe(false);
    expect(readFileSync(join(out, 'results.tap'), 'utf8'), context).toMatch(/^Bail out! /m);
    expect(readFileSync(join(out, 'summary.md'), 'utf8'), context).toMatch(/Incomplete run/);
    cells = results.cells.length;
  } else {
    // Stopped before the run began (the stop mode was still 'exit', or no handler yet): nothing was written.
    if (mode === 'exit') expect(stderr.trim().split('\n').at(-1), context).toBe(`mcp-error-matrix: ${signal}: stopped`);
    expect(existsSync(out), context).toBe(false);
  }
  // Nothing beside the report folder: no lock, no lock token, no staging folder.
  expect(readdirSync(dir), context).toEqual(mode === 'abort' ? ['out'] : []);
  // No process of the run is left: the workers, the clients and whatever they started. The kernel
  // reaps at its own pace: wait for it (not a speed check; a survivor never goes away on its own).
  await waitFor(() => findMarkedProcesses('HOSTILE_MARK', mark).length === 0, 15_000).catch(() => undefined);
  expect(findMarkedProcesses('HOSTILE_MARK', mark), context).toEqual([]);
  return { delayMs, signal, code: ended.code, mode, cells };
}

test(`${RUNS} stops of the whole process group at random moments end like stops by pid`, { timeout: RUNS * 90_000 }, async () => {
  const random = createRandom(SEED);
  const outcomes: StopOutcome[] = [];
  for (let index = 0; index < RUNS; index++) {
    // The first stop of a sequence comes late enough to find cells running; the rest anywhere.
    const delayMs = Math.round((index === 0 ? 0.5 + random() * 0.5 : random()) * MAX_DELAY_MS);
    outcomes.push(await stopOnce(index, delayMs, index % 2 === 0 ? 'SIGTERM' : 'SIGINT'));
  }
  console.info(
    `stop by group, seed ${SEED}: ${outcomes.map((o) => `${o.signal}@${o.delayMs}ms→${o.code ?? 'by signal'} ${o.mode}${o.mode === 'abort' ? ` (${o.cells} cells)` : ''}`).join('; ')}`,
  );
});
