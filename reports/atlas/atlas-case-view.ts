// A case's page (issue 32 item 5): how every stack and version answers it, one row per version,
// one column per protocol version the case applies to; and the list of every case.
import { sanitizeText } from '../redaction/index.js';
import { STATUS_STYLE } from '../html/index.js';
import type { AtlasCaseInfo, AtlasCell, AtlasIndex } from '../../runner/atlas/atlas-types.js';
import { describeAtlasOutcome } from '../../runner/atlas/summarise-version.js';
import { ATLAS_INDEX_PAGE, CASES_INDEX_PAGE, getCasePage, getStackPage, getVersionPage, linkFrom } from './atlas-paths.js';
import { nameCellKind } from './tally-version.js';

/** Each case's cells, by case id, then by `spec` and protocol version: one pass over the atlas. */
export function indexCellsByCase(index: AtlasIndex): Map<string, Map<string, AtlasCell>> {
  const byCase = new Map<string, Map<string, AtlasCell>>();
  for (const stack of index.stacks) {
    for (const version of stack.versions) {
      for (const cell of version.cells) {
        let cells = byCase.get(cell.case);
        if (!cells) byCase.set(cell.case, (cells = new Map()));
        cells.set(`${version.spec}\0${cell.protocolVersion}`, cell);
      }
    }
  }
  return byCase;
}

/** The page of one case. */
export function buildAtlasCaseView(index: AtlasIndex, info: AtlasCaseInfo, cells: ReadonlyMap<string, AtlasCell>) {
  const from = getCasePage(info.id);
  const counts = { pass: 0, fail: 0, non_strict: 0, skip: 0, error: 0 };
  const stacks = index.stacks.map((stack) => ({
    kind: stack.kind,
    href: linkFrom(from, getStackPage(stack.kind)),
    rows: stack.versions.map((version) => ({
      version: version.version,
      href: version.path === undefined ? undefined : linkFrom(from, getVersionPage(stack.kind, version.version)),
      cells: info.versions.map((protocolVersion) => {
        const cell = cells.get(`${version.spec}\0${protocolVersion}`);
        if (!cell) return { status: 'none', word: '—', outcome: version.state === 'not-started' ? 'not measured' : 'not run' };
        counts[cell.status]++;
        return {
          status: cell.status,
          word: STATUS_STYLE[cell.status].word,
          outcome: sanitizeText(describeAtlasOutcome(cell)),
          ...(cell.kind ? { kind: nameCellKind(cell.kind) } : {}),
        };
      }),
    })),
  }));
  return {
    id: sanitizeText(info.id),
    title: sanitizeText(info.title),
    meaning: sanitizeText(info.meaning),
    layer: info.layer,
    protocolVersions: info.versions,
    indexHref: linkFrom(from, ATLAS_INDEX_PAGE),
    casesHref: linkFrom(from, CASES_INDEX_PAGE),
    toolVersion: index.settings.tool.version,
    counts,
    stacks,
  };
}

/** The list of every case, with how many cells of each status it has across the atlas. */
export function buildAtlasCasesView(index: AtlasIndex, byCase: ReadonlyMap<string, ReadonlyMap<string, AtlasCell>>) {
  const from = CASES_INDEX_PAGE;
  return {
    indexHref: linkFrom(from, ATLAS_INDEX_PAGE),
    toolVersion: index.settings.tool.version,
    cases: index.cases.map((info) => {
      const counts = { pass: 0, fail: 0, non_strict: 0, error: 0 };
      for (const cell of byCase.get(info.id)?.values() ?? []) if (cell.status !== 'skip') counts[cell.status]++;
      return { id: sanitizeText(info.id), title: sanitizeText(info.title), layer: info.layer, href: linkFrom(from, getCasePage(info.id)), counts };
    }),
  };
}
