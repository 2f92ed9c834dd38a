// The atlas's progress lines on stderr: one per version as it settles, saying what it came to.
import { tallyVersion } from '../../reports/atlas/tally-version.js';
import type { SettledVersion } from './measure-atlas-version.js';

/** `[12] ts-sdk@1.24.3 measured in 41 s: 312 pass, 60 fail, 20 non-strict, 81 skip (4 false successes, …)`. */
export function describeSettled(event: { kind: string; version: string; outcome: SettledVersion; reused: boolean; dropped: boolean }, count: number): string {
  const { outcome } = event;
  const name = `${event.kind}@${event.version}`;
  if (outcome.interrupted) return `[${count}] ${name}: ${event.dropped ? 'stopped: older than the version where the walk back stopped' : 'stopped before it finished; not kept'}`;
  if (event.dropped) return `[${count}] ${name}: dropped: older than the version where the walk back stopped`;
  const { entry } = outcome;
  if (entry.state === 'not-started') return `[${count}] ${name}: not measured: ${entry.reason ?? 'it could not start'}`;
  const how = event.reused ? 'reused from the previous atlas' : `measured in ${Math.round((outcome.durationMs ?? 0) / 1000)} s${entry.reusedCells > 0 ? ` (${entry.reusedCells} cells reused)` : ''}`;
  if (entry.state === 'speaks-none') return `[${count}] ${name} ${how}: speaks none of the protocol versions (${entry.reason ?? 'every cell skipped'})`;
  const tally = tallyVersion(entry.cells);
  const kinds = tally.kinds.length > 0 ? ` (${tally.kinds.map((k) => k.words).join(', ')})` : '';
  return `[${count}] ${name} ${how}: ${tally.pass} pass, ${tally.fail} fail, ${tally.non_strict} non-strict, ${tally.error} error, ${tally.skip} skip${kinds}`;
}
