// One line per cell for a test's failure message: case, version, status, expected and actual outcomes.
import type { Cell } from '../runner/vocabulary/types.js';

/** `case [version] status: expected A, got B (reason)` */
export function describeCellFailure(cell: Cell): string {
  const actual = cell.actual.map((verdict) => verdict?.outcome ?? 'none').join(',');
  return `${cell.case} [${cell.protocolVersion}] ${cell.status}: expected ${cell.expected.map((e) => e.outcome).join(',')}, got ${actual}${cell.reason ? ` (${cell.reason})` : ''}`;
}
