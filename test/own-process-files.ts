// The test files that run in a fresh worker process of their own (vitest.config.ts, project
// "own-process"); every other file shares the suite's worker threads and their modules (project
// "shared-workers", not isolated). A file belongs here only when sharing would let it disturb, or
// be disturbed by, the files that ran before it in the same thread:
// - reports/report-folder/write-errors.test.ts mocks node:fs/promises (vi.mock), which a shared module graph
//   would keep for the files after it;
// - runner/run/abort-listeners.test.ts counts the process's MaxListenersExceededWarning events,
//   which any file sharing its process could raise;
// - runner/targets/command/persistent-lane.test.ts sets process.env.HOSTILE_MARK for every client
//   it starts and counts the processes that carry it, so a later file's children would carry it too;
// - runner/harness/post-message.test.ts races an answer against a deadline that must not credit
//   stalls (its controls): a run an earlier file left going in the same thread starts measuring
//   the thread's stalls again at any moment (its confirm re-runs come after a pause), and the
//   control then read 'answer' (a full suite at load 41); waiting for quiet first cannot rule out
//   a watcher that starts during the race.
// A fresh worker process costs about 0.8 s of CPU per file (vitest's worker, its imports and the
// project's modules loaded again), which the suite paid for 73 files before this list (docs/development.md).
export const OWN_PROCESS_FILES: readonly string[] = [
  'reports/report-folder/write-errors.test.ts',
  'runner/run/abort-listeners.test.ts',
  'runner/targets/command/persistent-lane.test.ts',
  'runner/harness/post-message.test.ts',
];
