// A worker's answers, end to end: a client library that writes to its process's stdout (5 MiB
// without a newline, through process.stdout and through fd 1 itself) does not touch them, and an
// answer past the runner's cap (4 MiB a line) makes its cell an error that names the cap, while the
// cells after it are read as before (issue 28 item 4: caps on what a target may answer).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../cases/case-types.js';
import { loadCases } from '../../cases/load-cases.js';
import { runMatrix } from '../../run/run-matrix.js';
import { createSdkTarget } from './sdk-target.js';

// SDK 1.32.2 whose Client writes to stdout on every tools/call (test/fixtures/stdout-writing-sdk).
const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/stdout-writing-sdk', import.meta.url));
const VERSION = '1.32.2-stdout';

let cacheDir: string;
let sdk: Awaited<ReturnType<typeof createSdkTarget>>;
let baseline: LoadedCase;
beforeAll(async () => {
  // The fixture stands in the client cache where an install of that version would be.
  cacheDir = mkdtempSync(join(tmpdir(), 'worker-stdout-'));
  const scope = join(cacheDir, `@modelcontextprotocol+sdk@${VERSION}`, 'node_modules', '@modelcontextprotocol');
  mkdirSync(scope, { recursive: true });
  symlinkSync(FIXTURE, join(scope, 'sdk'), 'dir');
  sdk = await createSdkTarget(`ts-sdk@${VERSION}`, { cacheDir, versions: ['2025-11-25'] });
  baseline = (await loadCases()).find((loaded) => loaded.case.id === 'baseline')!;
}, 120_000);
afterAll(async () => {
  await sdk?.close?.();
  rmSync(cacheDir, { recursive: true, force: true });
});

const runBaseline = async () => (await runMatrix({ cases: [baseline], targets: [sdk], versions: ['2025-11-25'], concurrency: 1 })).cells[0]!;

describe("an SDK worker's answers", () => {
  it('are not touched by what the library writes to stdout', async () => {
    const cell = await runBaseline();
    expect(cell.reason).toBeUndefined();
    expect(cell).toMatchObject({ status: 'pass', actual: [{ outcome: 'TOOL_SUCCESS' }] });
  });

  it('past the cap make their cell an error naming the cap, and the next cell is read as before', async () => {
    sdk.worker.padNextAnswerForTest(5 * 1024 * 1024);
    const capped = await runBaseline();
    expect(capped.status).toBe('error');
    expect(capped.reason).toMatch(/the SDK worker's answer for this cell is larger than the 4 MiB an answer may have \(5,?\d{3},?\d{3} bytes or more\); it was not read/);
    expect(await runBaseline()).toMatchObject({ status: 'pass', actual: [{ outcome: 'TOOL_SUCCESS' }] });
  });
});
