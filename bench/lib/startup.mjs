// @ts-check
// Start-up: `list` and `show <case>` vs a bare Node start plus the cost of reading the case table
// (a plain script that reads and parses every case file, no validation): issue 16 goal 5.
import { join } from 'node:path';
import { alternate, median, ratio, ROOT, runNode } from './measure.mjs';

const CLI = join(ROOT, 'bin', 'mcp-error-matrix.js');

// The floor of reading the table: every cases/**/*.json read and parsed, nothing else.
const READ_TABLE = `const fs=require('node:fs'),p=require('node:path');let n=0;
const walk=(d)=>{for(const e of fs.readdirSync(d,{withFileTypes:true})){const f=p.join(d,e.name);if(e.isDirectory())walk(f);else if(f.endsWith('.json')){JSON.parse(fs.readFileSync(f,'utf8'));n++;}}};
walk(${JSON.stringify(join(ROOT, 'cases'))});if(n<1)process.exit(1);`;

/** `list` and `show <case>` wall time vs `node -e 0` plus reading the case table. */
export async function measureStartup(cases, env) {
  const caseId = cases[0].case.id;
  const samples = { list: [], show: [], bare: [], table: [] };
  await alternate(
    async () => {
      samples.list.push((await runNode([CLI, 'list'], { env })).ms);
      samples.show.push((await runNode([CLI, 'show', caseId], { env })).ms);
    },
    async () => {
      samples.bare.push((await runNode(['-e', '0'], { env })).ms);
      samples.table.push((await runNode(['-e', READ_TABLE], { env })).ms);
    },
  );
  const bare = median(samples.bare);
  const table = median(samples.table);
  const notes = `node -e 0: ${Math.round(bare)} ms; reading and parsing the ${cases.length} case files adds ${Math.round(table - bare)} ms`;
  const common = { reference: table, referenceLabel: '`node -e 0` + reading the case table', target: 1.5, targetKind: 'max', unit: 'ms', notes };
  return ['list', 'show'].map((command) => {
    const measured = median(samples[command]);
    return {
      id: `startup.${command}`,
      title: command === 'list' ? '`list` (wall)' : `\`show ${caseId}\` (wall)`,
      measured,
      ratio: ratio(measured, table),
      ...common,
      samples: { measured: samples[command], bare: samples.bare, reference: samples.table },
    };
  });
}
