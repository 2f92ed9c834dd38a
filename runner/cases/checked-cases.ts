// The bundled case files the build validated: their SHA-256 by relative path, fingerprinted by
// the checks that ran (case schema and the compiled rule code). A bundled file whose bytes match
// is not validated again at start-up (the guard's 110 KB of code, the rules and the nesting
// walk were most of `list`'s own time); any other file, an edited one, or a stale list after a
// rule change, is validated in full. Written by `npm run build` next to the compiled loader.
//
// The list also carries each file's text and the identity of the file it was read from (inode,
// size, modification and change times): a file whose identity is unchanged is taken from the
// list, one read instead of one per file, after its text is checked against the SHA-256 the
// build validated. An edited, replaced, added or copied file has another identity (the change
// time cannot be set back by hand) and is read from disk as before.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../util/package-paths.js';
import { compareTableText } from './compare-table-text.js';

export const CHECKED_CASES_FILE = 'bundled-cases.checked.json';

// The compiled modules whose checks the list stands for (beside this one in dist/).
const CHECK_MODULES = ['load-cases.js', 'case-rules.js', 'find-deep-nesting.js', 'case-guard.js', 'case-validator.generated.cjs'];

/** A validated bundled file: its SHA-256, and (when the build could record them) its identity and text. */
export interface CheckedCase {
  sha256: string;
  /** The file's identity when the build read it (getFileIdentity). */
  identity?: string;
  /** The file's whole text (a byte order mark kept), whose UTF-8 bytes have the SHA-256 above. */
  text?: string;
}

interface CheckedCases {
  fingerprint: string;
  files: Record<string, string>;
  /** By relative path: identity and text of the files the build could read unchanged. */
  texts?: Record<string, { identity: string; text: string }>;
}

const here = dirname(fileURLToPath(import.meta.url));
let checked: Map<string, CheckedCase> | null | undefined;

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

/** The validated bundled files by relative path, if that list is current; else null. */
export function getCheckedBundledCases(dir = here): Map<string, CheckedCase> | null {
  if (dir !== here) return readCheckedCases(dir);
  return (checked ??= readCheckedCases(dir));
}

/** What identifies a file's content without reading it: device, inode, size, modification and change times. */
export function getFileIdentity(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/**
 * The text of a checked file from the list, when the file at `path` is still the one the build
 * read (same identity) and the text has the SHA-256 the build validated; else undefined (read it).
 */
export function takeCheckedText(entry: CheckedCase | undefined, path: string): string | undefined {
  if (entry?.text === undefined || entry.identity === undefined) return undefined;
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined; // the reader names the problem
  }
  if (!stats.isFile() || getFileIdentity(stats) !== entry.identity) return undefined;
  return createHash('sha256').update(entry.text).digest('hex') === entry.sha256 ? entry.text : undefined;
}

function readCheckedCases(dir: string): Map<string, CheckedCase> | null {
  try {
    const list = JSON.parse(readFileSync(join(dir, CHECKED_CASES_FILE), 'utf8')) as CheckedCases;
    const fingerprint = getChecksFingerprint(dir);
    if (fingerprint === undefined || list.fingerprint !== fingerprint) return null;
    return new Map(Object.entries(list.files).map(([file, sha256]) => [file, { sha256, ...readTextEntry(list.texts?.[file]) }]));
  } catch {
    // absent (sources, or not built yet) or unreadable: everything is validated
  }
  return null;
}

// An entry of `texts` only if both its fields are strings: anything else means the file is read.
function readTextEntry(entry: unknown): { identity: string; text: string } | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { identity, text } = entry as Record<string, unknown>;
  return typeof identity === 'string' && typeof text === 'string' ? { identity, text } : undefined;
}

/**
 * A file changed less than this long before the build is not listed with its text: a change in
 * the same tick of the file system's clock could leave its identity as it was (as git's index
 * treats "racily clean" files).
 */
const SETTLED_MS = 2000;

/**
 * Writes the list for cases validated in full just now; returns the file written. A case with
 * its absolute `file` also gets its identity and text, if the file still has the validated bytes
 * and has not changed for `settledMs`.
 */
export function writeCheckedBundledCases(cases: { relativeFile: string; sha256: string; file?: string }[], dir = here, settledMs = SETTLED_MS): string {
  const fingerprint = getChecksFingerprint(dir);
  if (fingerprint === undefined) throw new Error(`${dir}: the compiled case checks are missing; run tsc first`);
  const sorted = [...cases].sort((a, b) => compareTableText(a.relativeFile, b.relativeFile));
  const files = Object.fromEntries(sorted.map((item) => [item.relativeFile, item.sha256]));
  const texts = Object.fromEntries(sorted.flatMap((item) => {
    const read = item.file === undefined ? undefined : readUnchanged(item.file, item.sha256, settledMs);
    return read ? [[item.relativeFile, read]] : [];
  }));
  const file = join(dir, CHECKED_CASES_FILE);
  writeFileSync(`${file}.tmp-${process.pid}`, JSON.stringify({ fingerprint, files, texts }, null, 1) + '\n');
  renameSync(`${file}.tmp-${process.pid}`, file);
  return file;
}

// The file's identity and text, only if it is settled, unchanged while read and still has the validated bytes.
function readUnchanged(path: string, sha256: string, settledMs: number): { identity: string; text: string } | undefined {
  try {
    const stats = statSync(path);
    if (Date.now() - Math.max(stats.mtimeMs, stats.ctimeMs) < settledMs) return undefined;
    const before = getFileIdentity(stats);
    const bytes = readFileSync(path);
    if (getFileIdentity(statSync(path)) !== before || createHash('sha256').update(bytes).digest('hex') !== sha256) return undefined;
    const text = bytes.toString('utf8');
    return Buffer.from(text, 'utf8').equals(bytes) ? { identity: before, text } : undefined;
  } catch {
    return undefined;
  }
}
