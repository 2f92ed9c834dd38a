// @ts-check
// The same verdicts on a busy machine as on a quiet one (issue 27): a fixed subset of about 400
// cells — reference, naive, one ts-sdk, one ts-client, openai-agents and a persistent command
// client — run through the CLI once as it is, then once beside CPU hogs (availableParallelism() × 6
// busy loops, started and stopped here), and compared cell by cell: status, outcomes and the
// consequences of failed checks. Prints "verdicts under load: N cells differ", the error cells of
// each run, the exit codes and the wall-time ratio. BENCH_LOAD_DEFAULT=1 runs the default
// `run --out` the same way too (minutes on 2 cores under the hogs); BENCH_LOAD_KEEP=DIR keeps both
// runs' report folders in DIR (<name>-quiet, <name>-loaded) to look at the cells.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { makeTempDir, ratio, ROOT, runNode } from './measure.mjs';

const CLI = join(ROOT, 'bin', 'mcp-error-matrix.js');

export const LOAD_TARGETS = ['reference', 'naive', 'ts-sdk@1.32.2', 'ts-client@2.4.0', 'openai-agents@0.20.0', 'command:node test/fixtures/clients/persistent-client.mjs #persistent'];

/** Cases whose verdicts depend on time when anything does (hangs, resets, delays, retries), and plain ones beside them. */
export const LOAD_CASES = [
  'baseline',
  'block-meta-not-object',
  'http-429-retry-after',
  'http-503-retry-backoff',
  'http-503-then-200',
  'jsonrpc-invalid-params',
  'malformed-json',
  'mrtr-state-only',
  'no-response-hang',
  'no-response-reset',
  'result-and-error',
  'sse-hang-after-progress',
  'sse-progress-then-result',
  'sse-reset-mid-stream',
  'sse-slow-events',
  'tool-is-error',
  'wrong-response-id',
  'input-required',
];

/** The quiet run and the run under hogs of the subset (and, with BENCH_LOAD_DEFAULT=1, of the default run). */
export async function measureUnderLoad(env, note = () => {}) {
  const subset = ['run', ...LOAD_TARGETS.flatMap((target) => ['--target', target]), ...LOAD_CASES.flatMap((id) => ['--case', id])];
  const figures = [await compareRuns('subset', subset, env, note)];
  if (process.env.BENCH_LOAD_DEFAULT === '1') figures.push(await compareRuns('default', ['run'], env, note));
  return figures;
}

async function compareRuns(name, args, env, note) {
  const keep = process.env.BENCH_LOAD_KEEP;
  const { dir, cleanup } = keep ? { dir: keep, cleanup: () => {} } : makeTempDir(`load-${name}`);
  try {
    const loadBefore = loadavg()[0];
    note(`load: ${name} quietly (load ${loadBefore.toFixed(1)})…`);
    const quiet = await runOnce([...args, '--out', join(dir, `${name}-quiet`)], env);
    const hogs = startHogs(availableParallelism() * 6);
    let loaded;
    try {
      // Let the run queue fill and the 1-minute load average climb before the run starts.
      await new Promise((resolve) => setTimeout(resolve, 15_000));
      note(`load: ${name} beside ${hogs.count} busy loops (load ${loadavg()[0].toFixed(1)})…`);
      loaded = await runOnce([...args, '--out', join(dir, `${name}-loaded`)], env, hogs);
    } finally {
      hogs.stop();
    }
    const differ = diffCells(quiet.result, loaded.result);
    const line = `verdicts under load: ${differ.length} cells differ`;
    note(line);
    for (const entry of differ.slice(0, 20)) note(`  ${entry}`);
    note(`  errors: quiet ${describeErrors(quiet.result)}; under load ${describeErrors(loaded.result)}`);
    note(`  exit codes: quiet ${quiet.code}, under load ${loaded.code}; wall ${(quiet.ms / 1000).toFixed(1)} s and ${(loaded.ms / 1000).toFixed(1)} s (×${(loaded.ms / quiet.ms).toFixed(2)})`);
    note(`  re-runs: quiet ${describeReruns(quiet.result)}; under load ${describeReruns(loaded.result)}`);
    return {
      id: `load.${name}`,
      title: `${name === 'subset' ? `${quiet.result.cells.length} cells (6 targets)` : `default run, ${quiet.result.cells.length} cells`}: ${line} (beside ${availableParallelism() * 6} busy loops)`,
      measured: differ.length,
      reference: 0,
      referenceLabel: 'cells differing',
      ratio: ratio(loaded.ms, quiet.ms),
      ratioMeaning: 'wall under load ÷ wall quiet',
      target: null,
      unit: 'cells',
      notes:
        `${line}; error cells quiet ${quiet.result.summary.error}, under load ${loaded.result.summary.error}; exit codes ${quiet.code} and ${loaded.code}; ` +
        `wall ${(quiet.ms / 1000).toFixed(1)} s quiet (load ${loadBefore.toFixed(1)} before) and ${(loaded.ms / 1000).toFixed(1)} s under load (load average ${loaded.loadAverages.map((value) => value.toFixed(1)).join(' → ')}, runnable ${loaded.runnable.min}–${loaded.runnable.max}); ` +
        `re-runs quiet ${describeReruns(quiet.result)}, under load ${describeReruns(loaded.result)}; concurrency quiet ${describeConcurrency(quiet.result)}, under load ${describeConcurrency(loaded.result)}`,
      samples: { differ, quiet: { ms: quiet.ms, code: quiet.code, summary: quiet.result.summary, reruns: quiet.result.reruns ?? null }, loaded: { ms: loaded.ms, code: loaded.code, summary: loaded.result.summary, reruns: loaded.result.reruns ?? null, loadAverages: loaded.loadAverages, runnable: loaded.runnable } },
    };
  } finally {
    cleanup();
  }
}

