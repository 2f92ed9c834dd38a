import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceipts, RECEIPTS_FILE, SUMS_FILE } from './receipts.js';
import { verifyReport } from './verify.js';

let root: string;
let reportDir: string;

// A repository-like tree: inputs under cases/ and schemas/, the report under report/.
async function writeReport(options: { rootDir?: boolean } = {}) {
  await mkdir(join(root, 'cases', 'protocol'), { recursive: true });
  await mkdir(join(root, 'schemas'), { recursive: true });
  await mkdir(join(reportDir, 'sub'), { recursive: true });
  await writeFile(join(root, 'cases', 'protocol', 'malformed-json.json'), '{"id":"malformed-json"}\n');
  await writeFile(join(root, 'schemas', '2025-11-25.json'), '{"$schema":"x"}');
  await writeFile(join(reportDir, 'baseline.yaml'), 'naive:\n  - case: malformed-json\n');
  await writeFile(join(reportDir, 'results.json'), '{"format":"mcp-error-matrix/results@1"}\n');
  await writeFile(join(reportDir, 'matrix.html'), '<!DOCTYPE html><p>ok</p>\n');
  await writeFile(join(reportDir, 'sub', 'summary.md'), '## ok\n');
  const { receiptsJson, sha256sums, receipts } = await createReceipts({
    inputs: [
      { kind: 'case', path: join(root, 'cases', 'protocol', 'malformed-json.json') },
      { kind: 'schema', path: join(root, 'schemas', '2025-11-25.json'), label: '2025-11-25' },
      { kind: 'baseline', path: join(reportDir, 'baseline.yaml') },
    ],
    outputs: ['results.json', join(reportDir, 'matrix.html'), 'sub/summary.md'],
    outDir: reportDir,
    ...(options.rootDir ? { roots: { package: { dir: root, what: 'the package', recordLocation: false } } } : {}),
  });
  await writeFile(join(reportDir, RECEIPTS_FILE), receiptsJson);
  await writeFile(join(reportDir, SUMS_FILE), sha256sums);
  return { receipts, sha256sums };
}

