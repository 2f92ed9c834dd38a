// @ts-check
// `npm run bench`: every figure measured beside its reference in the same run, repeated
// (median of BENCH_REPEAT, default 5), printed as a table and written to bench/results.json.
// Needs the build (dist/): the npm script runs `npm run build` first.
import { availableParallelism, cpus, loadavg, platform, release } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCases } from '../dist/runner/cases/load-cases.js';
import { measureAtlas } from './lib/atlas.mjs';
import { measureClients } from './lib/clients.mjs';
import { measureDefaultRun } from './lib/default-run.mjs';
import { measureDirectCli, measureDirectThroughput } from './lib/direct.mjs';
import { measureUnderLoad } from './lib/load.mjs';
import { measureLoopback } from './lib/loopback.mjs';
import { measureMemory } from './lib/memory.mjs';
import { measurePersistentLane } from './lib/persistent.mjs';
import { REPEAT, ROOT } from './lib/measure.mjs';
import { measureReports } from './lib/reports.mjs';
import { measureStartup } from './lib/startup.mjs';

// memory (a 100,000-case run) and atlas (every stack's releases) take long: only when named in BENCH_ONLY.
const SECTIONS = (process.env.BENCH_ONLY ?? 'startup,direct,loopback,clients,persistent,reports,default,load').split(',');
const REPORT_CELLS = Number(process.env.BENCH_REPORT_CELLS ?? 100_000);

const env = { MCP_SCHEMAS_DIR: process.env.MCP_SCHEMAS_DIR ?? '' };
const started = performance.now();
const cases = await loadCases();
const concurrency = availableParallelism();
const figures = [];
const note = (text) => process.stderr.write(`bench: ${text}\n`);

const sections = {
  startup: async () => figures.push(...(await measureStartup(cases, env))),
  direct: async () => {
    figures.push(await measureDirectThroughput(cases));
    figures.push(...(await measureDirectCli(cases, env)));
  },
  loopback: async () => figures.push(...(await measureLoopback(cases, concurrency))),
  clients: async () => figures.push(...(await measureClients(cases, concurrency))),
  persistent: async () => figures.push(...(await measurePersistentLane(cases, concurrency))),
  reports: async () => figures.push(...(await measureReports(REPORT_CELLS))),
  default: async () => figures.push(...(await measureDefaultRun(cases, env))),
  memory: async () => figures.push(...(await measureMemory(env))),
  // The whole atlas (every stack, or BENCH_ATLAS_STACKS): the longest section by far.
  atlas: async () => figures.push(...(await measureAtlas(env, note))),
  // Last: it runs CPU hogs beside the CLI (stopped before it returns).
  load: async () => figures.push(...(await measureUnderLoad(env, note))),
};
const unknown = SECTIONS.filter((name) => !sections[name]);
if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown section ${unknown.join(', ')}; use ${Object.keys(sections).join(',')}`);
// A section that fails (say, the default run exiting 1 because a cell could not be measured under
// load) is recorded with its error; the figures of the other sections are still printed and written.
const failed = [];
for (const name of SECTIONS) {
  const t = performance.now();
  note(`${name}…`);
  try {
    await sections[name]();
    note(`${name} done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    failed.push({ section: name, error: message });
    note(`${name} FAILED after ${((performance.now() - t) / 1000).toFixed(1)} s: ${message}`);
  }
}

for (const figure of figures) figure.met = figure.target === null ? null : figure.targetKind === 'min' ? figure.ratio >= figure.target : figure.ratio <= figure.target;
const machine = { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${platform()} ${release()}`, loadavg: loadavg().map((n) => Number(n.toFixed(2))) };
const results = { format: 'mcp-error-matrix/bench@1', date: new Date().toISOString(), repeat: REPEAT, machine, seconds: (performance.now() - started) / 1000, figures, failed };
writeFileSync(join(ROOT, 'bench', 'results.json'), JSON.stringify(results, null, 2) + '\n');
process.stdout.write(formatTable(figures) + `\n${machine.cores} cores, ${machine.cpu}, Node ${machine.node}, load ${machine.loadavg.join(' ')}; median of ${REPEAT}; ${results.seconds.toFixed(0)} s; written to bench/results.json\n`);
if (failed.length > 0) {
  process.stdout.write(`\nFAILED sections (no figures): ${failed.map((item) => `${item.section}: ${item.error}`).join('; ')}\n`);
  process.exitCode = 1;
}

/** A plain-text table: figure, measured, reference, ratio, target. */
function formatTable(rows) {
  const show = (value, unit) => (Number.isFinite(value) ? (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 10 ? 1 : 2)) : '—') + (unit ? ` ${unit}` : '');
  const lines = rows.map((f) => [
    f.title,
    show(f.measured, f.unit),
    `${show(f.reference, f.unit)} (${f.referenceLabel})`,
    Number.isFinite(f.ratio) ? f.ratio.toFixed(f.ratio >= 10 ? 1 : 3) : '—',
    f.target === null ? '' : `${f.targetKind === 'min' ? '≥' : '≤'} ${f.target} ${f.met ? 'met' : 'MISSED'}`,
  ]);
  const header = ['figure', 'measured', 'reference', 'ratio', 'target'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const notes = rows.filter((f) => f.notes).map((f) => `  - ${f.title}: ${f.notes}`);
  return [row(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(row), '', 'notes:', ...notes].join('\n');
}
