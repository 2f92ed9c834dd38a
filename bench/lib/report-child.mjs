// @ts-check
// Runs in its own process (so its peak RSS is its own): renders and writes every report format
// for a synthetic result, and, side by side, the floor — one JSON.stringify + write of the result.
//   node report-child.mjs <cells> <out dir> <report|floor|stream|stream-no-html>
// report and floor hold the whole result in memory, as a run does; stream writes from a source
// that makes each cell on demand (so the figure is the writers', not the generator's), and
// stream-no-html leaves out matrix.html (the slowest format: its passes and its grid).
import { writeFileSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeRunReports } from '../../dist/reports/write-run-reports.js';
import { PROTOCOL_VERSIONS } from '../../dist/runner/vocabulary/types.js';
import { REPORT_FORMAT_NAMES } from '../../dist/reports/index.js';
import { makeSyntheticReportSource, makeSyntheticRunResult } from './synthetic-result.mjs';
import { ROOT } from './measure.mjs';

const [cellsArg, outDir, mode] = process.argv.slice(2);
const cells = Number(cellsArg);
const targets = 100;
// Every case runs on every target in every protocol version: cases × targets × versions cells.
const size = { cases: Math.ceil(cells / (targets * PROTOCOL_VERSIONS.length)), targets };
const streamed = mode === 'stream' || mode === 'stream-no-html';
const input = streamed ? makeSyntheticReportSource(size) : makeSyntheticRunResult(size);
const cellCount = streamed ? input.cellCount : input.cells.length;
const formats = mode === 'stream-no-html' ? REPORT_FORMAT_NAMES.filter((name) => name !== 'html') : REPORT_FORMAT_NAMES;
const rssBefore = process.memoryUsage().rss;
const cpuBefore = process.cpuUsage();
const started = performance.now();
if (mode === 'floor') writeFileSync(join(outDir, 'results.json'), JSON.stringify(input, null, 2) + '\n');
else await writeRunReports(outDir, input, { inputs: [], rootDir: ROOT, formats });
const ms = performance.now() - started;
// CPU time beside wall time: on a loaded machine wall time mostly measures the neighbours.
const cpu = process.cpuUsage(cpuBefore);
const sizes = Object.fromEntries(readdirSync(outDir).map((name) => [name, statSync(join(outDir, name)).size]));
process.stdout.write(JSON.stringify({ cells: cellCount, ms, cpuMs: (cpu.user + cpu.system) / 1000, rssBeforeMb: rssBefore / 2 ** 20, sizes }) + '\n');