/** One CLI run with --out; its exit code, wall time and results.json, and the load seen while it ran. */
async function runOnce(args, env, hogs) {
  const loadAverages = [loadavg()[0]];
  const runnable = { min: Infinity, max: 0 };
  const sampler = setInterval(() => {
    loadAverages.push(loadavg()[0]);
    const running = readRunnable();
    if (running !== undefined) {
      runnable.min = Math.min(runnable.min, running);
      runnable.max = Math.max(runnable.max, running);
    }
  }, 5000);
  try {
    const run = await runNode([CLI, ...args, '--quiet'], { env, cwd: ROOT, allowExit: [0, 1] });
    const out = args[args.indexOf('--out') + 1];
    return { ...run, // results.json is an index since results@2 (issue 30); the cells' checks and verdicts are in the evidence beside it.
    result: JSON.parse(gunzipSync(readFileSync(join(out, 'results.full.json.gz'))).toString('utf8')), loadAverages: hogs ? [...loadAverages, loadavg()[0]] : loadAverages, runnable };
  } finally {
    clearInterval(sampler);
  }
}

/** Processes running or runnable right now (/proc/loadavg's fourth field), where Linux says. */
function readRunnable() {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]?.split('/')[0]);
  } catch {
    return undefined;
  }
}

/** `count` busy loops, each a process of its own; stop() kills them all. */
function startHogs(count) {
  const hogs = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return {
    count,
    stop() {
      for (const hog of hogs) hog.kill('SIGKILL');
    },
  };
}

/** What decides a cell: its status, each verdict's outcome (and status or code), the failed checks' ids and consequences. */
function describeVerdict(cell) {
  return JSON.stringify({
    status: cell.status,
    actual: cell.actual.map((verdict) => (verdict ? [verdict.outcome, verdict.status ?? verdict.code ?? null] : null)),
    failed: cell.checks.filter((check) => !check.passed).map((check) => `${check.id}${check.consequence ? `:${check.consequence}` : ''}`),
  });
}

/** One line per cell whose verdict differs between the two runs (or that is in one only). */
export function diffCells(quiet, loaded) {
  const key = (cell) => `${cell.target} · ${cell.case} · ${cell.protocolVersion}`;
  const before = new Map(quiet.cells.map((cell) => [key(cell), cell]));
  const lines = [];
  for (const cell of loaded.cells) {
    const other = before.get(key(cell));
    before.delete(key(cell));
    if (!other) lines.push(`${key(cell)}: only under load`);
    else if (describeVerdict(other) !== describeVerdict(cell)) lines.push(`${key(cell)}: quiet ${describeVerdict(other)}, under load ${describeVerdict(cell)}`);
  }
  for (const name of before.keys()) lines.push(`${name}: only in the quiet run`);
  return lines;
}

function describeErrors(result) {
  const errors = result.cells.filter((cell) => cell.status === 'error');
  return errors.length === 0 ? '0' : `${errors.length} (${errors.slice(0, 5).map((cell) => `${cell.target} · ${cell.case} · ${cell.protocolVersion}: ${cell.errorKind ?? ''} ${cell.reason?.slice(0, 160) ?? ''}`).join('; ')})`;
}

function describeReruns(result) {
  const reruns = result.reruns;
  return reruns ? `${reruns.cells} (${Object.entries(reruns.byReason).map(([reason, count]) => `${count} ${reason}`).join(', ')}), ${reruns.confirmed} confirmed` : '0';
}

function describeConcurrency(result) {
  const info = result.concurrency;
  return info ? `${info.start}${info.backoffs > 0 ? ` → ${info.lowest} (${info.backoffs} back-offs)` : ''}` : '?';
}
