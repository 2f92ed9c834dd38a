// The record command of the truth corpus:
//
//   npm run truth:record [-- --stack <kind|target> …] [--case <id> …] [--adapter-only] [--timeout <ms>] [--jobs <n>]
//
// For every bundled stack@version (or those named), a probe plays the corpus's cases against the mock
// server with the library's own deadlines, the built-in target runs the same cells through the runner,
// and both land in test/stack-truth/recorded/<target>.json. Re-recording after a version bump is this
// one command. Cells run one at a time; --jobs runs that many stacks side by side (most cells wait on
// a library's 60 s deadline, not on the CPU). --case re-records only those cases, keeping the rest;
// --adapter-only keeps the probe side and runs only the built-in targets again (after an adapter change).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCasesSync } from '../../runner/cases/load-cases.js';
import { recordStack } from './record-stack.js';
import { TRUTH_CASES } from './truth-cases.js';
import { formatRecording, RECORDED_DIR, recordingFileName, type TruthRecording } from './truth-record.js';
import { listTruthStacks, type TruthStack } from './truth-stacks.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT_ADAPTER_TIMEOUT_MS = 10_000;

const { values } = parseArgs({
  options: { stack: { type: 'string', multiple: true }, case: { type: 'string', multiple: true }, 'adapter-only': { type: 'boolean' }, timeout: { type: 'string' }, jobs: { type: 'string' } },
});
const adapterTimeoutMs = readPositive('--timeout', values.timeout, DEFAULT_ADAPTER_TIMEOUT_MS);
const jobs = readPositive('--jobs', values.jobs, 1);
const all = listTruthStacks(join(REPO_ROOT, 'package.json'));
const stacks = selectStacks(all, values.stack ?? []);
const loaded = loadCasesSync({ cwd: REPO_ROOT });
const cases = Object.keys(TRUTH_CASES).map((id) => {
  const found = loaded.find((candidate) => candidate.case.id === id);
  if (!found) throw new Error(`test/stack-truth/truth-cases.ts names case ${id}, which the case table does not have`);
  return found;
});
const only = values.case ? new Set(values.case) : undefined;
for (const id of only ?? []) if (!(id in TRUTH_CASES)) usage(`--case ${id} is not a case of the corpus (test/stack-truth/truth-cases.ts)`);

mkdirSync(RECORDED_DIR, { recursive: true });
const started = performance.now();
const queue = [...stacks];
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
  for (let stack = queue.shift(); stack; stack = queue.shift()) await recordOne(stack);
}));
process.stdout.write(`truth:record: ${stacks.length} stack(s) in ${formatDuration(performance.now() - started)}\n`);

async function recordOne(stack: TruthStack): Promise<void> {
  const stackStarted = performance.now();
  const file = join(fileURLToPath(RECORDED_DIR), recordingFileName(stack.target));
  const previous = (only || values['adapter-only']) && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as TruthRecording) : undefined;
  const recording = await recordStack({
    stack,
    cases,
    adapterTimeoutMs,
    ...(only ? { only } : {}),
    ...(values['adapter-only'] ? { adapterOnly: true } : {}),
    ...(previous && previous.package.version === stack.version ? { previous } : {}),
    onProgress: (line) => process.stdout.write(`${line}\n`),
  });
  // Written whole, then renamed: an interrupted run never leaves half a recording.
  writeFileSync(`${file}.tmp`, formatRecording(recording));
  renameSync(`${file}.tmp`, file);
  process.stdout.write(`${stack.target}: ${recording.cells.length} cells at ${recording.versions.spoken.join(', ')} in ${formatDuration(performance.now() - stackStarted)} → ${file.slice(REPO_ROOT.length)}\n`);
}

function selectStacks(stacks: TruthStack[], names: string[]): TruthStack[] {
  if (names.length === 0) return stacks;
  return names.flatMap((name) => {
    const matched = stacks.filter((stack) => stack.target === name || stack.kind === name);
    if (matched.length === 0) usage(`--stack ${name}: no bundled stack is called that; use one of ${stacks.map((stack) => stack.target).join(', ')} or a kind`);
    return matched;
  });
}

function readPositive(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) usage(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return number;
}

function usage(message: string): never {
  process.stderr.write(`truth:record: ${message}\n`);
  process.exit(2);
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
