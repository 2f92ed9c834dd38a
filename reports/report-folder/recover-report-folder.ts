// Names of the folders the swap leaves beside a report folder, and the recovery that runs
// (under the folder lock) before every write: whatever a killed writer left is either put back
// at its place or removed, so nothing piles up and no report stays hidden.
import { lstat, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hasReportMarker, REPORT_MARKER_FILE } from './report-marker.js';

/** Stages of one write, in order; a leftover's kind says how far its writer got. */
export type LeftoverKind = 'tmp' | 'new' | 'old';

/** Sibling paths used to replace `target`: `.NAME.tmp-ID` (being written), `.NAME.new-ID` (complete), `.NAME.old-ID` (retired). */
export function getSwapPaths(target: string, id: string): Record<LeftoverKind, string> & { lock: string } {
  const parent = dirname(target);
  const name = basename(target);
  return {
    tmp: join(parent, `.${name}.tmp-${id}`),
    new: join(parent, `.${name}.new-${id}`),
    old: join(parent, `.${name}.old-${id}`),
    lock: join(parent, `.${name}.lock`),
  };
}

/** Staging folders inside a mountpoint (which is written into, never renamed): being written, and complete. */
export const MOUNTPOINT_STAGING_PREFIX = { tmp: '.mcp-error-matrix.tmp-', new: '.mcp-error-matrix.new-' } as const;

interface Leftover {
  path: string;
  kind: LeftoverKind;
  mtimeMs: number;
}

/**
 * Recovers `target` after a writer was killed. Only folders holding the report marker are
 * touched (a name alone proves nothing). When `target` is missing (killed between the two
 * renames), the newest complete report takes its place: a `.new-` one (complete, never
 * swapped in), else the `.old-` one it replaced. Every other leftover is removed.
 * Returns what was done, for the caller's message.
 */
export async function recoverReportFolder(target: string): Promise<{ restored?: string; removed: string[] }> {
  const leftovers = await findLeftovers(target);
  let restored: string | undefined;
  const targetExists = await lstat(target).then(
    () => true,
    () => false,
  );
  if (!targetExists) {
    const pick = (kind: LeftoverKind) => leftovers.filter((item) => item.kind === kind).sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
    const best = pick('new') ?? pick('old');
    if (best) {
      await rename(best.path, target);
      restored = best.path;
    }
  }
  const removed: string[] = [];
  for (const item of leftovers) {
    if (item.path === restored) continue;
    await rm(item.path, { recursive: true, force: true });
    removed.push(item.path);
  }
  return { ...(restored ? { restored } : {}), removed };
}

/**
 * Recovers a mountpoint `target` after a writer was killed: a complete staging folder
 * (`.mcp-error-matrix.new-*`) has its remaining files moved into place; a partial one is removed.
 */
export async function recoverMountpointStaging(target: string): Promise<string[]> {
  const recovered: string[] = [];
  for (const name of await readdir(target)) {
    const path = join(target, name);
    const complete = name.startsWith(MOUNTPOINT_STAGING_PREFIX.new);
    if (!(complete || name.startsWith(MOUNTPOINT_STAGING_PREFIX.tmp)) || !(await isOwnFolder(path))) continue;
    if (complete) await moveStagedFiles(path, target);
    await rm(path, { recursive: true, force: true });
    recovered.push(path);
  }
  return recovered;
}

/** Moves every entry of `staging` into `target`, each by one atomic rename, the report marker last. */
export async function moveStagedFiles(staging: string, target: string): Promise<void> {
  const names = (await readdir(staging)).sort((a, b) => Number(a === REPORT_MARKER_FILE) - Number(b === REPORT_MARKER_FILE));
  for (const name of names) await rename(join(staging, name), join(target, name));
}

async function findLeftovers(target: string): Promise<Leftover[]> {
  const parent = dirname(target);
  const prefix = `.${basename(target)}.`;
  const names = await readdir(parent).catch(() => [] as string[]);
  const found: Leftover[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(tmp|new|old)-\d+-[0-9a-f]{8}$/.exec(name.slice(prefix.length));
    const path = join(parent, name);
    if (!match || !(await isOwnFolder(path))) continue;
    found.push({ path, kind: match[1] as LeftoverKind, mtimeMs: (await stat(path)).mtimeMs });
  }
  return found;
}

/** A real folder (not a symlink) that holds the report marker. */
async function isOwnFolder(path: string): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  return stats !== undefined && stats.isDirectory() && (await hasReportMarker(path));
}
