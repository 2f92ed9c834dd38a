// Every change of a stack's cells between consecutive versions, read from the version trend of
// the run reports (reports/trend/trend-view-model.ts), so the stack page, the trend table and `--since`
// name the same changes: the version it changed at, against the nearest earlier version that
// measured the same (case, protocol version), fix, regression or another outcome.
import { buildTrendFamilies, type TrendChange, type TrendFamily, type TrendSourceCell } from '../../reports/trend/index.js';
import { compareVersions } from '../compare/order-versions.js';
import type { AtlasStack } from './atlas-types.js';

/** One change of a (case, protocol version) row between two versions of a stack. */
export interface StackChange {
  caseId: string;
  protocolVersion: string;
  /** The version it changed at, and the one before it that measured the same row. */
  version: string;
  previous: string;
  change: TrendChange;
  from: string;
  to: string;
  consequence?: string;
}

/**
 * The atlas's cells of a stack as the trend reads them. A cell that was not measured (error: the
 * machine starved it, the adapter could not map it, the worker broke) is left out: it says nothing
 * about the library, so it is no change and a version's neighbours are compared across it (the
 * versions table keeps its count).
 */
export function toTrendCells(stack: Pick<AtlasStack, 'versions'>): TrendSourceCell[] {
  return stack.versions.flatMap((version) =>
    version.cells.filter((cell) => cell.status !== 'error').map((cell) => ({
      target: version.spec,
      case: cell.case,
      protocolVersion: cell.protocolVersion,
      status: cell.status,
      actual: cell.actual ?? [],
      checks: (cell.consequences ?? []).map((consequence) => ({ passed: false, consequence })),
    })),
  );
}

/** Every change between consecutive measured versions of a stack, oldest first, case order within a version. */
export function listStackChanges(stack: Pick<AtlasStack, 'versions'>): StackChange[] {
  const family = buildTrendFamilies(toTrendCells(stack), stack.versions.map((v) => ({ name: v.spec, version: v.version })))[0];
  return family ? readChanges(family) : [];
}

function readChanges(family: TrendFamily): StackChange[] {
  const changes: StackChange[] = [];
  for (const row of family.rows) {
    let previous: { version: string; outcome: string } | undefined;
    row.cells.forEach((cell, index) => {
      const version = family.versions[index]!.version;
      if (cell.change && previous) {
        changes.push({ caseId: row.caseId, protocolVersion: row.protocolVersion, version, previous: previous.version, change: cell.change, from: previous.outcome, to: cell.outcome, ...(cell.consequence ? { consequence: cell.consequence } : {}) });
      }
      if (cell.status !== 'skip' && cell.status !== 'error' && cell.status !== 'none') previous = { version, outcome: cell.outcome };
    });
  }
  return changes.sort((a, b) => compareVersions(a.version, b.version));
}

