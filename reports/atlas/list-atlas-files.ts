// Every file of an atlas site, each rendered or read only when it is written, so the writer holds
// one page (or one 1 MiB piece of a copied file) at a time: the index, the case list and a page
// per case, a page and a badge per stack, per (stack, version) its folder as measured (results.json,
// matrix.html: the run report's own renderer) and its badge, badges.md, changes.md with
// `--since`, and atlas.json. Receipts over all of it are added by the writer (write-atlas-site.ts).
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { AtlasIndex } from '../../runner/atlas/atlas-types.js';
import { ATLAS_INDEX_FILE } from '../../runner/atlas/atlas-types.js';
import type { ReportFile } from '../report-folder/index.js';
import { makeStackBadge, renderBadgesMarkdown } from './atlas-badges.js';
import { buildAtlasCasesView, buildAtlasCaseView, indexCellsByCase } from './atlas-case-view.js';
import { buildAtlasIndexView } from './atlas-index-view.js';
import { ATLAS_INDEX_PAGE, BADGES_FILE, CASES_INDEX_PAGE, CHANGES_FILE, getCasePage, getStackBadge, getStackPage, getVersionBadge } from './atlas-paths.js';
import { buildAtlasStackView } from './atlas-stack-view.js';
import { getAtlasTemplates } from './atlas-templates.js';
import { makeVersionBadge } from './tally-version.js';

export interface AtlasSiteOptions {
  /** The folder each measured (stack, version)'s files are copied from, by spec. */
  versionDirs: ReadonlyMap<string, string>;
  /** Where the site will be published, for badges.md. */
  siteUrl?: string;
  /** What changed since the previous atlas (`--since`), as Markdown. */
  changes?: string;
}

const READ_CHUNK_BYTES = 1 << 20;

/** A file's text read in pieces as it is iterated (never whole in memory). */
function readTextLazily(path: string): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      const fd = openSync(path, 'r');
      try {
        const decoder = new StringDecoder('utf8');
        const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
        for (;;) {
          const read = readSync(fd, buffer, 0, buffer.length, null);
          if (read === 0) break;
          yield decoder.write(buffer.subarray(0, read));
        }
        const rest = decoder.end();
        if (rest) yield rest;
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Lazily rendered text. */
function later(render: () => string): Iterable<string> {
  return { *[Symbol.iterator]() { yield render(); } };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The files of the site, in the order they are written. */
export function listAtlasFiles(index: AtlasIndex, options: AtlasSiteOptions): ReportFile[] {
  const templates = getAtlasTemplates();
  const files: ReportFile[] = [{ name: ATLAS_INDEX_PAGE, content: later(() => templates.index(buildAtlasIndexView(index))) }];
  const byCase = indexCellsByCase(index);
  files.push({ name: CASES_INDEX_PAGE, content: later(() => templates.cases(buildAtlasCasesView(index, byCase))) });
  for (const info of index.cases) {
    files.push({ name: getCasePage(info.id), content: later(() => templates.case(buildAtlasCaseView(index, info, byCase.get(info.id) ?? new Map()))) });
  }
  for (const stack of index.stacks) {
    files.push({ name: getStackPage(stack.kind), content: later(() => templates.stack(buildAtlasStackView(index, stack))) });
    const stackBadge = makeStackBadge(stack);
    if (stackBadge) files.push({ name: getStackBadge(stack.kind), content: json(stackBadge) });
    for (const version of stack.versions) {
      if (version.path === undefined) continue;
      const dir = options.versionDirs.get(version.spec);
      if (dir === undefined) throw new Error(`atlas: no folder holds the measured files of ${version.spec} (harness bug)`);
      for (const name of readdirSync(dir).sort()) {
        // A gzip member is binary: copied as bytes (small: the evidence compressed).
        const content = name.endsWith('.gz') ? readFileSync(join(dir, name)) : readTextLazily(join(dir, name));
        if (name !== 'badge.json') files.push({ name: `${version.path}${name}`, content });
      }
      files.push({ name: getVersionBadge(stack.kind, version.version), content: json(makeVersionBadge(version)) });
    }
  }
  files.push({ name: BADGES_FILE, content: later(() => renderBadgesMarkdown(index, options.siteUrl)) });
  if (options.changes !== undefined) files.push({ name: CHANGES_FILE, content: options.changes });
  files.push({ name: ATLAS_INDEX_FILE, content: later(() => `${JSON.stringify(index)}\n`) });
  return files;
}
