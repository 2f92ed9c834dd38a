// `mcp-error-matrix/vitest`: one vitest test per case and version for your classifier, so the
// matrix runs inside your own test suite.
import { describe, test } from 'vitest';
import { loadCasesSync } from './cases/load-cases.js';
import { selectCases } from './cases/select-cases.js';
import type { LoadedCase } from './cases/case-types.js';
import { runMatrix } from './run/run-matrix.js';
import { createClassifierTarget } from './targets/classifier-target.js';
import type { Cell, Classifier, ProtocolVersion } from './types.js';

export interface MatrixTestOptions {
  /** Case selectors (ids or globs). @default all */
  cases?: string[];
  /** Case directories or globs. @default the bundled table */
  sources?: string[];
  versions?: ProtocolVersion[];
  /** @default 'direct' */
  mode?: 'http' | 'direct';
  /** Cells known to fail, as `case` or `case@version`; they run as `test.fails`. */
  expectedFailures?: string[];
  /** @default 2000 */
  timeoutMs?: number;
}

/** Declares a describe block with one test per case × version that fails when the classifier gets the case wrong. */
export function describeMatrix(name: string, classify: Classifier, options: MatrixTestOptions = {}): void {
  const cases = selectCases(loadCasesSync(options.sources ? { sources: options.sources } : {}), options.cases ?? []);
  const expected = new Set(options.expectedFailures ?? []);
  describe(name, () => {
    for (const loaded of cases) {
      for (const version of loaded.case.versions) {
        if (options.versions && !options.versions.includes(version)) continue;
        const known = expected.has(loaded.case.id) || expected.has(`${loaded.case.id}@${version}`);
        (known ? test.fails : test)(`${loaded.case.id} [${version}]`, async () => {
          await expectCellToPass(classify, loaded, version, options);
        });
      }
    }
  });
}

/** Runs one cell and throws an assertion-style error listing the failed checks unless it passes. */
export async function expectCellToPass(classify: Classifier, loaded: LoadedCase, version: ProtocolVersion, options: Pick<MatrixTestOptions, 'mode' | 'timeoutMs'> = {}): Promise<Cell> {
  const target = createClassifierTarget({ name: 'classifier', kind: 'classifier' }, classify);
  const result = await runMatrix({ cases: [loaded], targets: [target], versions: [version], mode: options.mode ?? 'direct', timeoutMs: options.timeoutMs ?? 2000, concurrency: 1 });
  const cell = result.cells[0]!;
  if (cell.status === 'fail' || cell.status === 'error') {
    const lines = cell.status === 'error' ? [cell.reason ?? 'error'] : cell.checks.filter((check) => !check.passed).map((check) => `[${check.level}] ${check.message}`);
    throw new Error(`${loaded.case.id} [${version}] ${cell.status}: ${loaded.case.title}\n  ${lines.join('\n  ')}\n  repro: ${cell.repro}`);
  }
  return cell;
}
