#!/usr/bin/env node
// Installs packages exactly as this project's package-lock.json pins them (versions and integrity,
// with their dependencies) into a folder of their own, by `npm ci` on a lockfile that holds only them:
// npm then needs no registry metadata, only the tarballs (from its cache when offline). The GitHub
// Action compiles dist/ with the pinned TypeScript this way, without installing the whole dev tree.
//
//   node scripts/install-locked.mjs <empty or new folder> <package>...
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const LOCKFILE = new URL('../package-lock.json', import.meta.url);

/**
 * The lockfile entries of `names` and of everything they depend on, keyed as npm lays them out:
 * a dependency nested under its dependent when the lockfile nests it there, else hoisted.
 */
export function pickLockedPackages(lock, names) {
  const packages = lock.packages ?? {};
  const picked = {};
  const pending = names.map((name) => `node_modules/${name}`);
  while (pending.length > 0) {
    const key = pending.pop();
    if (Object.hasOwn(picked, key)) continue;
    const entry = packages[key];
    if (typeof entry?.version !== 'string' || typeof entry.integrity !== 'string') throw new Error(`package-lock.json has no pinned ${key} (version and integrity); add the package to package.json and run npm install`);
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry;
    picked[key] = kept;
    for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const nested = `${key}/node_modules/${dependency}`;
      const found = Object.hasOwn(packages, nested) ? nested : `node_modules/${dependency}`;
      if (Object.hasOwn(packages, found)) pending.push(found);
      else if (!Object.hasOwn(entry.optionalDependencies ?? {}, dependency)) throw new Error(`package-lock.json does not pin ${dependency}, a dependency of ${key}`);
    }
  }
  return picked;
}

function main(args) {
  const [folder, ...names] = args;
  if (folder === undefined || names.length === 0) {
    process.stderr.write('usage: node scripts/install-locked.mjs <folder> <package>...\n');
    return 2;
  }
  const dir = resolve(folder);
  // Its own folder only: never written over what someone else put there.
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    process.stderr.write(`install-locked: ${dir} is not empty; give a new or empty folder\n`);
    return 2;
  }
  const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8'));
  let packages;
  try {
    packages = pickLockedPackages(lock, names);
  } catch (error) {
    process.stderr.write(`install-locked: ${error.message}\n`);
    return 2;
  }
  const dependencies = Object.fromEntries(names.map((name) => [name, packages[`node_modules/${name}`].version]));
  mkdirSync(dir, { recursive: true });
  const project = { name: 'mcp-error-matrix-locked-tools', private: true, dependencies };
  writeFileSync(resolve(dir, 'package.json'), `${JSON.stringify(project, null, 2)}\n`);
  writeFileSync(resolve(dir, 'package-lock.json'), `${JSON.stringify({ name: project.name, lockfileVersion: 3, requires: true, packages: { '': { name: project.name, dependencies }, ...packages } }, null, 2)}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  if (result.error) {
    process.stderr.write(`install-locked: could not start npm: ${result.error.message}\n`);
    return 1;
  }
  return result.status ?? 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) process.exitCode = main(process.argv.slice(2));
