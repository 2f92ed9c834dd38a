// Case details the reports show. CaseSummary does not (yet) carry description, expectation or
// spec references; until it does, formats read them from these optional fields when present.
import { createHash } from 'node:crypto';
import type { CaseSummary, ProtocolVersion, RunResult } from '../../runner/vocabulary/types.js';

export interface CaseSpecRef {
  ref: string;
  url?: string;
  version?: ProtocolVersion;
}

/** CaseSummary plus the optional fields requested for it (see the reports' hand-off notes). */
export type CaseDetails = CaseSummary & {
  description?: string;
  expectation?: string;
  policy?: string;
  spec?: CaseSpecRef[];
};

/** Case details by id. */
export function indexCases(result: Pick<RunResult, 'cases'>): Map<string, CaseDetails> {
  return new Map(result.cases.map((c) => [c.id, c as CaseDetails]));
}

/** A digest of the case table: SHA-256 over sorted `id sha256` lines, so any edit to any case file changes it. */
export function computeCaseTableDigest(cases: readonly CaseSummary[]): string {
  const lines = cases.map((c) => `${c.id} ${c.sha256}\n`).sort();
  return createHash('sha256').update(lines.join('')).digest('hex');
}
