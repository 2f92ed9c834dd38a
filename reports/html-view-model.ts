// The HTML matrix's view model: everything the template shows, already ordered, counted,
// sanitized and redacted. Cell details travel separately as JSON (see html-details.ts).
import { CASE_LAYERS } from '../runner/cases/case-types.js';
import type { Cell, CellStatus, ProtocolVersion, RunResult } from '../runner/types.js';
import { CELL_STATUSES, PROTOCOL_VERSIONS } from '../runner/types.js';
import { describePassSources, describeWireOnlyTargets } from '../runner/run/describe-conclusions.js';
import { computeCaseTableDigest, indexCases } from './case-info.js';
import { buildTargets, type TargetBar } from './html-target-bars.js';
import { STATUS_STYLE } from './status-style.js';
import { findMismatch } from './describe-mismatch.js';
import { listSpecReferences, SPEC_COMMIT, type SpecReference } from './spec-references.js';
import type { Comparison } from './compare-types.js';
import { formatCellKey } from './compare-types.js';
import { sanitizeText } from './redact.js';
import { areSchemasOff, SCHEMAS_OFF_NOTICE } from './schema-notice.js';

export type CompareMark = 'regression' | 'fix' | 'added';
const MARK_SYMBOL: Record<CompareMark, string> = { regression: '▼', fix: '▲', added: '+' };

export interface MatrixCell {
  /** Index into the details JSON; -1 when no cell exists (case not run for this column). */
  index: number;
  hasDetails: boolean;
  /** Position of the cell's target in the ordered target list (for the target filter). */
  targetIndex: number;
  status: CellStatus | 'none';
  word: string;
  mark?: CompareMark;
  markSymbol?: string;
  /** Judged without a verdict (exit status alone, the wire alone, or nothing): drawn apart, never the same green. */
  conclusion?: 'exit_status' | 'wire_only' | 'none';
  /** The outcome the target concluded where the case expects another (shown after the word). */
  concluded?: string;
  /** The target concluded TOOL_SUCCESS where the case expects a failure: drawn apart from other failures. */
  falseSuccess?: boolean;
}

// The tag a verdict-less cell carries after its word (README § Command targets).
const CONCLUSION_TAG: Record<NonNullable<MatrixCell['conclusion']>, string> = { exit_status: 'EXIT', wire_only: 'WIRE', none: 'NONE' };

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
  cells: MatrixCell[];
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
  targets: TargetBar[];
  columns: MatrixColumn[];
  groups: { layer: string; count: number; rows: MatrixRow[] }[];
  layers: string[];
  comparison?: { label: string; regressions: number; fixes: number; added: number; removed: number; removedCells: string[]; pairs: string[] };
  /** Cells in the order their details are embedded, so `MatrixCell.index` points into it. */
  cellOrder: Cell[];
  /** Every specification page the cases and failed checks cite, linked at the pinned commit. */
  references: SpecReference[];
  specCommit: string;
}

// The texts a reader sees that may cite the specification: the cases' references and texts, and
// each distinct failed check message.
function* listCitingTexts(result: RunResult): Generator<string> {
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

function buildMarks(comparison: Comparison | undefined): Map<string, CompareMark> {
  const marks = new Map<string, CompareMark>();
  if (!comparison) return marks;
  for (const c of comparison.added) marks.set(formatCellKey(c), 'added');
  for (const c of comparison.fixes) marks.set(formatCellKey(c), 'fix');
  for (const c of comparison.regressions) marks.set(formatCellKey(c), 'regression');
  return marks;
}

// Case → target → version → position in result.cells (the last cell wins); nested maps, as one map
// keyed by formatCellKey built and hashed 200,000 JSON strings for a 100,000-cell run.
function indexCellPositions(cells: readonly Cell[]): Map<string, Map<string, Map<string, number>>> {
  const positions = new Map<string, Map<string, Map<string, number>>>();
  cells.forEach((cell, i) => {
    let byTarget = positions.get(cell.case);
    if (!byTarget) positions.set(cell.case, (byTarget = new Map()));
    let byVersion = byTarget.get(cell.target);
    if (!byVersion) byTarget.set(cell.target, (byVersion = new Map()));
    byVersion.set(cell.protocolVersion, i);
  });
  return positions;
}

/** Build the matrix view model from a run (pure; all untrusted text sanitized). */
export function buildMatrixViewModel(result: RunResult, comparison?: Comparison): MatrixViewModel {
  const targets = buildTargets(result);
  const sortedRaw = targets.map((bar) => bar.rawName);
  const versions = PROTOCOL_VERSIONS.filter((v) => result.cells.some((c) => c.protocolVersion === v));
  const columns: MatrixColumn[] = sortedRaw.flatMap((target, targetIndex) => versions.map((version) => ({ target: sanitizeText(target), targetIndex, version })));

  const positions = indexCellPositions(result.cells);
  const marks = buildMarks(comparison);
  const cases = indexCases(result);
  const caseIds = [...new Set([...result.cases.map((c) => c.id), ...result.cells.map((c) => c.case)])];

  const rows: MatrixRow[] = caseIds.map((caseId) => {
    const info = cases.get(caseId);
    const title = sanitizeText(info?.title ?? caseId);
    const cells = sortedRaw.flatMap((target, targetIndex) =>
      versions.map((version): MatrixCell => {
        const index = positions.get(caseId)?.get(target)?.get(version);
        const cell = index === undefined ? undefined : result.cells[index];
        if (!cell || index === undefined) return { index: -1, hasDetails: false, targetIndex, status: 'none', word: '—' };
        const mark = marks.size ? marks.get(formatCellKey(cell)) : undefined;
        const style = STATUS_STYLE[cell.status];
        const conclusion = cell.conclusion === undefined || cell.conclusion === 'verdict' ? undefined : cell.conclusion;
        const mismatch = cell.status === 'pass' || cell.status === 'skip' || cell.status === 'xpass' ? undefined : findMismatch(cell);
        const word = conclusion ? `${style.word} (${CONCLUSION_TAG[conclusion]})` : style.word;
        return {
          index,
          hasDetails: true,
          targetIndex,
          status: cell.status,
          word,
          ...(mismatch ? { concluded: sanitizeText(mismatch.actual) } : {}),
          ...(mark ? { mark, markSymbol: MARK_SYMBOL[mark] } : {}),
          ...(conclusion ? { conclusion } : {}),
          ...(mismatch?.consequence === 'false-success' ? { falseSuccess: true } : {}),
        };
      }),
    );
    const layer = sanitizeText(info?.layer ?? 'other');
    return { caseId: sanitizeText(caseId), title, layer, search: `${caseId} ${title}`.toLowerCase(), cells };
  });
  const layers = orderLayers(rows.map((r) => r.layer));
  const groups = layers.map((layer) => {
    const inLayer = rows.filter((r) => r.layer === layer);
    return { layer, count: inLayer.length, rows: inLayer };
  });

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
    conclusionNotes: [...describeWireOnlyTargets(result), ...(describePassSources(result.summary) ? [describePassSources(result.summary)!] : [])].map((note) => sanitizeText(note)),
    legend: CELL_STATUSES.map((status) => ({ status, word: STATUS_STYLE[status].word, description: STATUS_STYLE[status].description })),
    targets,
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
    cellOrder: result.cells,
    references: listSpecReferences(listCitingTexts(result)).map((ref) => ({ ...ref, title: sanitizeText(ref.title) })),
    specCommit: SPEC_COMMIT.slice(0, 12),
  };
}
