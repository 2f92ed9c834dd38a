// Lists the *.json files under a cases folder (dot entries skipped, symbolic links followed), and
// names what cannot be listed: a symlink loop is reported as one, at the link, instead of being
// walked until the same file turns up under many names ("duplicate id", issue 11 item 15).
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

export interface CaseFolderListing {
  files: string[];
  /** Whether a symbolic link was followed (then one file may be listed under two paths). */
  followedLinks: boolean;
  /** Paths that could not be followed, with why. */
  problems: { path: string; message: string }[];
}

/** Walks `root` iteratively; a folder link that leads back to one of its own ancestors is a loop. */
export function listCaseFiles(root: string): CaseFolderListing {
  const listing: CaseFolderListing = { files: [], followedLinks: false, problems: [] };
  const rootStats = statOrUndefined(root);
  const stack: { dir: string; ancestors: string[] }[] = [{ dir: root, ancestors: rootStats ? [identify(rootStats)] : [] }];
  while (stack.length > 0) {
    const { dir, ancestors } = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      listing.problems.push({ path: dir, message: `cannot list this folder (${(error as Error).message})` });
      continue;
    }
    const folders: { dir: string; ancestors: string[] }[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const isJson = entry.name.endsWith('.json');
      if (entry.isDirectory() || entry.isSymbolicLink()) {
        if (entry.isSymbolicLink()) listing.followedLinks = true;
        let stats: Stats;
        try {
          stats = statSync(path);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ELOOP') listing.problems.push({ path, message: 'is a symlink loop (too many levels of symbolic links); remove or fix the link' });
          else if (isJson) listing.problems.push({ path, message: `is a symbolic link that cannot be followed (${(error as Error).message}); fix or remove it` });
          continue;
        }
        if (stats.isDirectory()) {
          const id = identify(stats);
          if (ancestors.includes(id)) {
            listing.problems.push({ path, message: 'is a symlink loop: it leads back to a folder that contains it; remove the link' });
            continue;
          }
          folders.push({ dir: path, ancestors: [...ancestors, id] });
          continue;
        }
      }
      // Anything else named *.json is listed: the reader refuses what is not a regular file, by name.
      if (isJson) listing.files.push(path);
    }
    stack.push(...folders.reverse());
  }
  return listing;
}

function identify(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
