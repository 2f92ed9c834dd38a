// What the built-in client libraries did in the default run, recorded (test/fixtures/, by
// scripts/record-observations.ts from a default run's results.json) and mapped again offline
// through the mapping contract: no built-in target may have an adapter-gap cell, and no baseline
// reason may say a library "concludes nothing" when it threw or returned.
import { describe, expect, it } from 'vitest';
import { loadCases } from '../runner/cases/load-cases.js';
import { loadBaselineFile } from '../runner/baseline/load-baseline.js';
import { BUNDLED_BASELINE } from '../runner/baseline/run-baseline.js';
import { packagePath } from '../runner/util/package-paths.js';
import { DEFAULT_TARGETS } from '../runner/targets/resolve-target.js';
import type { CallObservation } from '../runner/vocabulary/types.js';
import { mapping } from './map-observation-helpers.js';
import { readObservationFixture } from './observation-fixture.js';

const fixture = readObservationFixture();
const CLIENT_TARGETS = DEFAULT_TARGETS.filter((spec) => spec.includes('@'));

/** A call the library concluded nothing on by what it did: it hung past the host's last resort, or its bridge died. */
function concludedNothing(call: CallObservation): boolean {
  if ('hung' in call) return true;
  if ('threw' in call) return call.hostAborted === true;
  const returned = call.returned as { received?: unknown; exit?: unknown } | null;
  return returned !== null && typeof returned === 'object' && returned.received === 'nothing' && returned.exit !== undefined;
}

describe('the default run, as its libraries behaved (recorded observations)', () => {
  it('holds every built-in client target of the default run, and every case × version each of them ran', async () => {
    expect(Object.keys(fixture.targets).sort()).toEqual([...CLIENT_TARGETS].sort());
    const table = await loadCases();
    const missing: string[] = [];
    for (const target of CLIENT_TARGETS) {
      const cells = fixture.cells.filter(([name]) => name === target);
      const spoken = new Set(cells.map(([, , version]) => version));
      const recorded = new Set(cells.map(([, id, version]) => `${id} ${version}`));
      for (const { case: item } of table) for (const version of item.versions) if (spoken.has(version) && !recorded.has(`${item.id} ${version}`)) missing.push(`${target} ${item.id} ${version}`);
    }
    // A case or version added since the recording: re-record (scripts/record-observations.ts).
    expect(missing).toEqual([]);
  });

  it('maps every recorded call of every built-in target without an adapter gap', () => {
    const gaps = fixture.records
      .map((record) => ({ record, mapped: mapping.mapObservation(record.kind, record.call, record.context) }))
      .filter(({ mapped }) => 'gap' in mapped)
      .map(({ record, mapped }) => `${record.kind} ${record.context.protocolVersion}: ${'gap' in mapped ? mapped.gap : ''}`);
    expect(gaps).toEqual([]);
  });

  it('maps to "no conclusion" only a call the library hung on past the host\'s last resort, or a bridge that died', () => {
    const none = fixture.records.filter((record) => 'none' in mapping.mapObservation(record.kind, record.call, record.context));
    expect(none.filter((record) => !concludedNothing(record.call)).map((record) => `${record.kind}: ${JSON.stringify(record.call).slice(0, 200)}`)).toEqual([]);
  });

  it('has no baseline reason saying "concludes nothing" of a cell whose library threw or returned', async () => {
    const baseline = await loadBaselineFile(packagePath(BUNDLED_BASELINE), BUNDLED_BASELINE);
    const wrong: string[] = [];
    for (const entry of baseline.entries.filter((candidate) => /concludes nothing/.test(candidate.reason) && candidate.target in fixture.targets)) {
      const cells = fixture.cells.filter(([target, id, version]) => target === entry.target && id === entry.case && (entry.version === undefined || entry.version === version));
      for (const [target, id, version, , positions] of cells) {
        if (positions.some((position) => !concludedNothing(fixture.records[position]!.call))) wrong.push(`${target} ${id} ${version}: ${entry.reason}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
