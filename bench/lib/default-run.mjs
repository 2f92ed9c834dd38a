// @ts-check
// The default run: wall time and peak RSS of the README's main command, with the waiting share
// shown separately (the same command over the table without the cases that wait on purpose).
import { copyFileSync, cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { estimateWaitMs, WAITING_CELL_MS } from '../../dist/runner/run/estimate-wait.js';
import { measureHtmlLoad } from './html-load.mjs';
import { makeTempDir, median, ratio, REPEAT, ROOT, runNode } from './measure.mjs';

const CLI = join(ROOT, 'bin', 'mcp-error-matrix.js');
/** Issue 30's goals for the default run's report folder: the whole folder, and matrix.html. */
const FOLDER_BUDGET_BYTES = 10_000_000;
const HTML_BUDGET_BYTES = 5_000_000;

/** `run --out <tmp>` (all cases) vs the same run without the waiting cases. */
export async function measureDefaultRun(cases, env) {
  const { dir, cleanup } = makeTempDir('default-run');
  try {
    // The table minus the cases whose script waits (hangs, delays, Retry-After).
    const immediateDir = join(dir, 'cases');
    const waiting = cases.filter((item) => estimateWaitMs(item.case, 2000) >= WAITING_CELL_MS);
    for (const item of cases) {
      if (!waiting.includes(item)) cpSync(item.file, join(immediateDir, item.relativeFile));
    }
    const full = [];
    const immediate = [];
    let waitSum = 0;
    let cellCount = 0;
    let byFamily = [];
    /** @type {Record<string, number>} */
    let sizes = {};
    const page = join(dir, 'matrix.html');
    for (let i = 0; i < REPEAT; i++) {
      const out = join(dir, `out-${i}`);
      full.push(await runNode([CLI, 'run', '--out', out, '--quiet'], { env, cwd: ROOT }));
      if (i === 0) {
        // results.json holds every cell's verdict and duration (its evidence is in results.full.json.gz).
        const result = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
        cellCount = result.cells.length;
        const ids = new Set(waiting.map((item) => item.case.id));
        waitSum = result.cells.filter((cell) => ids.has(cell.case)).reduce((sum, cell) => sum + cell.durationMs, 0);
        byFamily = sumCellTimeByFamily(result);
        // The report folder a review gets: every file's size, and the page, opened once the runs are done.
        sizes = Object.fromEntries(readdirSync(out).map((name) => [name, statSync(join(out, name)).size]));
        copyFileSync(join(out, 'matrix.html'), page);
      }
      rmSync(out, { recursive: true, force: true });
      // The bundled baseline names the left-out cases, so this run goes without it (exit 1 allowed).
      immediate.push(await runNode([CLI, 'run', '--cases', relative(ROOT, immediateDir) || immediateDir, '--no-baseline', '--out', out, '--quiet'], { env, cwd: ROOT, allowExit: [0, 1] }));
      rmSync(out, { recursive: true, force: true });
    }
    const wall = median(full.map((run) => run.ms));
    const rss = median(full.map((run) => run.rssMb));
    const wallImmediate = median(immediate.map((run) => run.ms));
    const folderBytes = Object.values(sizes).reduce((sum, size) => sum + size, 0);
    const listed = Object.entries(sizes)
      .sort((a, b) => b[1] - a[1])
      .map(([name, size]) => `${name} ${(size / 1e6).toFixed(2)} MB`)
      .join(', ');
    const htmlLoad = await measureHtmlLoad(page, cellCount, Math.min(REPEAT, 3), { id: 'default.html_load', title: `default run, ${cellCount} cells: matrix.html load in headless Chromium (ms)` });
    return [
      ...describeCellCost(byFamily, wall),
      {
        id: 'default.report_folder',
        title: `default run: the report folder (${Object.keys(sizes).length} files, MB)`,
        measured: folderBytes / 1e6,
        reference: FOLDER_BUDGET_BYTES / 1e6,
        referenceLabel: 'goal: 10 MB (issue 30)',
        ratio: ratio(folderBytes, FOLDER_BUDGET_BYTES),
        target: 1,
        targetKind: 'max',
        unit: 'MB',
        notes: listed,
        samples: { sizes },
      },
      {
        id: 'default.matrix_html',
        title: 'default run: matrix.html (MB)',
        measured: (sizes['matrix.html'] ?? 0) / 1e6,
        reference: HTML_BUDGET_BYTES / 1e6,
        referenceLabel: 'goal: 5 MB (issue 30)',
        ratio: ratio(sizes['matrix.html'] ?? 0, HTML_BUDGET_BYTES),
        target: 1,
        targetKind: 'max',
        unit: 'MB',
      },
      ...htmlLoad,
      {
        id: 'default.wall',
        title: `default run \`run --out\`, ${cellCount} cells (wall)`,
        measured: wall,
        reference: 60_000,
        referenceLabel: 'budget: 60 s on 2 cores',
        ratio: ratio(wall, 60_000),
        target: 1,
        targetKind: 'max',
        unit: 'ms',
        notes: `without the ${waiting.length} waiting cases: ${Math.round(wallImmediate)} ms, so waiting adds ${Math.round(wall - wallImmediate)} ms of wall; their cells' summed durations: ${waitSum} ms (overlapped)`,
        samples: { measured: full.map((run) => run.ms), immediate: immediate.map((run) => run.ms) },
      },
      {
        id: 'default.wall_without_waits',
        title: 'default run without the waiting cases (wall)',
        measured: wallImmediate,
        reference: wall,
        referenceLabel: 'the full default run',
        ratio: ratio(wallImmediate, wall),
        target: null,
        unit: 'ms',
        notes: `waiting share of the default run's wall: ${(((wall - wallImmediate) / wall) * 100).toFixed(0)} %`,
      },
      {
        id: 'default.rss',
        // The runner process's own peak (the client stacks' workers are processes of their own).
        title: 'default run peak RSS (runner process)',
        measured: rss,
        reference: 250,
        referenceLabel: 'budget: 250 MB (issues 15 and 16)',
        ratio: ratio(rss, 250),
        target: 1,
        targetKind: 'max',
        unit: 'MB',
        samples: { measured: full.map((run) => run.rssMb) },
      },
    ];
  } finally {
    cleanup();
  }
}

/**
 * Cell-time (summed cell durations, overlapped in the run) per target family (reference, naive,
 * ts-sdk, ts-client, each stack), from one run's results.json: where the default run's time goes.
 */
export function sumCellTimeByFamily(result) {
  const kinds = new Map(result.targets.map((target) => [target.name, target.kind]));
  const families = new Map();
  for (const cell of result.cells) {
    const family = cell.target.split('@')[0];
    const entry = families.get(family) ?? { family, kind: kinds.get(cell.target) ?? '?', targets: new Set(), cells: 0, cellMs: 0 };
    entry.targets.add(cell.target);
    entry.cells++;
    entry.cellMs += cell.durationMs;
    families.set(family, entry);
  }
  return [...families.values()].sort((a, b) => b.cellMs - a.cellMs);
}

/** One figure per family: its wall share per cell (the run's wall split by cell-time) beside its cell-time per cell. */
export function describeCellCost(byFamily, wall) {
  const total = byFamily.reduce((sum, entry) => sum + entry.cellMs, 0);
  return byFamily.map((entry) => {
    const wallShare = total === 0 ? 0 : (wall * entry.cellMs) / total;
    const perCellWall = wallShare / entry.cells;
    const perCell = entry.cellMs / entry.cells;
    return {
      id: `default.cell_cost.${entry.family}`,
      title: `default run, ${entry.family} (${entry.kind}): wall share per cell`,
      measured: perCellWall,
      reference: perCell,
      referenceLabel: 'cell-time per cell (cells overlap)',
      ratio: ratio(perCellWall, perCell),
      target: null,
      unit: 'ms',
      notes: `${entry.cells} cells over ${entry.targets.size} target(s); cell-time ${(entry.cellMs / 1000).toFixed(1)} s = ${((entry.cellMs / total) * 100).toFixed(0)} % of all cell-time, so ${(wallShare / 1000).toFixed(1)} s of the ${(wall / 1000).toFixed(1)} s wall`,
    };
  });
}
