// Where each page of an atlas site lives, and the relative link from one page to another: every
// link is relative, so the site works from file:// and from any folder of any static host.
import { posix } from 'node:path';

export const ATLAS_INDEX_PAGE = 'index.html';
export const BADGES_FILE = 'badges.md';
export const CHANGES_FILE = 'changes.md';
export const CASES_INDEX_PAGE = 'cases/index.html';

/** The folder of a (stack, version): its results.json, matrix.html and badge.json. */
export function getVersionDir(kind: string, version: string): string {
  return `stacks/${kind}/${version}/`;
}

export function getVersionPage(kind: string, version: string): string {
  return `${getVersionDir(kind, version)}matrix.html`;
}

export function getVersionBadge(kind: string, version: string): string {
  return `${getVersionDir(kind, version)}badge.json`;
}

export function getStackPage(kind: string): string {
  return `stacks/${kind}/index.html`;
}

/** The badge of a stack's newest measured version. */
export function getStackBadge(kind: string): string {
  return `stacks/${kind}/badge.json`;
}

export function getCasePage(caseId: string): string {
  return `cases/${caseId}.html`;
}

/** The link from the page at `from` to the file at `to`, both site paths. */
export function linkFrom(from: string, to: string): string {
  return posix.relative(posix.dirname(from), to) || posix.basename(to);
}
