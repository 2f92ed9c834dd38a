// Which entries of a report folder the tool did not write (issue 28 item 6: `echo notes >
// rep/NOTES.md; mkdir rep/mydata`, and the next `run --out rep` deleted both with the old report).
// The tool knows its own files: the marker lists them; a folder written before markers did is
// known by its receipts (every output, plus the receipts files themselves). Anything else is
// someone else's, and the folder is then refused rather than replaced.
import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { RECEIPTS_FILE_MAX_BYTES } from '../../runner/io/input-caps.js';
import { readSmallFile } from './read-small-file.js';
import { MOUNTPOINT_STAGING_PREFIX } from './recover-report-folder.js';
import { readReportMarker, REPORT_MARKER_FILE } from './report-marker.js';

// The receipts' own file names (reports/receipts/receipts.ts), repeated here so this check does not load hashing and signing code.
const RECEIPTS_FILES = ['receipts.json', 'SHA256SUMS', 'receipts.json.sig'];
/** Entries looked at, at most: a report holds a handful of files. */
const MAX_ENTRIES = 10_000;
/** Foreign entries named, at most. */
const MAX_FOUND = 20;

/**
 * The files the tool wrote into `dir` as it knows them (the marker included), relative with `/`;
 * undefined when `dir` holds no marker of ours.
 */
export async function listOwnFiles(dir: string): Promise<Set<string> | undefined> {
  const marker = await readReportMarker(dir);
  if (marker === undefined) return undefined;
  const own = new Set([REPORT_MARKER_FILE, ...(marker.files ?? (await listReceiptOutputs(dir)))]);
  return own;
}

/**
 * Entries of the report folder `dir` that are not the tool's (a folder shown with a trailing `/`),
 * at most MAX_FOUND; empty when every entry is its own. A listed name that is now a folder or a
 * link is not the file the tool wrote, so it is foreign too.
 */
export async function findForeignEntries(dir: string): Promise<string[]> {
  const own = (await listOwnFiles(dir)) ?? new Set<string>();
  const foreign: string[] = [];
  let seen = 0;
  const visit = async (sub: string): Promise<void> => {
    const handle = await opendir(join(dir, sub));
    try {
      for (let entry = await handle.read(); entry; entry = await handle.read()) {
        if (foreign.length >= MAX_FOUND || ++seen > MAX_ENTRIES) return;
        const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
        if (entry.isFile() && own.has(path)) continue;
        if (entry.isDirectory()) {
          // A staging folder of an interrupted write into a mountpoint: recovered by the next write.
          if (sub === '' && isStagingName(entry.name) && (await readReportMarker(join(dir, path))) !== undefined) continue;
          if ([...own].some((file) => file.startsWith(`${path}/`))) {
            await visit(path);
            continue;
          }
          foreign.push(`${path}/`);
          continue;
        }
        foreign.push(path);
      }
    } finally {
      await handle.close().catch(() => undefined);
    }
  };
  await visit('');
  if (seen > MAX_ENTRIES && foreign.length === 0) foreign.push(`(more than ${MAX_ENTRIES} entries)`);
  return foreign;
}

/** Whether the own file `path` under `dir` is still a regular file (not replaced by a folder or a link). */
export async function isOwnRegularFile(dir: string, path: string): Promise<boolean> {
  const stats = await lstat(join(dir, path)).catch(() => undefined);
  return stats?.isFile() ?? false;
}

function isStagingName(name: string): boolean {
  return name.startsWith(MOUNTPOINT_STAGING_PREFIX.tmp) || name.startsWith(MOUNTPOINT_STAGING_PREFIX.new);
}

/** The outputs a folder's receipts.json lists (base "report"), and the receipts files; none when it is unreadable. */
async function listReceiptOutputs(dir: string): Promise<string[]> {
  const text = await readSmallFile(join(dir, 'receipts.json'), RECEIPTS_FILE_MAX_BYTES);
  if (text === undefined) return [];
  try {
    const outputs = (JSON.parse(text) as { outputs?: unknown }).outputs;
    if (!Array.isArray(outputs)) return [];
    const paths = outputs.flatMap((entry: unknown) => {
      const { path, base } = (entry ?? {}) as { path?: unknown; base?: unknown };
      return typeof path === 'string' && base === 'report' ? [path] : [];
    });
    return [...paths, ...RECEIPTS_FILES];
  } catch {
    return [];
  }
}
