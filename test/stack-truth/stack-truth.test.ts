// The truth corpus (test/stack-truth/README.md): for every recorded cell of every built-in stack,
// the stack's mapping applied to what the library gave a plain application must be what the
// adapter concluded, and the adapter must have seen the library's answer as the probe did. Offline:
// it reads the stored recordings (npm run truth:record makes them).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCasesSync } from '../../runner/cases/load-cases.js';
import { findObservationDifferences, findOutcomeDisagreements, formatDisagreements, type MapObservation } from './compare-cell.js';
import { mapping } from '../map-observation-helpers.js';
import { TRUTH_CASES } from './truth-cases.js';
import { findStaleParts } from './find-stale.js';
import { digestCaseBehaviour } from './case-behaviour.js';
import { readRecordings, recordingFileName } from './truth-record.js';
import { listTruthStacks } from './truth-stacks.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RECORD = 'npm run truth:record -- --stack';
const mapObservation: MapObservation = mapping.mapObservation;

/**
 * Cells where the adapter still does not conclude what its mapping says of the library's answer,
 * by target and `case @ version`, each with its reason. Only what the adapters' final code still
 * does; a listed cell that agrees again fails the test (remove it).
 */
const KNOWN_DISAGREEMENTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

const stacks = listTruthStacks(join(REPO_ROOT, 'package.json'));
const recordings = readRecordings();
const caseDigests = new Map(loadCasesSync({ cwd: REPO_ROOT }).map((loaded) => [loaded.case.id, digestCaseBehaviour(loaded)]));

describe('the truth corpus covers every bundled stack and is not stale', () => {
  it('has one recording per bundled stack@version, and none for a version no longer bundled', () => {
    const recorded = recordings.map((recording) => recording.target).sort();
    const bundled = stacks.map((stack) => stack.target).sort();
    const missing = bundled.filter((target) => !recorded.includes(target));
    const extra = recorded.filter((target) => !bundled.includes(target));
    expect({ missing, extra }, `record the missing ones (${missing.map((target) => `${RECORD} ${target}`).join('; ') || 'none'}) and delete test/stack-truth/recorded/${extra.map(recordingFileName).join(', ') || '…'}`).toEqual({ missing: [], extra: [] });
  });

  it.each(recordings.map((recording) => [recording.target, recording] as const))('%s was recorded with the installed library and the current case files', (target, recording) => {
    const stack = stacks.find((candidate) => candidate.target === target);
    const expectedCases = Object.keys(TRUTH_CASES).filter((id) => stack?.excluded[id] === undefined);
    const stale = findStaleParts(recording, { repoRoot: REPO_ROOT, expectedCases, caseDigests });
    expect(stale, `${target}: the recording is stale; run ${RECORD} ${target}`).toEqual([]);
  });
});

describe.each(recordings.map((recording) => [recording.target, recording] as const))('%s', (target, recording) => {
  it('records at least 25 cases at every protocol version the library speaks', () => {
    const perVersion = recording.versions.spoken.map((version) => [version, recording.cells.filter((cell) => cell.protocolVersion === version).length] as const);
    expect(new Set(recording.cells.map((cell) => cell.case)).size).toBeGreaterThanOrEqual(25);
    expect(perVersion.filter(([, count]) => count === 0)).toEqual([]);
  });

  it('the stack’s mapping of what the library gave the probe is what the adapter concluded, cell by cell', () => {
    const found = recording.cells.flatMap((cell) => findOutcomeDisagreements(recording.kind, cell, mapObservation));
    const known = KNOWN_DISAGREEMENTS[target] ?? {};
    const unexpected = found.filter((item) => known[item.cell] === undefined);
    const agreeingAgain = Object.keys(known).filter((cell) => !found.some((item) => item.cell === cell));
    expect(unexpected, formatDisagreements(target, unexpected)).toEqual([]);
    expect(agreeingAgain, `${target}: these listed disagreements agree now; remove them from KNOWN_DISAGREEMENTS`).toEqual([]);
  });

  it('the adapter saw what the library did: the same shape, class, instanceOf, code and status as the probe', () => {
    const found = recording.cells.flatMap(findObservationDifferences);
    expect(found, formatDisagreements(target, found)).toEqual([]);
  });
});
