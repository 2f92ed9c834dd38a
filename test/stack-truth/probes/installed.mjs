// Where an installed package is and which version it is, found the way Node's ESM loader finds it
// (import.meta.resolve, with a parent for a package a library imports itself: run the probe host
// with --experimental-import-meta-resolve). Shared by the probes; no adapter code.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The package whose files `specifier` resolves to, as seen from `parent` (a file URL; default this
 * repository): its entry URL, name, version and folder relative to the repository.
 */
export function findInstalled(specifier, parent) {
  const url = parent === undefined ? import.meta.resolve(specifier) : import.meta.resolve(specifier, parent);
  for (let dir = dirname(fileURLToPath(url)); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    // dist/esm/package.json ({"type":"module"}) has no name: the package's own file is further up.
    if (typeof pkg.name === 'string' && typeof pkg.version === 'string') return { url, name: pkg.name, version: pkg.version, dir: relative(REPO_ROOT, dir).split('\\').join('/') };
  }
  throw new Error(`no package.json with a name above ${url}`);
}
