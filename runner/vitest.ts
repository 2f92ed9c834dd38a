// `mcp-error-matrix/vitest`: one vitest test per case and version for your classifier, so the
// matrix runs inside your own test suite.
import { describe, test } from 'vitest';
import { closest } from './cases/case-errors.js';
import { loadCasesSync } from './cases/load-cases.js';
import { selectCases } from './cases/select-cases.js';
import type { LoadedCase } from './cases/case-types.js';
import { runMatrix } from './run/run-matrix.js';
import { createClassifierTarget } from './targets/classifier-target.js';
import { PROTOCOL_VERSIONS, type Cell, type Classifier, type ProtocolVersion } from './vocabulary/types.js';

export interface MatrixTestOptions {
  /** Case selectors (ids or globs). @default all */
  cases?: string[];
  /** Case directories or globs. @default the bundled table */
  sources?: string[];
  versions?: ProtocolVersion[];
  /** @default 'direct' */
  mode?: 'http' | 'direct';
  /**
   * Cells known to fail, as `case` or `case@version`; they run as `test.fails`. An id that is
   * not in the case table (or a version the case does not apply to) is an error, with a did-you-mean.
   */
  expectedFailures?: string[];
  /** @default 2000 */
  timeoutMs?: number;
  /**
   * Whether a `non_strict` cell (only SHOULD or POLICY checks failed) fails its test. With the
   * default, `true`, it fails unless listed in `expectedFailures`; `false` lets it pass.
   * `fail` and `error` cells always fail; a `skip` cell is reported as skipped, never as passed.
   * @default true
   */
  strict?: boolean;
  /**
   * The `--target` spec that loads the same classifier from the command line, e.g.
   * `classifier:./src/classify.js#classify`. Failure messages then carry a repro command that
   * reruns the cell; without it they say to set this option.
   */
  target?: string;
}

/** Declares a describe block with one test per case × version that fails when the classifier gets the case wrong. */
export function describeMatrix(name: string, classify: Classifier, options: MatrixTestOptions = {}): void {
  const table = loadCasesSync(options.sources ? { sources: options.sources } : {});
  const cases = selectCases(table, options.cases ?? []);
  const expected = checkExpectedFailures(options.expectedFailures ?? [], table);
  if (options.target !== undefined) checkTargetSpec(options.target);
  describe(name, () => {
    for (const loaded of cases) {
      for (const version of loaded.case.versions) {
        if (options.versions && !options.versions.includes(version)) continue;
        const known = expected.has(loaded.case.id) || expected.has(`${loaded.case.id}@${version}`);
        (known ? test.fails : test)(`${loaded.case.id} [${version}]`, async (context) => {
          const cell = await expectCellToPass(classify, loaded, version, options);
          if (cell.status === 'skip') context.skip(cell.reason ?? 'skipped by the target');
        });
      }
    }
  });
}

/**
 * Runs one cell and throws an assertion-style error listing the failed checks unless it passes:
 * `fail` and `error` always throw, `non_strict` throws unless `strict: false`. A `skip` cell is
 * returned as is (describeMatrix marks its test skipped).
 */
export async function expectCellToPass(
  classify: Classifier,
  loaded: LoadedCase,
  version: ProtocolVersion,
  options: Pick<MatrixTestOptions, 'mode' | 'timeoutMs' | 'strict' | 'target' | 'sources'> = {},
): Promise<Cell> {
  const target = createClassifierTarget({ name: options.target ?? 'classifier', kind: 'classifier' }, classify);
  const result = await runMatrix({
    cases: [loaded],
    targets: [target],
    versions: [version],
    mode: options.mode ?? 'direct',
    timeoutMs: options.timeoutMs ?? 2000,
    concurrency: 1,
    repro: { cases: options.sources },
  });
  const cell = result.cells[0]!;
  const failing = cell.status === 'fail' || cell.status === 'error' || (cell.status === 'non_strict' && options.strict !== false);
  if (failing) {
    const lines = cell.status === 'error' ? [cell.reason ?? 'error'] : cell.checks.filter((check) => !check.passed).map((check) => `[${check.level}] ${check.message}`);
    if (cell.status === 'non_strict') lines.push('(non_strict: only SHOULD/POLICY checks failed; list the cell in expectedFailures or pass strict: false to accept it)');
    const repro = options.target === undefined ? 'set the `target` option (e.g. target: "classifier:./src/classify.js#classify") to get a command that reruns this cell' : cell.repro;
    throw new Error(`${loaded.case.id} [${version}] ${cell.status}: ${loaded.case.title}\n  ${lines.join('\n  ')}\n  repro: ${repro}`);
  }
  return cell;
}

/** The expectedFailures entries as a set, after checking each names a case (and version) of the table. */
function checkExpectedFailures(entries: string[], table: readonly LoadedCase[]): Set<string> {
  const ids = table.map((loaded) => loaded.case.id);
  for (const entry of entries) {
    const at = entry.lastIndexOf('@');
    const id = at === -1 ? entry : entry.slice(0, at);
    const version = at === -1 ? undefined : entry.slice(at + 1);
    const loaded = table.find((item) => item.case.id === id);
    if (!loaded) {
      const guess = closest(id, ids);
      throw new Error(`describeMatrix: expectedFailures entry "${entry}" names no case${guess ? ` (did you mean "${guess}${version === undefined ? '' : `@${version}`}"?)` : ''}; \`npx mcp-error-matrix list\` shows the ids`);
    }
    if (version !== undefined && !loaded.case.versions.includes(version as ProtocolVersion)) {
      const known = (PROTOCOL_VERSIONS as readonly string[]).includes(version) ? `${id} applies only to ${loaded.case.versions.join(', ')}` : `expected ${PROTOCOL_VERSIONS.join(' or ')}`;
      throw new Error(`describeMatrix: expectedFailures entry "${entry}": no such version (${known})`);
    }
  }
  return new Set(entries);
}

function checkTargetSpec(spec: string): void {
  if (!/^classifier:[^#]+(#[A-Za-z_$][\w$]*)?$/.test(spec)) {
    throw new Error(`describeMatrix: target "${spec}" must be a classifier spec, classifier:<module>[#export], as \`run --target\` takes it`);
  }
}
