// The programmatic API: run a matrix over chosen cases and targets and get the result model back.
export { loadCases, loadCasesSync, type LoadCasesOptions } from './cases/load-cases.js';
export { selectCases } from './cases/select-cases.js';
export type { Case, LoadedCase, ExchangeSpec, ResponseSpec, ClientExpectation } from './cases/case-types.js';
export { classifyReference, createClassifier } from './classify/reference.js';
export { classifyNaive } from './classify/naive.js';
export { readVerdict } from './classify/read-verdict.js';
export { runMatrix, planCells, summariseCells, type RunMatrixOptions } from './run/run-matrix.js';
export { createClassifierTarget } from './targets/classifier-target.js';
export { resolveTarget, resolveTargets, expandTargetSpecs, DEFAULT_TARGETS } from './targets/resolve-target.js';
export { resolveSchemas, createSchemaValidator, checkScriptedResponses } from './schema-check/index.js';
export { renderReports, REPORT_FORMATS } from '../reports/index.js';
export { writeRunReports } from '../reports/write-run-reports.js';
export { sourceFromResult, type ReportHead, type ReportSource } from '../reports/model/index.js';
export { RunnerError, UsageError, TargetSpecError } from './util/errors.js';
export { CaseTableError } from './cases/case-errors.js';
export { runClassifierMatrix, type ClassifierMatrixOptions } from './run/run-classifier-matrix.js';
export { main } from './cli/cli.js';
export * from './vocabulary/types.js';
