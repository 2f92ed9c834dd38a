// The HTML matrix's view model: everything the template shows, already ordered, counted,
// sanitized and redacted. Cell details travel separately as JSON (see html-details.ts).
import { CASE_LAYERS } from '../../runner/cases/case-types.js';
import type { CellStatus, ProtocolVersion } from '../../runner/vocabulary/types.js';
import type { PassableResult } from '../model/index.js';
import { CELL_STATUSES, PROTOCOL_VERSIONS } from '../../runner/vocabulary/types.js';
import { describePassSources, describeWireOnlyTargets } from '../../runner/run/describe-conclusions.js';
import { describeBackoff, describeReruns } from '../../runner/run/describe-reruns.js';
import { computeCaseTableDigest, indexCases } from '../model/index.js';
import { buildTargets, groupTargets, type TargetBar, type TargetGroup } from './html-target-bars.js';
import { describeFailureKind } from '../model/index.js';
import { UNSAFE_CONSEQUENCES } from '../model/index.js';
import { STATUS_STYLE } from './status-style.js';
import { listSpecReferences, SPEC_COMMIT, type SpecReference } from '../model/index.js';
import type { Comparison } from '../model/index.js';
import type { GridLayout } from './html-grid.js';
import { sanitizeText } from '../redaction/index.js';
import { areSchemasOff, SCHEMAS_OFF_NOTICE } from '../model/index.js';

export interface MatrixColumn {
  target: string;
  targetIndex: number;
  version: ProtocolVersion;
}

export interface MatrixRow {
  caseId: string;
  title: string;
  layer: string;
  /** Lower-cased text the search box matches against. */
  search: string;
  /** The row's position in the grid (rows in display order, group by group). */
  position: number;
}

export interface MatrixViewModel {
  toolName: string;
  toolVersion: string;
  startedAt: string;
  finishedAt: string;
  mode: string;
  node: string;
  platform: string;
  complete: boolean;
  /** Set when the run had no schema checks (--no-schemas): the header says so. */
  schemasOffNotice?: string;
  caseTableDigest: string;
  total: number;
  counts: { status: CellStatus; word: string; count: number }[];
  /** Targets with no measured cell, each with why (the run is not green). */
  unmeasured: string[];
  /** Passes without a verdict, and targets judged on the wire alone. */
  conclusionNotes: string[];
  legend: { status: CellStatus; word: string; description: string }[];
  /** Every target's unsafe cells, known or not, and the run's total: the first screen (issue 30). */
  unsafe: { total: number; unexpected: number; headings: { consequence: string; words: string }[]; line: string };
  targets: TargetBar[];
  /** The targets in their stack groups, numbered across groups. */
  targetGroups: TargetGroup[];
  columns: MatrixColumn[];
  groups: { layer: string; count: number; rows: MatrixRow[] }[];
  layers: string[];
  comparison?: { label: string; regressions: number; fixes: number; added: number; removed: number; removedCells: string[]; pairs: string[] };
  /** Where each cell goes in the grid (html-grid.ts), by raw case, target and version. */
  layout: GridLayout;
  /** Every specification page the cases and failed checks cite, linked at the pinned commit. */
  references: SpecReference[];
  specCommit: string;
}

// The texts a reader sees that may cite the specification: the cases' references and texts, and
// each distinct failed check message.
function* listCitingTexts(result: PassableResult): Generator<string> {
  for (const item of indexCases(result).values()) {
    for (const ref of item.spec ?? []) yield ref.ref;
    yield* [item.description ?? '', item.expectation ?? '', item.policy ?? ''];
  }
  const messages = new Set<string>();
  for (const cell of result.cells) for (const check of cell.checks) if (!check.passed) messages.add(check.message);
  yield* messages;
}

function orderLayers(layers: Iterable<string>): string[] {
  const known: readonly string[] = CASE_LAYERS;
  return [...new Set(layers)].sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    return (ia < 0 ? known.length : ia) - (ib < 0 ? known.length : ib) || a.localeCompare(b);
  });
}

