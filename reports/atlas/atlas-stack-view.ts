// A stack's page (issue 32 item 5): its versions with their counts, the version trend of the run
// reports (trend-view-model.ts, trend.hbs: chart and per-row outcomes), and above it every case
// whose outcome changed between versions: the first version where it changed, fix or regression,
// what it costs, and what the case means.
import type { AtlasCaseInfo, AtlasIndex, AtlasStack, AtlasVersion } from '../../runner/atlas/atlas-types.js';
import { listStackChanges, toTrendCells } from '../../runner/atlas/list-stack-changes.js';
import { sanitizeText } from '../redaction/index.js';
import { buildTrendViews } from '../trend/index.js';
import type { TrendChange } from '../trend/index.js';
import { ATLAS_INDEX_PAGE, getCasePage, getStackPage, getVersionBadge, getVersionPage, linkFrom } from './atlas-paths.js';
import { describeCoverage, describeVersionCell } from './atlas-index-view.js';
import { makeVersionBadge, tallyVersion } from './tally-version.js';

const CHANGE_WORDS: Record<TrendChange, string> = { fix: 'fix', regression: 'regression', changed: 'other outcome' };

/** A stack page's view. */
export function buildAtlasStackView(index: AtlasIndex, stack: AtlasStack) {
  const from = getStackPage(stack.kind);
  const cases = new Map<string, AtlasCaseInfo>(index.cases.map((item) => [item.id, item]));
  const changes = listStackChanges(stack).map((change) => {
    const info = cases.get(change.caseId);
    return {
      ...change,
      caseId: sanitizeText(change.caseId),
      from: sanitizeText(change.from),
      to: sanitizeText(change.to),
      changeWord: CHANGE_WORDS[change.change],
      caseHref: linkFrom(from, getCasePage(change.caseId)),
      versionHref: linkFrom(from, getVersionPage(stack.kind, change.version)),
      title: sanitizeText(info?.title ?? change.caseId),
      meaning: sanitizeText(info?.meaning ?? ''),
    };
  });
  // A version that measured nothing has no cells: the trend leaves it out by itself.
  const measured = stack.versions.filter((version) => version.cells.length > 0);
  return {
    kind: stack.kind,
    packageName: sanitizeText(stack.packageName),
    implementation: sanitizeText(stack.implementation),
    coverage: describeCoverage(stack),
    indexHref: linkFrom(from, ATLAS_INDEX_PAGE),
    toolVersion: index.settings.tool.version,
    finishedAt: index.finishedAt,
    versions: stack.versions.map((version) => describeVersionRow(stack.kind, version, from)),
    changes,
    changedRows: new Set(changes.map((c) => `${c.caseId}\0${c.protocolVersion}`)).size,
    trends: buildTrendViews({ targets: measured.map((v) => ({ name: v.spec, version: v.version })), cells: toTrendCells({ versions: measured }) }),
  };
}

function describeVersionRow(kind: string, version: AtlasVersion, from: string) {
  const tally = tallyVersion(version.cells);
  const badge = makeVersionBadge(version);
  return {
    ...describeVersionCell(kind, version, from),
    state: version.state,
    speaks: version.speaks.join(', ') || '—',
    tally,
    badge: badge.message,
    badgeHref: version.path === undefined ? undefined : linkFrom(from, getVersionBadge(kind, version.version)),
    reused: version.reusedCells,
    measuredAt: version.measuredAt,
  };
}
