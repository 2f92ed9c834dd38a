// Prints the agreement of the stored truth corpus per stack@version as a Markdown table (the one in
// docs/targets.md § Client stacks): `npx vite-node test/stack-truth/summarise.ts`.
import { findObservationDifferences, findOutcomeDisagreements, formatDisagreements, type MapObservation } from './compare-cell.js';
import { mapping } from '../map-observation-helpers.js';
import { readRecordings } from './truth-record.js';

const mapObservation: MapObservation = mapping.mapObservation;
const rows = ['| Target | Versions (probed) | Cases × versions | Outcome agrees | `observed` agrees | Disagreeing | `tools/call` count differs |', '|---|---|---|---|---|---|---|'];
const details: string[] = [];
for (const recording of readRecordings()) {
  const outcomes = recording.cells.filter((cell) => findOutcomeDisagreements(recording.kind, cell, mapObservation).length === 0).length;
  const observations = recording.cells.filter((cell) => findObservationDifferences(cell).length === 0).length;
  const counts = recording.cells.filter((cell) => cell.adapter.status !== 'skip' && cell.probe.toolCallsReceived !== cell.adapter.toolCallsReceived);
  const total = recording.cells.length;
  const cases = new Set(recording.cells.map((cell) => cell.case)).size;
  const disagreeing = recording.cells.filter((cell) => findOutcomeDisagreements(recording.kind, cell, mapObservation).length + findObservationDifferences(cell).length > 0);
  rows.push(`| \`${recording.target}\` | ${recording.versions.spoken.join(', ')} | ${cases} cases, ${total} cells | ${outcomes} of ${total} | ${observations} of ${total} | ${disagreeing.map((cell) => `${cell.case} @ ${cell.protocolVersion}`).join('; ') || 'none'} | ${counts.map((cell) => `${cell.case} @ ${cell.protocolVersion} (probe ${cell.probe.toolCallsReceived}, adapter ${cell.adapter.toolCallsReceived})`).join('; ') || 'none'} |`);
  const disagreements = recording.cells.flatMap((cell) => [...findOutcomeDisagreements(recording.kind, cell, mapObservation), ...findObservationDifferences(cell)]);
  if (disagreements.length > 0) details.push(formatDisagreements(recording.target, disagreements));
}
process.stdout.write(`${rows.join('\n')}\n`);
if (details.length > 0) process.stdout.write(`\n${details.join('\n')}\n`);
