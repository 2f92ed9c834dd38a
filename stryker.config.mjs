// StrykerJS on the code that decides verdicts and evidence (issue 17) and, since issue 29, on the
// code whose mistake changes a verdict, a count, a comparison or a file on disk: `npm run mutate`,
// not part of `npm test`. MUTATE_SCOPE=<scope> mutates one scope, with its own incremental file
// and reports under mutation-report/<scope>/, and runs only that scope's tests
// (vitest.mutate.config.ts). A full run takes hours on two shared cores; see docs/mutation.md.
export const SCOPES = {
  classify: ['runner/classify/**/*.ts'],
  judge: ['runner/judge/**/*.ts'],
  baseline: ['runner/baseline/**/*.ts'],
  reports: [
    'reports/receipts/verify.ts',
    'reports/receipts/receipts.ts',
    'reports/receipts/locate-receipt-roots.ts',
    // Signing decides whether a report is believed too (issue 13 §4).
    'reports/receipts/sign-receipts.ts',
    'reports/receipts/verify-signature.ts',
    'reports/redaction/redact.ts',
    'reports/redaction/redact-text.ts',
    'reports/redaction/strip-control.ts',
  ],
  // Issue 29: what a client library did, mapped onto the taxonomy (a wrong row is a wrong verdict
  // about a library), and which versions of a range are run.
  adapters: [
    'runner/targets/sdk/map-observation.mjs',
    'runner/targets/sdk/map-sdk-outcome.mjs',
    'runner/targets/sdk/read-observation.mjs',
    'runner/targets/sdk/stacks/map-*-outcome.mjs',
    'runner/targets/sdk/expand-version-range.ts',
  ],
  // `compare`, `merge` and the trend: regressions, fixes, counts over shards, version order.
  compare: ['runner/compare/**/*.ts', 'runner/shard/**/*.ts', 'reports/trend/trend-*.ts'],
  // The counts every report prints and the --out guard (a wrong answer there loses a user's files).
  'report-folder': ['reports/model/count-failures.ts', 'reports/report-folder/check-report-folder.ts', 'reports/report-folder/folder-lock.ts', 'reports/report-folder/recover-report-folder.ts'],
  // The formats CI reads, and what each protocol version has.
  formats: ['reports/formats/tap.ts', 'reports/formats/junit.ts', 'reports/formats/markdown.ts', 'runner/vocabulary/version-features.ts'],
  // How a command client's words are read (its report, its persistent-lane lines, its command
  // line and output) and what an SDK worker records of what a library threw or returned.
  targets: [
    'runner/targets/command/parse-command-spec.ts',
    'runner/targets/command/read-client-report.ts',
    'runner/targets/command/persistent-protocol.ts',
    'runner/targets/command/output-capture.ts',
    'runner/targets/sdk/observe-call.mjs',
  ],
  // The exit code every CI job reads, and the lines that close a run's stderr.
  commands: ['runner/commands/run-exit.ts'],
};
// Tests and the builders they share are not production code.
const NOT_MUTATED = ['!**/*.test.ts', '!runner/classify/test-inputs.ts', '!runner/judge/client/test-recordings.ts'];

const scope = process.env.MUTATE_SCOPE ?? 'all';
if (scope !== 'all' && !(scope in SCOPES)) {
  throw new Error(`MUTATE_SCOPE="${scope}" is not one of: ${Object.keys(SCOPES).join(', ')} (or unset for all of them)`);
}
const out = `mutation-report/${scope}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  // Only the in-process tests of this scope, fastest first (vitest.mutate.config.ts).
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [...(scope === 'all' ? Object.values(SCOPES).flat() : SCOPES[scope]), ...NOT_MUTATED],
  // Static mutants (code run at module load: constants, regex literals) rerun every test; the
  // first full run counted 586 of them, estimated at 80 % of its time. They are reported as ignored.
  ignoreStatic: true,
  // Two cores shared by the whole team: one test runner.
  concurrency: 1,
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${out}/mutation.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  thresholds: { high: 95, low: 90, break: null },
  timeoutMS: 10_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