/** Build the matrix view model from a run (pure; all untrusted text sanitized). */
export function buildMatrixViewModel(result: PassableResult, comparison?: Comparison): MatrixViewModel {
  const targets = buildTargets(result);
  const sortedRaw = targets.map((bar) => bar.rawName);
  // One pass over the cells for the versions and case ids they hold (the cells may be made on demand).
  const seenVersions = new Set<string>();
  const cellCaseIds = new Set<string>();
  for (const cell of result.cells) {
    seenVersions.add(cell.protocolVersion);
    cellCaseIds.add(cell.case);
  }
  const versions = PROTOCOL_VERSIONS.filter((v) => seenVersions.has(v));
  const columns: MatrixColumn[] = sortedRaw.flatMap((target, targetIndex) => versions.map((version) => ({ target: sanitizeText(target), targetIndex, version })));

  const cases = indexCases(result);
  const caseIds = [...new Set([...result.cases.map((c) => c.id), ...cellCaseIds])];
  const rows = caseIds.map((caseId) => {
    const info = cases.get(caseId);
    const title = sanitizeText(info?.title ?? caseId);
    const layer = sanitizeText(info?.layer ?? 'other');
    return { rawId: caseId, row: { caseId: sanitizeText(caseId), title, layer, search: `${caseId} ${title}`.toLowerCase(), position: 0 } };
  });
  const layers = orderLayers(rows.map((r) => r.row.layer));
  // Rows are numbered in display order, so the grid and the page agree on row r.
  const rowOf = new Map<string, number>();
  const groups = layers.map((layer) => {
    const inLayer = rows.filter((r) => r.row.layer === layer);
    for (const r of inLayer) rowOf.set(r.rawId, (r.row.position = rowOf.size));
    return { layer, count: inLayer.length, rows: inLayer.map((r) => r.row) };
  });
  const columnOf = new Map(sortedRaw.map((target, targetIndex) => [target, new Map(versions.map((version, v) => [version, targetIndex * versions.length + v]))]));

  return {
    toolName: sanitizeText(result.tool.name),
    toolVersion: sanitizeText(result.tool.version),
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    mode: result.mode,
    node: result.node,
    platform: result.platform,
    complete: result.complete,
    ...(areSchemasOff(result) ? { schemasOffNotice: SCHEMAS_OFF_NOTICE } : {}),
    caseTableDigest: computeCaseTableDigest(result.cases),
    total: result.summary.total,
    counts: CELL_STATUSES.map((status) => ({ status, word: STATUS_STYLE[status].word, count: result.summary[status] })),
    unmeasured: (result.unmeasured ?? []).map((entry) => sanitizeText(`${entry.target}: ${entry.reason}`)),
    conclusionNotes: [...describeWireOnlyTargets(result), ...(describePassSources(result.summary) ? [describePassSources(result.summary)!] : []), ...[describeReruns(result), describeBackoff(result)].filter((note) => note !== undefined)].map((note) =>
      sanitizeText(note),
    ),
    legend: CELL_STATUSES.map((status) => ({ status, word: STATUS_STYLE[status].word, description: STATUS_STYLE[status].description })),
    unsafe: describeUnsafe(targets),
    targets,
    targetGroups: groupTargets(targets),
    columns,
    groups,
    layers,
    ...(comparison
      ? {
          comparison: {
            label: sanitizeText(comparison.baselineLabel ?? 'the previous run'),
            regressions: comparison.regressions.length,
            fixes: comparison.fixes.length,
            added: comparison.added.length,
            removed: comparison.removed.length,
            removedCells: comparison.removed.slice(0, 200).map((c) => sanitizeText(`${c.case} · ${c.target} · ${c.protocolVersion} (was ${c.before ?? '?'})`)),
            // Targets of different names compared with each other (--pair, or one target per family).
            pairs: (comparison.pairs ?? []).map((pair) => sanitizeText(`${pair.before} → ${pair.after}`)),
          },
        }
      : {}),
    layout: { rowOf, columnOf, rows: rowOf.size, columns: columns.length },
    references: listSpecReferences(listCitingTexts(result)).map((ref) => ({ ...ref, title: sanitizeText(ref.title) })),
    specCommit: SPEC_COMMIT.slice(0, 12),
  };
}

// The run's unsafe cells in one line for the header: "785 unsafe cells (0 unexpected): 523 false
// successes, 105 false failures, …", each consequence only when it occurs.
function describeUnsafe(targets: readonly TargetBar[]): MatrixViewModel['unsafe'] {
  const total = targets.reduce((sum, bar) => sum + bar.unsafe.total, 0);
  const unexpected = targets.reduce((sum, bar) => sum + bar.unsafe.unexpected, 0);
  const parts = UNSAFE_CONSEQUENCES.map((consequence) => ({ consequence, count: targets.reduce((sum, bar) => sum + (bar.unsafe.byConsequence[consequence] ?? 0), 0) }))
    .filter((entry) => entry.count > 0)
    .map((entry) => describeFailureKind(entry.consequence, entry.count));
  return {
    total,
    unexpected,
    headings: UNSAFE_CONSEQUENCES.map((consequence) => ({ consequence, words: describeFailureKind(consequence, 2).replace(/^2 /, '') })),
    line: parts.join(', '),
  };
}
