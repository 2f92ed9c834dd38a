// Issue 13 §4: a report folder attached to a review verifies on another machine. The run reads the
// user's --cases and a classifier module (with a file it imports) from one folder; the report and
// copies of those inputs are moved to another folder (the original is deleted), and `verify` finds
// each input through `--root NAME=DIR`. An input whose root is not given is NOT CHECKED, never a pass.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packagePath } from '../runner/util/package-paths.js';
import { describeWithSchemas, getTestSchemasDir } from './describe-requiring.js';
import { runCli } from './run-cli.js';

let made: string;
let moved: string;
// The report of runReport(), made once in `made` and kept aside in `pristine`: each test starts
// from a byte-identical copy at the same path (the receipts record that path), instead of a run of its own.
let pristine: string;

beforeAll(async () => {
  made = await mkdtemp(join(tmpdir(), 'mem-travel-made-'));
  await mkdir(join(made, 'cases'));
  for (const name of ['malformed-json.json', 'error-with-data.json']) await cp(packagePath('cases', 'protocol', name), join(made, 'cases', name));
  await mkdir(join(made, 'classifier', 'lib'), { recursive: true });
  await writeFile(join(made, 'classifier', 'lib', 'status.mjs'), 'export const isOk = (status) => status >= 200 && status < 300;\n');
  await writeFile(
    join(made, 'classifier', 'mine.mjs'),
    "import { isOk } from './lib/status.mjs';\nexport default (input) => ({ outcome: isOk(input.status) ? 'TOOL_SUCCESS' : 'HTTP_ERROR', layer: 'transport', summary: 'status' });\n",
  );
  await runReport();
  pristine = await mkdtemp(join(tmpdir(), 'mem-travel-pristine-'));
  await cp(made, pristine, { recursive: true });
}, 60_000);
beforeEach(async () => {
  await rm(made, { recursive: true, force: true });
  await cp(pristine, made, { recursive: true });
  moved = await mkdtemp(join(tmpdir(), 'mem-travel-moved-'));
});
afterEach(async () => {
  await rm(made, { recursive: true, force: true });
  await rm(moved, { recursive: true, force: true });
});
afterAll(async () => {
  await rm(pristine, { recursive: true, force: true });
});

async function runReport(): Promise<void> {
  const args = ['run', '--cases', 'cases', '--target', 'classifier:./classifier/mine.mjs', '--target', 'reference', '--mode', 'direct', '--no-schemas', '--no-baseline', '--quiet', '--out', 'report'];
  const run = await runCli(args, { cwd: made });
  expect(run.stderr).not.toMatch(/Error|error:/);
}

async function moveEverything(): Promise<void> {
  await cp(join(made, 'report'), join(moved, 'report'), { recursive: true });
  await cp(join(made, 'cases'), join(moved, 'their-cases'), { recursive: true });
  await cp(join(made, 'classifier'), join(moved, 'their-classifier'), { recursive: true });
  await rm(made, { recursive: true, force: true });
}

