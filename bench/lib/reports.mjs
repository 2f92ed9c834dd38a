// @ts-check
// Reports: time, peak RSS and HTML size to render and write every format for a synthetic result
// of 100,000 cells, each in a fresh child process; beside it, the floor of one JSON write.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { mkdirSync, rmSync } from 'node:fs';
import { makeTempDir, median, ratio, REPEAT, runNode } from './measure.mjs';
import { measureHtmlLoad } from './html-load.mjs';

const CHILD = fileURLToPath(new URL('./report-child.mjs', import.meta.url));
/** Stop repeating once the report samples have used this much time (the run is slow). */
const BUDGET_MS = 60_000;

/** Cells of the optional huge report (BENCH_HUGE_REPORT_CELLS, e.g. 1000000): minutes of work, so off by default. */
const HUGE_CELLS = Number(process.env.BENCH_HUGE_REPORT_CELLS ?? 0);
/** With BENCH_HUGE_REPORT_HTML=1 the huge report is also written with matrix.html (several passes over the cells: many more minutes). */
const HUGE_WITH_HTML = process.env.BENCH_HUGE_REPORT_HTML === '1';

/**
 * The report of HUGE_CELLS cells, written from a source that makes each cell on demand: peak RSS
 * against a 1 GB budget, its time in the notes (no floor: one JSON string of it exceeds V8's
 * limit). Without matrix.html, then (optionally) with it.
 */
async function measureHugeReport(dir) {
  if (!HUGE_CELLS) return [];
  const modes = [
    { mode: 'stream-no-html', id: 'reports.huge_rss', what: 'every format but matrix.html' },
    ...(HUGE_WITH_HTML ? [{ mode: 'stream', id: 'reports.huge_rss_html', what: 'every format, matrix.html included' }] : []),
  ];
  const rows = [];
  for (const { mode, id, what } of modes) {
    const run = await runNode([CHILD, String(HUGE_CELLS), join(dir, 'huge'), mode]);
    const child = JSON.parse(run.stdout);
    rmSync(join(dir, 'huge'), { recursive: true, force: true });
    rows.push({ id, title: `reports, ${child.cells} cells streamed, ${what}: peak RSS (MB)`, measured: run.rssMb, reference: 1000, referenceLabel: 'budget: 1 GB', ratio: ratio(run.rssMb, 1000), target: 1, targetKind: 'max', unit: 'MB', notes: `one sample: ${Math.round(child.ms)} ms wall, ${Math.round(child.cpuMs)} ms CPU; the source holds ${Math.round(child.rssBeforeMb)} MB before rendering` });
  }
  return rows;
}

/** Report figures for `cells` synthetic cells. */
export async function measureReports(cells) {
  const { dir, cleanup } = makeTempDir('reports');
  try {
    const runs = [];
    const floors = [];
    let spent = 0;
    for (let i = 0; i < REPEAT && (i === 0 || spent < BUDGET_MS); i++) {
      const out = join(dir, `report-${i}`);
      const floorOut = join(dir, `floor-${i}`);
      mkdirSync(floorOut);
      const report = await runNode([CHILD, String(cells), out, 'report']);
      const floor = await runNode([CHILD, String(cells), floorOut, 'floor']);
      spent += report.ms + floor.ms;
      runs.push({ ...JSON.parse(report.stdout), rssMb: report.rssMb });
      floors.push({ ...JSON.parse(floor.stdout), rssMb: floor.rssMb });
    }
    const ms = median(runs.map((run) => run.ms));
    const rss = median(runs.map((run) => run.rssMb));
    const floorMs = median(floors.map((run) => run.ms));
    const floorRss = median(floors.map((run) => run.rssMb));
    const cpuMs = median(runs.map((run) => run.cpuMs));
    const floorCpuMs = median(floors.map((run) => run.cpuMs));
    if (runs[0].cells !== cells) throw new Error(`reports: asked for ${cells} cells, the synthetic result has ${runs[0].cells}`);
    const htmlMb = runs[0].sizes['matrix.html'] / 1e6;
    const htmlLoad = await measureHtmlLoad(join(dir, 'report-0', 'matrix.html'), cells, Math.min(REPEAT, 3));
    const huge = await measureHugeReport(dir);
    const samples = `${runs.length} sample(s)${runs.length < REPEAT ? ` (stopped after ${Math.round(spent / 1000)} s)` : ''}`;
    const sizes = Object.entries(runs[0].sizes).map(([name, size]) => `${name} ${(size / 1e6).toFixed(1)} MB`).join(', ');
    return [
      { id: 'reports.ms', title: `reports, ${cells} cells: render + write all (ms)`, measured: ms, reference: 5000, referenceLabel: 'budget: 5 s', ratio: ratio(ms, 5000), target: 1, targetKind: 'max', unit: 'ms', notes: `${samples}; floor (one JSON.stringify + write of the result): ${Math.round(floorMs)} ms, ×${(ms / floorMs).toFixed(1)}`, samples: { measured: runs.map((run) => run.ms), floor: floors.map((run) => run.ms) } },
      { id: 'reports.vs_floor', title: `reports, ${cells} cells: all formats ÷ the floor (ms)`, measured: ms, reference: floorMs, referenceLabel: 'floor: one JSON.stringify + write', ratio: ratio(ms, floorMs), target: 0.6, targetKind: 'max', unit: 'ms', notes: `CPU time (steadier under load): reports ${Math.round(cpuMs)} ms, floor ${Math.round(floorCpuMs)} ms, ×${(cpuMs / floorCpuMs).toFixed(2)}` },
      { id: 'reports.rss', title: `reports, ${cells} cells: peak RSS (MB)`, measured: rss, reference: 500, referenceLabel: 'budget: 500 MB', ratio: ratio(rss, 500), target: 1, targetKind: 'max', unit: 'MB', notes: `the result itself holds ${Math.round(runs[0].rssBeforeMb)} MB before rendering; floor peak ${Math.round(floorRss)} MB` },
      { id: 'reports.html_mb', title: `reports, ${cells} cells: matrix.html size (MB)`, measured: htmlMb, reference: 25, referenceLabel: 'budget: 25 MB', ratio: ratio(htmlMb, 25), target: 1, targetKind: 'max', unit: 'MB', notes: sizes },
      ...htmlLoad,
      ...huge,
    ];
  } finally {
    cleanup();
  }
}
