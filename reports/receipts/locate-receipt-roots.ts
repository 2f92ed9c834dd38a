// Where each named root of receipts@2 is on the verifying machine (see verify.ts). A root's
// recorded location is a hint only: finding a root here never grants permission to read it.
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { getPackageRoot } from '../../runner/util/package-paths.js';

export interface RootLocatorOptions {
  /** The "package" root given with the legacy `--root DIR`. */
  rootDir?: string;
  /** `--root NAME=DIR`. */
  roots?: Record<string, string>;
  /** Looked at, in order, when neither --root nor the recorded location has the root. */
  fallbackRoots?: Record<string, string[]>;
}

export type RootLocation = { dir: string } | { reason: string };

/**
 * Where each named root is on this machine: `--root NAME=DIR`; for "package", this tool's package
 * root (or the legacy `--root DIR`); else the location the receipts recorded, if it exists here.
 * The recorded location is only a hint: it grants no permission to read (see resolveAllowedDirs).
 */
export function createRootLocator(recordedRoots: unknown, options: RootLocatorOptions): (name: string) => RootLocation {
  const recorded = (typeof recordedRoots === 'object' && recordedRoots !== null && !Array.isArray(recordedRoots) ? recordedRoots : {}) as Record<string, unknown>;
  const cache = new Map<string, RootLocation>();
  const locate = (name: string): RootLocation => {
    // Root names come from untrusted receipts: only own keys count (never `constructor` or `__proto__`).
    const given = options.roots !== undefined && Object.hasOwn(options.roots, name) ? options.roots[name] : undefined;
    if (given !== undefined) return { dir: given };
    if (name === 'package') return { dir: options.rootDir ?? getPackageRoot() };
    const root = (Object.hasOwn(recorded, name) && typeof recorded[name] === 'object' && recorded[name] !== null ? recorded[name] : {}) as { what?: unknown; at?: unknown };
    const what = typeof root.what === 'string' ? ` (${root.what.slice(0, 120)})` : '';
    const at = typeof root.at === 'string' && isAbsolute(root.at) ? root.at : undefined;
    if (at !== undefined && existsSync(at)) return { dir: at };
    const fallback = (Object.hasOwn(options.fallbackRoots ?? {}, name) ? options.fallbackRoots![name]! : []).find((dir) => existsSync(dir));
    if (fallback !== undefined) return { dir: fallback };
    if (at !== undefined) return { reason: `root "${name}"${what} is not at ${at.slice(0, 200)} on this machine; pass --root ${name}=DIR` };
    return { reason: `root "${name}"${what} has no recorded location; pass --root ${name}=DIR` };
  };
  return (name) => {
    if (!cache.has(name)) cache.set(name, locate(name));
    return cache.get(name)!;
  };
}