// The report was made in-process once (beforeAll, which also compiles the runner and report modules
// for vitest: ~10 s on a loaded 2-core machine); each test verifies its own copy.
describe('a report folder verifies after it moved', { timeout: 60_000 }, () => {
  it('records the user inputs under named roots, relative paths only, and the package root without its location', async () => {
    const receipts = JSON.parse(await readFile(join(made, 'report', 'receipts.json'), 'utf8'));
    expect(receipts.format).toBe('mcp-error-matrix/receipts@2');
    expect(Object.keys(receipts.roots).sort()).toEqual(['cases', 'classifier', 'package']);
    expect(receipts.roots.package.at).toBeUndefined();
    expect(receipts.roots.cases.at).toBe(join(made, 'cases'));
    const targets = receipts.inputs.filter((input: { kind: string }) => input.kind === 'target');
    expect(targets).toContainEqual(expect.objectContaining({ base: 'classifier', path: 'mine.mjs', label: 'classifier:./classifier/mine.mjs' }));
    expect(targets).toContainEqual(expect.objectContaining({ base: 'classifier', path: 'lib/status.mjs', label: 'classifier:./classifier/mine.mjs (imported)' }));
    for (const entry of [...receipts.inputs, ...receipts.outputs]) expect(entry.path.startsWith('/')).toBe(false);
    // Verified where it was made, nothing needs to be said: the recorded locations are found.
    expect(await runCli(['verify', 'report'], { cwd: made })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^OK: \d+ files checked, 0 mismatches\n$/m) });
  });

  it('verifies in another folder with --root NAME=DIR for each user root', async () => {
    await moveEverything();
    const verify = await runCli(['verify', 'report', '--root', 'cases=their-cases', '--root', 'classifier=their-classifier'], { cwd: moved });
    expect(verify.stdout).not.toMatch(/MISMATCH|NOT CHECKED/);
    expect(verify).toMatchObject({ code: 0, stdout: expect.stringMatching(/^OK: \d+ files checked, 0 mismatches$/m) });
  });

  it('names every input of a root not given as NOT CHECKED, and fails', async () => {
    await moveEverything();
    const verify = await runCli(['verify', 'report', '--root', 'classifier=their-classifier'], { cwd: moved });
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain(`NOT CHECKED cases:malformed-json.json: root "cases" (the case files given with --cases) is not at ${join(made, 'cases')} on this machine; pass --root cases=DIR`);
    expect(verify.stdout).toMatch(/NOT CHECKED cases:error-with-data\.json/);
    expect(verify.stdout).toMatch(/^INCOMPLETE: \d+ files checked, 0 mismatches, 2 not checked$/m);
  });

  it('a report moved away from inputs that are still where the run read them: NOT CHECKED with the --root hint, never a mismatch', async () => {
    await cp(join(made, 'report'), join(moved, 'report'), { recursive: true });
    const verify = await runCli(['verify', 'report'], { cwd: moved });
    expect(verify.code).toBe(1);
    expect(verify.stdout).not.toMatch(/MISMATCH|FAILED/);
    expect(verify.stdout).toContain(`NOT CHECKED cases:malformed-json.json: root "cases" is at ${join(made, 'cases')}, outside the folders verify may read; pass --root cases=DIR (or --allow DIR) to check it`);
    expect(verify.stdout).toMatch(/^NOT CHECKED classifier:mine\.mjs: root "classifier" is at /m);
    expect(verify.stdout).toMatch(/^INCOMPLETE: \d+ files checked, 0 mismatches, 4 not checked$/m);
    // Given as asked, they are checked.
    const given = await runCli(['verify', 'report', '--root', `cases=${join(made, 'cases')}`, '--root', `classifier=${join(made, 'classifier')}`], { cwd: moved });
    expect(given).toMatchObject({ code: 0, stdout: expect.stringMatching(/^OK: \d+ files checked, 0 mismatches$/m) });
  });

  it('reports an input missing from a given root as a missing mismatch', async () => {
    await moveEverything();
    await rm(join(moved, 'their-classifier', 'lib', 'status.mjs'));
    const verify = await runCli(['verify', 'report', '--root', 'cases=their-cases', '--root', 'classifier=their-classifier'], { cwd: moved });
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/^MISMATCH classifier:lib\/status\.mjs: expected [0-9a-f]{64}, found missing$/m);
    expect(verify.stdout).toMatch(/^FAILED: \d+ files checked, 1 mismatch$/m);
  });

  it('refuses --root for the report root or a folder that does not exist (exit 2)', async () => {
    expect(await runCli(['verify', 'report', '--root', 'report=.'], { cwd: made })).toMatchObject({ code: 2, stderr: expect.stringContaining('"report" is not a root that can be moved') });
    expect(await runCli(['verify', 'report', '--root', 'cases=nowhere'], { cwd: made })).toMatchObject({ code: 2, stderr: expect.stringContaining('--root cases=nowhere: no such folder') });
  });
});

describeWithSchemas('the schemas root on another machine', () => {
  it("falls back to the verifier's own MCP_SCHEMAS_DIR when the run's schema folder is not there", { timeout: 60_000 }, async () => {
    await cp(getTestSchemasDir(), join(made, 'schemas'), { recursive: true });
    const args = ['run', '--cases', 'cases', '--target', 'reference', '--version', '2025-11-25', '--mode', 'direct', '--schemas', 'schemas', '--no-baseline', '--quiet', '--out', 'report'];
    expect((await runCli(args, { cwd: made })).code).toBe(0);
    const receipts = JSON.parse(await readFile(join(made, 'report', 'receipts.json'), 'utf8'));
    // The root is the folder of <version>/schema.json, whatever versions the run used.
    expect(receipts.roots.schemas.at).toBe(join(made, 'schemas'));
    expect(receipts.inputs.filter((input: { kind: string }) => input.kind === 'schema').map((input: { base: string; path: string }) => `${input.base}:${input.path}`)).toContain('schemas:2025-11-25/schema.json');
    await moveEverything();
    await cp(getTestSchemasDir(), join(moved, 'my-schemas'), { recursive: true });
    const env = { ...process.env, CI: 'true', MCP_SCHEMAS_DIR: join(moved, 'my-schemas') };
    const verify = await runCli(['verify', 'report', '--root', 'cases=their-cases'], { cwd: moved, env });
    expect(verify.stdout).not.toMatch(/MISMATCH|NOT CHECKED/);
    expect(verify.code).toBe(0);
  });
});
