// Finds the package a library itself imports: `<dir>/node_modules/<name>`, walking up from `fromDir`
// as Node's resolver does, and imports its ESM entry by file URL — the same module instance the
// library loaded, so `instanceof` against its error classes holds.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The real directory of package `name` as seen from `fromDir`; throws naming both when absent. */
export function findPackageDir(fromDir, name) {
  for (let dir = realpathSync(fromDir); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} is not installed where ${fromDir} can import it`);
  }
}

/** Imports the ESM entry (`exports['.'].import`, else `module`/`main`) of the package in `dir`. */
export async function importPackage(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const root = pkg.exports?.['.'] ?? pkg.exports;
  const entry = pickImport(root) ?? pkg.module ?? pkg.main ?? 'index.js';
  return import(pathToFileURL(join(dir, entry)).href);
}

function pickImport(entry) {
  if (typeof entry === 'string') return entry;
  if (entry === null || typeof entry !== 'object') return undefined;
  for (const key of ['import', 'node', 'default']) {
    const value = pickImport(entry[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The `version` of the package in `dir`. */
export function readPackageVersion(dir) {
  return String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version);
}
