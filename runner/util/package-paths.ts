// Locates files shipped with the package (cases/, schemas/, templates), whether the code
// runs from its TypeScript sources or from the compiled dist/ folder.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The package's root folder (the one holding package.json). */
export function getPackageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!isOurPackage(dir)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('mcp-error-matrix: cannot find the package root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  root = dir;
  return dir;
}

/** A path inside the package. */
export function packagePath(...segments: string[]): string {
  return join(getPackageRoot(), ...segments);
}

/** The package's version, from package.json. */
export function getPackageVersion(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

function isOurPackage(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'mcp-error-matrix';
  } catch {
    return false;
  }
}
