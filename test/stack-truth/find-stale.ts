// What makes a stored recording stale: the installed library (or the SDK under it) is another
// version, a case file or the corpus's case list changed, or the probe side's own files changed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstalledPackage, TruthRecording } from './truth-record.js';
import { digestWitness } from './witness-files.js';

export interface StaleCheckInput {
  repoRoot: string;
  /** The case ids the corpus holds for this stack now (its exclusions applied). */
  expectedCases: readonly string[];
  /** Case id → SHA-256 of the case file now. */
  caseDigests: ReadonlyMap<string, string>;
}

/** Each way the recording no longer matches the tree, in words; empty when it is current. */
export function findStaleParts(recording: TruthRecording, input: StaleCheckInput): string[] {
  return [
    ...checkInstalled(input.repoRoot, recording.package),
    ...(recording.builtOn ? checkInstalled(input.repoRoot, recording.builtOn) : []),
    ...input.expectedCases.filter((id) => recording.cases[id] === undefined).map((id) => `case ${id} is not recorded`),
    ...Object.keys(recording.cases).filter((id) => !input.expectedCases.includes(id)).map((id) => `case ${id} is no longer in the corpus for this stack`),
    ...Object.entries(recording.cases).filter(([id, sha256]) => input.caseDigests.has(id) && input.caseDigests.get(id) !== sha256).map(([id]) => `case ${id} changed since it was recorded`),
    ...Object.entries(digestWitness(input.repoRoot, recording.kind)).filter(([file, sha256]) => recording.witness?.[file] !== sha256).map(([file]) => `${file} (the probe side) changed since it was recorded`),
  ];
}

function checkInstalled(repoRoot: string, recorded: InstalledPackage): string[] {
  const file = join(repoRoot, recorded.dir, 'package.json');
  if (!existsSync(file)) return [`${recorded.name} is no longer installed at ${recorded.dir}`];
  const installed = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  return installed === recorded.version ? [] : [`${recorded.name} at ${recorded.dir} is ${installed}, recorded with ${recorded.version}`];
}
