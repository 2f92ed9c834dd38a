import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant (`npm run mutate`, stryker.config.json): only the
// in-process tests of the code that decides verdicts and evidence. No schemas, no network, no CLI
// run over the whole table, so a mutant costs a second or two instead of the full suite's minutes.

// Files that touch the disk or load every fixture run last: StrykerJS stops at the first
// failing test, so a mutant the table-driven unit tests kill never waits for them.
const SLOW_LAST = ['reports/receipts.test.ts', 'runner/classify/fixtures.test.ts'];

class FastFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => SLOW_LAST.findIndex((slow) => file.moduleId.endsWith(slow));
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    include: [
      'runner/classify/**/*.test.ts',
      'runner/judge/**/*.test.ts',
      'runner/baseline/**/*.test.ts',
      'reports/receipts.test.ts',
      'reports/receipts-rules.test.ts',
      'reports/redact-rules.test.ts',
      'reports/redact-text-rules.test.ts',
      'reports/redact.test.ts',
      'reports/sign-receipts-rules.test.ts',
      'reports/locate-receipt-roots.test.ts',
      'reports/verify.test.ts',
      'reports/verify-rules.test.ts',
    ],
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
