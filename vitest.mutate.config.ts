import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant (`npm run mutate`, stryker.config.mjs): only the
// in-process tests of the scope being mutated. No schemas, no network, no CLI
// run over the whole table, so a mutant costs a second or two instead of the full suite's minutes.

// Files that touch the disk or load every fixture run last: StrykerJS stops at the first
// failing test, so a mutant the table-driven unit tests kill never waits for them.
const SLOW_LAST = ['reports/receipts/receipts.test.ts', 'runner/classify/fixtures.test.ts'];

class FastFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => SLOW_LAST.findIndex((slow) => file.moduleId.endsWith(slow));
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

// The tests of each MUTATE_SCOPE (stryker.config.mjs): the dry run runs all of a scope's tests
// once, so a scope that takes only its own starts in seconds. Unset (all scopes): every list.
const VERDICT_TESTS = [
  'runner/classify/**/*.test.ts',
  'runner/judge/**/*.test.ts',
  'runner/baseline/**/*.test.ts',
  'reports/receipts/receipts.test.ts',
  'reports/receipts/receipts-rules.test.ts',
  'reports/redaction/redact-rules.test.ts',
  'reports/redaction/redact-text-rules.test.ts',
  'reports/redaction/redact.test.ts',
  'reports/receipts/sign-receipts-rules.test.ts',
  'reports/receipts/locate-receipt-roots.test.ts',
  'reports/receipts/verify.test.ts',
  'reports/receipts/verify-rules.test.ts',
];
export const SCOPE_TESTS: Record<string, string[]> = {
  classify: VERDICT_TESTS,
  judge: VERDICT_TESTS,
  baseline: VERDICT_TESTS,
  reports: VERDICT_TESTS,
  adapters: [
    'runner/targets/sdk/map-sdk-outcome.test.ts',
    'runner/targets/sdk/peer-error-code.test.ts',
    'runner/targets/sdk/read-observation.test.ts',
    'runner/targets/sdk/map-sdk-outcome-edges.test.ts',
    'runner/targets/sdk/stacks/map-*-outcome.test.ts',
    'runner/targets/sdk/stacks/stack-words.test.ts',
    'runner/targets/sdk/expand-version-range.test.ts',
  ],
  compare: ['runner/compare/*.test.ts', 'runner/shard/*.test.ts', 'reports/trend/*.test.ts', 'reports/html/html-templates.test.ts'],
  'report-folder': ['reports/model/count-failures.test.ts', 'reports/formats/adapter-gap-reports.test.ts', 'reports/formats/summary-json.test.ts', 'reports/report-folder/check-report-folder-rules.test.ts', 'reports/report-folder/recover-report-folder.test.ts', 'reports/report-folder/folder-lock.test.ts', 'reports/report-folder/write.test.ts'],
  formats: [
    'reports/formats/tap*.test.ts',
    'reports/formats/junit*.test.ts',
    'reports/formats/markdown*.test.ts',
    'reports/formats/adapter-gap-reports.test.ts',
    'reports/escaping.test.ts',
    'reports/report-bytes.test.ts',
    'test/hostile/escaping-property.test.ts',
    'runner/vocabulary/version-features.test.ts',
  ],
  targets: [
    'runner/targets/command/parse-command-spec.test.ts',
    'runner/targets/command/parse-command-spec-rules.test.ts',
    'runner/targets/command/read-client-report.test.ts',
    'runner/targets/command/read-client-report-rules.test.ts',
    'runner/targets/command/persistent-protocol.test.ts',
    'runner/targets/command/persistent-protocol-rules.test.ts',
    'runner/targets/command/output-capture.test.ts',
    'runner/targets/command/output-capture-rules.test.ts',
    'runner/targets/sdk/observe-call.test.ts',
    'runner/targets/sdk/observe-call-rules.test.ts',
  ],
  commands: ['runner/commands/run-exit.test.ts'],
};
// Not reports/report-folder/write-errors.test.ts: it mocks node:fs, which with one module graph for
// every file (isolate: false, below) cannot reach a module another file loaded first (its "EROFS
// creating the lock" failed Stryker's dry run). It runs in `npm test`.
// Not test/default-run-observations.test.ts: it maps every recorded call of the default run (a few
// seconds per mutant, and every mapper mutant is covered by it); measured in issue 29, it made the
// adapters scope an estimated 1 h 45 min at load 40. The mappers' rules are their own tests' rows.
const scope = process.env.MUTATE_SCOPE;

export default defineConfig({
  test: {
    include: scope && scope in SCOPE_TESTS ? SCOPE_TESTS[scope] : [...new Set(Object.values(SCOPE_TESTS).flat())],
    // redact-huge.test.ts (texts of 6 to 50 MB, seconds each) is left to `npm test` too.
    // Whole-table and CLI runs, and real clients against the mock server (whose backoff test also
    // reads the wall clock): covered by `npm test`, far too slow per mutant. The judge's rules are
    // tested on hand-made recordings instead (judge-client-offline, client/*.test.ts).
    exclude: ['runner/baseline/baseline-cli.test.ts', 'runner/classify/classifier-bug-table.test.ts', 'runner/judge/judge-client.test.ts'],
    // A crash inside the reference classifier must kill a mutant, not read as INVALID_ENVELOPE.
    env: { MCP_ERROR_MATRIX_RETHROW_CLASSIFIER_BUGS: '1' },
    sequence: { sequencer: FastFirstSequencer },
    // One module graph for every file and every mutant: StrykerJS switches mutants at run time,
    // so re-importing the instrumented modules per file would only cost time.
    poolOptions: { threads: { isolate: false } },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
