// The receipts name the validator code that judged a run's schema checks, and `verify` checks it:
// found in the verifier's own validator code cache (the code is pinned, so any run fills it), a
// changed file is a mismatch, and a cache that holds none leaves it NOT CHECKED (never a pass).
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readValidatorCodePins } from '../runner/schema-check/validator-code.js';
import { describeWithSchemas, getTestSchemasDir } from './describe-requiring.js';
import { runCli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-code-receipts-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const codeDir = (cache: string) => join(cache, 'mcp-error-matrix', 'schemas', 'validator-code');
const env = (cache: string) => ({ ...process.env, CI: 'true', MCP_SCHEMAS_DIR: getTestSchemasDir(), XDG_CACHE_HOME: cache });

describeWithSchemas('validator code in the receipts', () => {
  it('lists each code file with its pinned SHA-256, and verify checks it from its own cache', { timeout: 60_000 }, async () => {
    const runCache = join(dir, 'run-cache');
    const args = ['run', '--target', 'reference', '--mode', 'direct', '--case', 'tool-is-error', '--version', '2025-06-18', '--no-baseline', '--quiet', '--out', 'report'];
    const run = await runCli(args, { cwd: dir, env: env(runCache) });
    expect(run.code, run.stderr).toBe(0);
    const receipts = JSON.parse(await readFile(join(dir, 'report', 'receipts.json'), 'utf8')) as { inputs: { kind: string; label?: string; sha256: string; base?: string }[] };
    const codes = receipts.inputs.filter((input) => input.kind === 'validator-code');
    const pinned = Object.values(readValidatorCodePins()!.schemas).flatMap((entry) => Object.values(entry.codes));
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      expect(pinned).toContain(code.sha256);
      expect(code.base).toBe('validator-code');
      expect(code.label).toMatch(/^2025-06-18 \w+ \(pin [0-9a-f]{12}\)$/);
    }

    // The verifier's machine: the code sits in its own cache, not where the run recorded it.
    const otherCache = join(dir, 'other-cache');
    await mkdir(join(otherCache, 'mcp-error-matrix', 'schemas'), { recursive: true });
    await rename(codeDir(runCache), codeDir(otherCache));
    const verified = await runCli(['verify', 'report'], { cwd: dir, env: env(otherCache) });
    expect(verified.stdout).toMatch(/^OK: /m);
    const nowhere = await runCli(['verify', 'report'], { cwd: dir, env: env(join(dir, 'empty-cache')) });
    expect(nowhere.stdout).toMatch(/NOT CHECKED validator-code:/);
    expect(nowhere.code).toBe(1);

    // A changed code file no longer matches what judged the run.
    const { path } = receipts.inputs.find((input) => input.kind === 'validator-code') as unknown as { path: string };
    await writeFile(join(codeDir(otherCache), path), 'module.exports = () => true;\n');
    const tampered = await runCli(['verify', 'report'], { cwd: dir, env: env(otherCache) });
    expect(tampered.stdout).toMatch(new RegExp(`MISMATCH validator-code:${path.replace(/[.]/g, '\\.')}`));
    expect(tampered.code).toBe(1);
  });
});
