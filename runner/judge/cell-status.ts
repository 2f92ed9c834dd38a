// Decides a cell's status from its checks (DESIGN §6).
import type { CellStatus, Check, TargetOutcome } from '../vocabulary/types.js';

/** pass, fail (a MUST failed), non_strict (only SHOULD/POLICY failed), skip or error. */
export function decideCellStatus(outcome: TargetOutcome, checks: Check[]): { status: CellStatus; reason?: string } {
  if (outcome.error !== undefined) return { status: 'error', reason: outcome.error };
  if (outcome.skip !== undefined) return { status: 'skip', reason: outcome.skip };
  const failed = checks.filter((check) => !check.passed);
  if (failed.some((check) => check.level === 'MUST')) return { status: 'fail' };
  if (failed.some((check) => check.level === 'SHOULD' || check.level === 'POLICY')) return { status: 'non_strict' };
  return { status: 'pass' };
}
