// The atlas's front page (issue 32 item 5): one row per stack, one cell per version (newest
// first), each coloured by its worst unexpected consequence and listing its failing cells by
// kind, linking down to the version's matrix; the stack's name links to its trend page.
import { describeFailureKind, FAILURE_KINDS, getFailureKindTitle } from '../model/index.js';
import { sanitizeText } from '../redaction/index.js';
import type { AtlasIndex, AtlasStack, AtlasVersion } from '../../runner/atlas/atlas-types.js';
import { ATLAS_INDEX_PAGE, CASES_INDEX_PAGE, getStackPage, getVersionPage, linkFrom } from './atlas-paths.js';
import { tallyVersion } from './tally-version.js';

export interface AtlasVersionCell {
  version: string;
  href?: string;
  /** CSS class: the worst kind (`k-false-success`…), `k-clean`, `k-speaks-none` or `k-not-started`. */
  look: string;
  /** One line under the version: the kinds with counts, or what it is. */
  lines: string[];
  /** The whole sentence, for a tooltip and for screen readers. */
  title: string;
}

/** How a version looks in the index and on its stack page. */
export function describeVersionCell(kind: string, version: AtlasVersion, from: string): AtlasVersionCell {
  const href = version.path === undefined ? undefined : linkFrom(from, getVersionPage(kind, version.version));
  if (version.state === 'not-started') {
    return { version: version.version, look: 'k-not-started', lines: ['not measured'], title: `${version.spec} could not be started: ${sanitizeText(version.reason ?? 'unknown reason')}` };
  }
  if (version.state === 'speaks-none') {
    return { version: version.version, ...(href ? { href } : {}), look: 'k-speaks-none', lines: ['speaks none of the protocol versions'], title: `${version.spec}: ${sanitizeText(version.reason ?? 'every cell skipped')}` };
  }
  const tally = tallyVersion(version.cells);
  const measured = tally.pass + tally.fail + tally.non_strict + tally.error;
  const lines = tally.kinds.length === 0 ? [`${tally.pass} of ${measured} pass`] : tally.kinds.map((entry) => entry.words);
  const speaks = version.speaks.length > 0 ? `; measured at ${version.speaks.join(', ')}` : '';
  return {
    version: version.version,
    ...(href ? { href } : {}),
    look: tally.worst ? `k-${tally.worst}` : 'k-clean',
    lines,
    title: `${version.spec}: ${tally.pass} pass, ${tally.fail} fail, ${tally.non_strict} non-strict, ${tally.error} error, ${tally.skip} skip${speaks}${tally.kinds.length ? ` — ${tally.kinds.map((k) => k.words).join(', ')}` : ''}`,
  };
}

/** A stack's coverage in words: what was measured and what was not, and why. */
export function describeCoverage(stack: AtlasStack): string {
  const { coverage } = stack;
  const which = coverage.releases === 'all' ? 'every release' : 'the latest patch of every minor';
  const scope = coverage.range === undefined ? `${which}, newest first, back to the first that speaks none of the table's protocol versions` : `${which} in ${coverage.range}`;
  const parts = [scope];
  if (coverage.edge !== undefined) {
    const edge = stack.versions.find((version) => version.version === coverage.edge);
    const why = edge?.state === 'speaks-none' ? 'it speaks none of them' : `it could not be measured: ${sanitizeText(edge?.reason ?? 'unknown reason')}`;
    const older = coverage.beyondEdge.length > 0 ? `; ${coverage.beyondEdge.length} older (${coverage.beyondEdge.at(-1)} to ${coverage.beyondEdge[0]}) not measured` : '';
    parts.push(`the walk back stopped at ${coverage.edge}: ${why}${older}`);
  }
  if (coverage.pending.length > 0) parts.push(`not measured because the atlas was stopped: ${coverage.pending.join(', ')}`);
  return parts.join('; ');
}

/** The index page's view. */
export function buildAtlasIndexView(index: AtlasIndex) {
  const from = ATLAS_INDEX_PAGE;
  let cells = 0;
  let versions = 0;
  for (const stack of index.stacks) for (const version of stack.versions) {
    versions++;
    cells += version.cells.length;
  }
  return {
    toolName: index.settings.tool.name,
    toolVersion: index.settings.tool.version,
    startedAt: index.startedAt,
    finishedAt: index.finishedAt,
    complete: index.complete,
    protocolVersions: index.protocolVersions.join(', '),
    totals: { stacks: index.stacks.length, versions, cells, cases: index.cases.length },
    legend: [
      ...FAILURE_KINDS.filter((kind) => kind !== 'stale-entry').map((kind) => ({ look: `k-${kind}`, word: getFailureKindTitle(kind), description: describeFailureKind(kind) })),
      { look: 'k-clean', word: 'No failure', description: 'every measured cell passes' },
      { look: 'k-speaks-none', word: 'Speaks none', description: "the version speaks none of the table's protocol versions: every cell is skipped (where the walk back stops)" },
      { look: 'k-not-started', word: 'Not measured', description: 'the version could not be installed or started; the next atlas tries it again' },
    ],
    stacks: index.stacks.map((stack) => ({
      kind: stack.kind,
      packageName: sanitizeText(stack.packageName),
      implementation: sanitizeText(stack.implementation),
      href: linkFrom(from, getStackPage(stack.kind)),
      coverage: describeCoverage(stack),
      versions: stack.versions.map((version) => describeVersionCell(stack.kind, version, from)),
    })),
    casesHref: linkFrom(from, CASES_INDEX_PAGE),
  };
}
