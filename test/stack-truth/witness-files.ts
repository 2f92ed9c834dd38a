// The files that make the probe side of a recording (the witness): what records a library's answer
// and its wire context. A change to any of them changes what a probe records, so each recording keeps
// their SHA-256 and the stale check compares them (then only a full re-record is current).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Probe files beside `probes/<kind>.mjs` that a probe runs: cloudflare-agents' Worker application. */
const PROBE_COMPANIONS: Readonly<Record<string, readonly string[]>> = {
  'cloudflare-agents': ['test/stack-truth/probes/cloudflare-agents-app.mjs'],
};

/** The witness files of a stack's probe, relative to the repository. */
export function listWitnessFiles(kind: string): string[] {
  return [
    'runner/targets/sdk/observe-call.mjs',
    'test/stack-truth/probe-host.mjs',
    'test/stack-truth/probes/installed.mjs',
    `test/stack-truth/probes/${kind}.mjs`,
    ...(PROBE_COMPANIONS[kind] ?? []),
    'test/stack-truth/probe-cell.ts',
    'test/stack-truth/wire-context.ts',
    'test/stack-truth/normalize-volatile.ts',
  ];
}

/** File → SHA-256 of its bytes, for the witness of `kind`. */
export function digestWitness(repoRoot: string, kind: string): Record<string, string> {
  return Object.fromEntries(listWitnessFiles(kind).map((file) => [file, createHash('sha256').update(readFileSync(join(repoRoot, file))).digest('hex')]));
}
