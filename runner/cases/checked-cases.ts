// The bundled case files the build validated: their SHA-256 by relative path, fingerprinted by
// the checks that ran (case schema and the compiled rule code). A bundled file whose bytes match
// is not validated again at start-up (the guard's 110 KB of code, the rules and the nesting
// walk were most of `list`'s own time); any other file, an edited one, or a stale list after a
// rule change, is validated in full. Written by `npm run build` next to the compiled loader.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../package-paths.js';

export const CHECKED_CASES_FILE = 'bundled-cases.checked.json';

// The compiled modules whose checks the list stands for (beside this one in dist/).
const CHECK_MODULES = ['load-cases.js', 'case-rules.js', 'find-deep-nesting.js', 'case-guard.js', 'case-validator.generated.cjs'];

interface CheckedCases {
  fingerprint: string;
  files: Record<string, string>;
}

const here = dirname(fileURLToPath(import.meta.url));
let checked: Map<string, string> | null | undefined;

/** The fingerprint of the checks: case schema text and the compiled check modules; undefined when one is missing (sources). */
export function getChecksFingerprint(dir = here): string | undefined {
  const hash = createHash('sha256');
  try {
    hash.update(readFileSync(packagePath('schemas', 'case.schema.json')));
    for (const name of CHECK_MODULES) hash.update(readFileSync(join(dir, name)));
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

/** SHA-256 by relative path of the bundled files the build validated, if that list is current; else null. */
export function getCheckedBundledCases(dir = here): Map<string, string> | null {
  if (dir !== here) return readCheckedCases(dir);
  return (checked ??= readCheckedCases(dir));
}

function readCheckedCases(dir: string): Map<string, string> | null {
  try {
    const list = JSON.parse(readFileSync(join(dir, CHECKED_CASES_FILE), 'utf8')) as CheckedCases;
    const fingerprint = getChecksFingerprint(dir);
    if (fingerprint !== undefined && list.fingerprint === fingerprint) return new Map(Object.entries(list.files));
  } catch {
    // absent (sources, or not built yet) or unreadable: everything is validated
  }
  return null;
}

/** Writes the list for cases validated in full just now; returns the file written. */
export function writeCheckedBundledCases(cases: { relativeFile: string; sha256: string }[], dir = here): string {
  const fingerprint = getChecksFingerprint(dir);
  if (fingerprint === undefined) throw new Error(`${dir}: the compiled case checks are missing; run tsc first`);
  const files = Object.fromEntries(cases.map((item) => [item.relativeFile, item.sha256]).sort(([a], [b]) => a!.localeCompare(b!)));
  const file = join(dir, CHECKED_CASES_FILE);
  writeFileSync(`${file}.tmp-${process.pid}`, JSON.stringify({ fingerprint, files }, null, 1) + '\n');
  renameSync(`${file}.tmp-${process.pid}`, file);
  return file;
}
