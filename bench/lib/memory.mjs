// @ts-check
// Memory: the peak RSS of the whole process tree (sampled from /proc, and the runner's own
// maxRSS) for the three inputs issue 28 found past the 500 MB promise: a run over 100,000 case
// files, a classifier answering with a 400 MB `detail`, and `compare` of two 422 MB results.json.
//   BENCH_MEMORY_CASES (100000), BENCH_MEMORY_DETAIL_MB (400), BENCH_MEMORY_RESULTS_MB (422)
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// results@1, the whole model in one file (as the issue's 422 MB files were; still read by compare).
import { renderFullChunks as renderJsonChunks } from '../../dist/reports/formats/json-full.js';
import { makeTempDir, ratio, ROOT } from './measure.mjs';
import { makeSyntheticReportSource } from './synthetic-result.mjs';
import { sampleTreeRss } from './tree-rss.mjs';

const CLI = join(ROOT, 'bin', 'mcp-error-matrix.js');
const RSS_PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));
const BUDGET_MB = 500;
const CASES = Number(process.env.BENCH_MEMORY_CASES ?? 100_000);
const DETAIL_MB = Number(process.env.BENCH_MEMORY_DETAIL_MB ?? 400);
const RESULTS_MB = Number(process.env.BENCH_MEMORY_RESULTS_MB ?? 422);

/**
 * Runs the CLI with `args` in a child and samples its process tree; returns the tree's sampled
 * peak, the runner's own maxRSS (exact), the exit code, wall time and the end of stderr.
 */
export function runCliMeasured(args, { cwd, env }) {
  const { dir, cleanup } = makeTempDir('tree-rss');
  const rssFile = join(dir, 'rss');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', RSS_PROBE, CLI, ...args], { cwd, env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile }, stdio: ['ignore', 'ignore', 'pipe'] });
    const watch = sampleTreeRss(/** @type {number} */ (child.pid), 100);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const treeMb = watch.stop().peakMb;
      let ownMb = NaN;
      try {
        ownMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
      } catch {
        // Died before its exit hook.
      }
      cleanup();
      resolve({ code, ms: performance.now() - started, treeMb, ownMb, peakMb: Math.max(treeMb, Number.isFinite(ownMb) ? ownMb : 0), stderr });
    });
  });
}

/** `count` case files (the bundled baseline under fresh ids) in `dir`/application. */
function writeManyCases(dir, count) {
  const template = readFileSync(join(ROOT, 'cases', 'application', 'baseline.json'), 'utf8');
  mkdirSync(join(dir, 'application'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const id = `bench-many-${i}`;
    writeFileSync(join(dir, 'application', `${id}.json`), template.replace('"id": "baseline"', `"id": "${id}"`).replace('"$schema": "../../schemas/case.schema.json",\n', ''));
  }
}

/**
 * A results.json of about `megabytes` MB from the synthetic report source (every cell valid against
 * the results schema: an xfail or xpass names its baseline entry); `flip` changes every 997th status.
 */
function writeLargeResults(file, megabytes, flip) {
  // Past 10,000 cells results.json is written more compactly: the probe is of that size class.
  const probe = makeSyntheticReportSource({ cases: 300, targets: 25 });
  const perCell = [...renderJsonChunks(probe)].reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0) / probe.cellCount;
  const cases = Math.ceil((megabytes * 1e6) / perCell / 100);
  const source = makeSyntheticReportSource({ cases, targets: 25 });
  const withReason = (cell) => (cell.reason === undefined && (cell.status === 'xfail' || cell.status === 'xpass') ? { ...cell, reason: 'baseline.yaml (entry 1): known' } : cell);
  const adjust = (cell, n) => withReason(flip && n % 997 === 0 ? { ...cell, status: cell.status === 'pass' ? 'fail' : 'pass' } : cell);
  const flipped = {
    ...source,
    cells: function* () {
      let n = 0;
      for (const cell of source.cells()) yield adjust(cell, n++);
    },
    cellAt: (n) => adjust(source.cellAt(n), n),
  };
  const fd = openSync(file, 'w');
  try {
    for (const chunk of renderJsonChunks(flipped)) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { cells: source.cellCount, mb: statSync(file).size / 1e6 };
}

function figure(id, title, run, notes) {
  return { id, title, measured: run.peakMb, reference: BUDGET_MB, referenceLabel: `budget: ${BUDGET_MB} MB`, ratio: ratio(run.peakMb, BUDGET_MB), target: 1, targetKind: 'max', unit: 'MB', notes: `${notes}; tree peak (sampled every 100 ms) ${Math.round(run.treeMb)} MB, runner maxRSS ${Math.round(run.ownMb)} MB; exit ${run.code}, ${(run.ms / 1000).toFixed(1)} s${run.code === 0 || run.code === 1 ? '' : `; stderr: ${run.stderr.trim().split('\n').slice(-2).join(' | ')}`}` };
}

/** Which of the three to measure: BENCH_MEMORY=cases,classifier,compare (default all). */
const PARTS = new Set((process.env.BENCH_MEMORY ?? 'cases,classifier,compare').split(','));

/** The three memory figures (one sample each: each takes tens of seconds to minutes). */
export async function measureMemory(env) {
  const { dir, cleanup } = makeTempDir('memory');
  try {
    const rows = [];
    if (PARTS.has('cases')) rows.push(await measureManyCases(dir, env));
    if (PARTS.has('classifier')) rows.push(await measureHugeDetail(dir, env));
    if (PARTS.has('compare')) rows.push(await measureCompare(dir, env));
    return rows;
  } finally {
    cleanup();
  }
}

async function measureManyCases(dir, env) {
  const cases = join(dir, 'cases');
  writeManyCases(cases, CASES);
  const many = await runCliMeasured(['run', '--cases', cases, '--target', 'reference', '--version', '2025-11-25', '--no-baseline', '--quiet', '--out', join(dir, 'out-many')], { cwd: dir, env });
  return figure('memory.cases', `run over ${CASES.toLocaleString('en-US')} case files, one version, reference: peak RSS`, many, `${CASES} cells`);
}

async function measureHugeDetail(dir, env) {
  const classifier = join(dir, 'huge-detail.mjs');
  writeFileSync(classifier, `export default () => ({ outcome: 'TOOL_SUCCESS', layer: 'application', detail: 'x'.repeat(${DETAIL_MB} * 1024 * 1024) });\n`);
  const huge = await runCliMeasured(['run', '--target', `classifier:${classifier}`, '--case', 'baseline', '--version', '2025-11-25', '--no-baseline', '--quiet', '--out', join(dir, 'out-detail')], { cwd: dir, env });
  let reason = '';
  try {
    reason = JSON.parse(readFileSync(join(dir, 'out-detail', 'results.json'), 'utf8')).cells[0]?.reason ?? '(no reason)';
  } catch {
    reason = '(no results.json)';
  }
  return figure('memory.classifier_detail', `a classifier answering with a ${DETAIL_MB} MB detail: peak RSS`, huge, `the cell: ${reason.slice(0, 160)}`);
}

async function measureCompare(dir, env) {
  const before = writeLargeResults(join(dir, 'old.json'), RESULTS_MB, false);
  const after = writeLargeResults(join(dir, 'new.json'), RESULTS_MB, true);
  const compared = await runCliMeasured(['compare', 'old.json', 'new.json', '--format', 'text'], { cwd: dir, env });
  return figure('memory.compare', `compare of two ${RESULTS_MB} MB results.json: peak RSS`, compared, `${before.cells} cells each, ${before.mb.toFixed(0)} and ${after.mb.toFixed(0)} MB`);
}
