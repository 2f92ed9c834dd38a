import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { OWN_PROCESS_FILES } from './test/own-process-files.js';
import { findTestSchemasDir, formatSkipNotice, getBrowserRequirement, getSchemaRequirement, getSpecExamplesRequirement } from './test/requirements.js';

// Tests never download schemas: test/requirements.ts finds the pinned copies (MCP_SCHEMAS_DIR,
// ../shared/mcp-spec beside the clone, or the user cache) and every load still checks the pins.
// Without them the tests that need them skip, under one notice printed here (under CI=true they fail).
const schemasDir = findTestSchemasDir();
const env = { ...process.env, ...(schemasDir ? { MCP_SCHEMAS_DIR: schemasDir } : {}) };
const notice = formatSkipNotice([getSchemaRequirement(env), getSpecExamplesRequirement(env), getBrowserRequirement()], env);
// vitest evaluates this file once for the root and once per project: the notice is printed once per run.
const NOTICE_SHOWN = Symbol.for('mcp-error-matrix.skip-notice-shown');
const shared = globalThis as { [NOTICE_SHOWN]?: boolean };
if (notice && !shared[NOTICE_SHOWN]) {
  shared[NOTICE_SHOWN] = true;
  console.warn(notice);
}

const INCLUDE = ['runner/**/*.test.ts', 'reports/**/*.test.ts', 'test/**/*.test.ts'];
// The tests' own cache folder (XDG_CACHE_HOME of every test process and the CLIs they start): client
// installs, validator code and version lists go there, never to the user's ~/.cache. A test that
// read the user's cache passed or failed by what that machine had installed before (an SDK version
// present or not), and a test run filled the user's cache. What a test needs absent, it makes
// itself (an empty folder of its own); what it finds here it put here.
const TEST_CACHE_HOME = fileURLToPath(new URL('./node_modules/.cache/mcp-error-matrix-tests', import.meta.url));
// Worker threads that stay up for the whole run, one more than cores: most test files wait on
// sockets, child processes and fsync rather than the CPU. Kept as many as the maximum: with fewer,
// tinypool ended a shared worker that still had files queued ("Terminating worker thread", files
// never run, exit 1).
const SHARED_THREADS = availableParallelism() + 1;

export default defineConfig({
  test: {
    // Test files share worker threads and modules (not isolated): a fresh worker per file cost about
    // 0.8 s of CPU each, most of the suite's CPU for files whose tests take well under a second, and
    // every file loaded the case table, the schemas and the validator code again. The few files
    // that could disturb or be disturbed by a neighbour run in a fresh process each
    // (test/own-process-files.ts says which and why). Both projects run at once.
    projects: [
      { extends: true, test: { name: 'own-process', include: [...OWN_PROCESS_FILES], pool: 'forks' } },
      { extends: true, test: { name: 'shared-workers', include: INCLUDE, exclude: [...OWN_PROCESS_FILES], pool: 'threads' } },
    ],
    poolOptions: {
      forks: { isolate: true },
      threads: { isolate: false, maxThreads: SHARED_THREADS, minThreads: SHARED_THREADS },
    },
    // A crash inside the reference classifier throws instead of reading as INVALID_ENVELOPE
    // (runner/classify/reference.ts), so no test row passes on a crash.
    env: { ...(schemasDir ? { MCP_SCHEMAS_DIR: schemasDir } : {}), MCP_ERROR_MATRIX_RETHROW_CLASSIFIER_BUGS: '1', XDG_CACHE_HOME: TEST_CACHE_HOME },
    // Most test files wait on sockets and child processes rather than the CPU: one worker more
    // than cores measured 73 s against 102 s for the whole suite on 2 cores, with no flaky test.
    maxWorkers: availableParallelism() + 1,
    minWorkers: 1,
    // A guard against hangs, not a speed check: on a loaded 2-core machine (load 25-30, several
    // test runs at once) an in-process run of 1-3 s of CPU took more than 20 s of wall, and 20 s
    // failed tests that were only slow (published-cases http mode, results-schema, action run step).
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