async function flipOneByte(path: string) {
  const bytes = await readFile(path);
  bytes[0] = bytes[0]! ^ 1;
  await writeFile(path, bytes);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mem-receipts-'));
  reportDir = join(root, 'report');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('receipts and verify', () => {
  it('writes SHA256SUMS in sha256sum format, sorted, covering report files and receipts.json', async () => {
    const { sha256sums } = await writeReport();
    const names = sha256sums.trimEnd().split('\n').map((line) => {
      expect(line).toMatch(/^[0-9a-f]{64} {2}\S+$/);
      return line.slice(66);
    });
    expect(names).toEqual(['baseline.yaml', 'matrix.html', 'receipts.json', 'results.json', 'sub/summary.md']);
  });

  it('records inputs outside the report dir with absolute paths, or relative to a named root', async () => {
    const absolute = await writeReport();
    expect(absolute.receipts.inputs[0]).toMatchObject({ kind: 'case', base: 'absolute', path: join(root, 'cases', 'protocol', 'malformed-json.json'), bytes: 24 });
    expect(absolute.receipts.inputs[2]).toMatchObject({ kind: 'baseline', base: 'report', path: 'baseline.yaml' });
    const relative = await writeReport({ rootDir: true });
    expect(relative.receipts.inputs[1]).toMatchObject({ base: 'package', path: 'schemas/2025-11-25.json', label: '2025-11-25' });
    // The package root is located by the verifying tool: its name and meaning are recorded, not where it was.
    expect(relative.receipts.roots).toEqual({ package: { what: 'the package' } });
    // No input under a root (or no root at all): no root is recorded; no label, no label key.
    expect(absolute.receipts.roots).toEqual({});
    expect(absolute.receipts).toMatchObject({ format: 'mcp-error-matrix/receipts@2', algorithm: 'sha256' });
    expect('label' in absolute.receipts.inputs[0]!).toBe(false);
  });

  it('sorts SHA256SUMS by name whatever order the files were given in', async () => {
    await mkdir(reportDir, { recursive: true });
    for (const name of ['z.txt', 'y.txt', 'b.txt', 'a.txt', 'm.txt']) await writeFile(join(reportDir, name), name);
    const { sha256sums } = await createReceipts({ inputs: [], outputs: ['z.txt', 'y.txt', 'b.txt', 'a.txt', 'm.txt'], outDir: reportDir, roots: { package: { dir: root, what: 'the package' } } });
    expect(sha256sums.trimEnd().split('\n').map((line) => line.slice(66))).toEqual(['a.txt', 'b.txt', 'm.txt', 'receipts.json', 'y.txt', 'z.txt']);
  });

  it('hashes the file bytes (same digest as sha256sum)', async () => {
    const { receipts } = await writeReport();
    const line = execFileSync('sha256sum', [join(root, 'schemas', '2025-11-25.json')], { encoding: 'utf8' });
    expect(receipts.inputs[1]!.sha256).toBe(line.slice(0, 64));
  });

  it('is accepted by the real sha256sum -c', async () => {
    await writeReport();
    const out = execFileSync('sha256sum', ['-c', SUMS_FILE], { cwd: reportDir, encoding: 'utf8' });
    expect(out).toContain('results.json: OK');
  });

  it('verifies a fresh report', async () => {
    await writeReport({ rootDir: true });
    const result = await verifyReport(reportDir, { rootDir: root });
    expect(result).toEqual({ ok: true, checked: 7, mismatches: [] });
  });

  it('fails on a one-byte change in an input outside the report dir', async () => {
    const { receipts } = await writeReport();
    await flipOneByte(join(root, 'cases', 'protocol', 'malformed-json.json'));
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual([{ path: join(root, 'cases', 'protocol', 'malformed-json.json'), expected: receipts.inputs[0]!.sha256, actual: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  it('fails on a one-byte change in an output, and sha256sum -c agrees', async () => {
    await writeReport();
    await flipOneByte(join(reportDir, 'matrix.html'));
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.ok).toBe(false);
    expect(result.mismatches.map((m) => m.path)).toEqual(['matrix.html']);
    expect(() => execFileSync('sha256sum', ['-c', '--quiet', SUMS_FILE], { cwd: reportDir, stdio: 'pipe' })).toThrow();
  });

  it('reports a missing file as missing', async () => {
    await writeReport();
    await rm(join(reportDir, 'sub', 'summary.md'));
    const result = await verifyReport(reportDir);
    expect(result.mismatches).toContainEqual({ path: 'sub/summary.md', expected: expect.any(String), actual: 'missing' });
  });

  it('catches an edited receipts.json through SHA256SUMS', async () => {
    await writeReport();
    const path = join(reportDir, RECEIPTS_FILE);
    await writeFile(path, (await readFile(path, 'utf8')).replace('"bytes": 24', '"bytes": 25'));
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches.map((m) => m.path)).toEqual([RECEIPTS_FILE]);
  });

  it('fails when receipts are absent', async () => {
    await mkdir(reportDir, { recursive: true });
    const result = await verifyReport(reportDir);
    expect(result.ok).toBe(false);
    expect(result.mismatches.map((m) => m.actual)).toEqual(['missing', 'missing']);
  });

  it('refuses an output outside the report dir', async () => {
    await mkdir(reportDir, { recursive: true });
    await writeFile(join(root, 'elsewhere.txt'), 'x');
    await expect(createReceipts({ inputs: [], outputs: [join(root, 'elsewhere.txt')], outDir: reportDir })).rejects.toThrow(/not inside the report directory/);
  });
});

// Issue 11 item 8: the receipts are someone else's file; verify must not hang on them, read outside
// the folders it was given, accept an unlisted file, or accept receipts with no inputs.
describe('verify treats receipts as untrusted input', () => {
  async function rewriteReceipts(edit: (receipts: { inputs: unknown[]; outputs: unknown[] }) => void) {
    const path = join(reportDir, RECEIPTS_FILE);
    const receipts = JSON.parse(await readFile(path, 'utf8')) as { inputs: unknown[]; outputs: unknown[] };
    edit(receipts);
    const text = `${JSON.stringify(receipts, null, 2)}\n`;
    await writeFile(path, text);
    // Keep SHA256SUMS consistent, as a forger would.
    const sums = join(reportDir, SUMS_FILE);
    const sha = createHash('sha256').update(text).digest('hex');
    await writeFile(sums, (await readFile(sums, 'utf8')).replace(/^[0-9a-f]{64} {2}receipts\.json$/m, `${sha}  receipts.json`));
  }
  const zero = '0'.repeat(64);

  it('a receipt naming /dev/zero or a FIFO is a "not a regular file" mismatch at once, never a hang', { timeout: 10_000 }, async () => {
    await writeReport({ rootDir: true });
    const fifo = join(reportDir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await rewriteReceipts((receipts) => {
      receipts.inputs.push({ kind: 'case', base: 'absolute', path: '/dev/zero', sha256: zero, bytes: 0 });
      receipts.outputs.push({ base: 'report', path: 'fifo', sha256: zero, bytes: 0 });
    });
    const result = await verifyReport(reportDir, { rootDir: root, allowDirs: ['/dev'] });
    expect(result.ok).toBe(false);
    expect(result.mismatches).toContainEqual({ path: '/dev/zero', expected: zero, actual: expect.stringMatching(/not a regular file \(it is a character device\)/) });
    expect(result.mismatches).toContainEqual({ path: 'fifo', expected: zero, actual: expect.stringMatching(/not a regular file \(it is a FIFO/) });
  });

  it('does not hash a file outside the report folder, --root and the allowed folders (e.g. /etc/hostname)', async () => {
    await writeReport({ rootDir: true });
    await rewriteReceipts((receipts) => {
      receipts.inputs.push({ kind: 'case', base: 'absolute', path: '/etc/hostname', sha256: zero, bytes: 0 });
      receipts.outputs.push({ base: 'report', path: '../../../../../../etc/hostname', sha256: 'f'.repeat(64), bytes: 0 });
    });
    const result = await verifyReport(reportDir, { rootDir: root });
    const outside = result.mismatches.filter((m) => m.path.endsWith('etc/hostname'));
    expect(outside).toHaveLength(2);
    for (const mismatch of outside) expect(mismatch.actual).toMatch(/^outside the folders verify may read .*; not hashed$/);
  });

  it('does not follow a link in the report folder to a file outside the allowed folders', async () => {
    await writeReport({ rootDir: true });
    await symlink('/etc/hostname', join(reportDir, 'link.txt'));
    await rewriteReceipts((receipts) => receipts.outputs.push({ base: 'report', path: 'link.txt', sha256: zero, bytes: 0 }));
    const result = await verifyReport(reportDir, { rootDir: root });
    expect(result.mismatches).toContainEqual({ path: 'link.txt', expected: zero, actual: expect.stringMatching(/^outside the folders/) });
  });

  it('fails naming a file in the report folder that no receipt lists', async () => {
    await writeReport({ rootDir: true });
    await writeFile(join(reportDir, 'sub', 'extra.html'), '<p>added later</p>');
    const result = await verifyReport(reportDir, { rootDir: root });
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual([{ path: 'sub/extra.html', expected: expect.stringMatching(/^absent/), actual: 'present, unlisted' }]);
  });

  it('refuses receipts that list no inputs', async () => {
    await writeReport({ rootDir: true });
    await rewriteReceipts((receipts) => void receipts.inputs.splice(0));
    const result = await verifyReport(reportDir, { rootDir: root });
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual([{ path: RECEIPTS_FILE, expected: expect.stringMatching(/^at least one input/), actual: 'no inputs listed' }]);
  });
});
