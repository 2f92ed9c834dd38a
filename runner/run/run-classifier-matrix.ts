// The shortest path from a classifier function to a judged matrix.
import { loadCases } from '../cases/load-cases.js';
import { selectCases } from '../cases/select-cases.js';
import { createClassifierTarget } from '../targets/classifier-target.js';
import type { Classifier, ProtocolVersion, RunResult } from '../vocabulary/types.js';
import { runMatrix } from './run-matrix.js';

export interface ClassifierMatrixOptions {
  /** The target's name in the results. @default 'classifier' */
  name?: string;
  /** Case selectors (ids or globs). @default all */
  cases?: string[];
  /** Case directories or globs. @default the bundled table */
  sources?: string[];
  versions?: ProtocolVersion[];
  /** @default 'direct' (no sockets: fastest) */
  mode?: 'http' | 'direct';
  /** @default 2000 */
  timeoutMs?: number;
}

/** Runs the case table against one classifier function (no schema checks) and returns the result model. */
export async function runClassifierMatrix(classify: Classifier, options: ClassifierMatrixOptions = {}): Promise<RunResult> {
  const cases = selectCases(await loadCases(options.sources ? { sources: options.sources } : {}), options.cases ?? []);
  const target = createClassifierTarget({ name: options.name ?? 'classifier', kind: 'classifier' }, classify);
  return runMatrix({
    cases,
    targets: [target],
    mode: options.mode ?? 'direct',
    ...(options.versions ? { versions: options.versions } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
}
