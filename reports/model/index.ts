// The public surface of reports/model/: what code outside the folder uses. scripts/relayout.mjs made
// this list from the imports; a new caller adds the name it needs.
export { computeCaseTableDigest, indexCases } from './case-info.js';
export type { CaseDetails } from './case-info.js';
export { formatCellKey } from './compare-types.js';
export type { ComparedCell, Comparison, TargetPair } from './compare-types.js';
export { FAILURE_KINDS, countFailures, describeFailureKind, formatFailureLine, getFailureKind, getFailureKindTitle, nameFailureKind } from './count-failures.js';
export type { FailureCount, FailureKind } from './count-failures.js';
export { describeFailedCheck, describeMismatch, findMismatch } from './describe-mismatch.js';
export { listPositionsByTarget, listResultKeys, sourceFromResult, toPassableResult, toReportSource } from './report-source.js';
export type { PassableResult, ReportHead, ReportSource } from './report-source.js';
export { SCHEMAS_OFF_NOTICE, areSchemasOff } from './schema-notice.js';
export { SPEC_COMMIT, listSpecReferences, resolveSpecReference } from './spec-references.js';
export type { SpecReference } from './spec-references.js';
export { UNSAFE_CONSEQUENCES, countUnsafe } from './unsafe-cells.js';
export type { UnsafeCount } from './unsafe-cells.js';
