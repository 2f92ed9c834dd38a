// What ran, for receipts: this tool's version and (when it runs from a git checkout) commit, Node,
// the platform, and each target's package as installed: name, version, and the integrity npm
// recorded for it (the project's package-lock.json, npm's hidden node_modules/.package-lock.json,
// or the installed package.json's `_integrity`). Whatever cannot be read is omitted, not guessed.
import { basename, dirname, join, relative, sep } from 'node:path';
import type { RunProvenance, TargetProvenance } from '../../reports/receipts/index.js';
import { readUserText } from '../io/read-user-file.js';
import { getPackageRoot, getPackageVersion } from '../util/package-paths.js';
import type { TargetInfo } from '../vocabulary/types.js';
import { readGitCommit } from './read-git-commit.js';

const PACKAGE_JSON_MAX_BYTES = 1024 * 1024;
const LOCKFILE_MAX_BYTES = 64 * 1024 * 1024;

/** Tool, commit, Node and every target's package. */
export async function describeWhatRan(targets: readonly TargetInfo[]): Promise<RunProvenance> {
  const commit = await readGitCommit(getPackageRoot());
  return {
    tool: { name: 'mcp-error-matrix', version: getPackageVersion(), ...(commit === undefined ? {} : { commit }) },
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    targets: await Promise.all(targets.map(describeTarget)),
  };
}

async function describeTarget(info: TargetInfo): Promise<TargetProvenance> {
  const base: TargetProvenance = { name: info.name, kind: info.kind, ...(info.version === undefined ? {} : { version: info.version }) };
  // An SDK target's source is the installed package's package.json.
  if (info.kind !== 'client' || info.source === undefined || basename(info.source) !== 'package.json') return base;
  const installed = await readJson(info.source, PACKAGE_JSON_MAX_BYTES);
  if (typeof installed.name !== 'string' || typeof installed.version !== 'string') return base;
  const integrity = await findIntegrity(dirname(info.source), installed);
  return { ...base, package: { name: installed.name, version: installed.version, ...integrity } };
}

/** The integrity npm recorded for the package installed at `dir`, and the file it was read from. */
async function findIntegrity(dir: string, installed: Record<string, unknown>): Promise<{ integrity?: string; integrityFrom?: string }> {
  const at = dir.lastIndexOf(`${sep}node_modules${sep}`);
  if (at !== -1) {
    const prefix = dir.slice(0, at);
    const key = relative(prefix, dir).split(sep).join('/');
    const lockfiles = [
      ...(prefix === getPackageRoot() ? [{ file: join(prefix, 'package-lock.json'), shown: 'package-lock.json' }] : []),
      { file: join(prefix, 'node_modules', '.package-lock.json'), shown: 'node_modules/.package-lock.json' },
    ];
    for (const { file, shown } of lockfiles) {
      const lock = await readJson(file, LOCKFILE_MAX_BYTES);
      const packages = (typeof lock.packages === 'object' && lock.packages !== null ? lock.packages : {}) as Record<string, unknown>;
      const entry = (Object.hasOwn(packages, key) && typeof packages[key] === 'object' && packages[key] !== null ? packages[key] : {}) as { version?: unknown; integrity?: unknown };
      if (typeof entry.integrity === 'string' && entry.version === installed.version) return { integrity: entry.integrity, integrityFrom: shown };
    }
  }
  return typeof installed._integrity === 'string' ? { integrity: installed._integrity, integrityFrom: 'package.json _integrity' } : {};
}

/** A JSON object from a bounded read; `{}` when absent, unreadable or not an object. */
async function readJson(file: string, maxBytes: number): Promise<Record<string, unknown>> {
  try {
    const parsed = JSON.parse(await readUserText(file, { maxBytes, what: 'package file' })) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
