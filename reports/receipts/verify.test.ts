// verify's reading of SHA256SUMS and receipts.json, line by line and entry by entry, on report
// folders written by hand (receipts.test.ts covers the round trip with createReceipts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packagePath } from '../../runner/util/package-paths.js';
import { RECEIPTS_FILE, SUMS_FILE } from './receipts.js';
import { verifyReport } from './verify.js';

let root: string;
let reportDir: string;

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mem-verify-'));
  reportDir = join(root, 'report');
  await mkdir(reportDir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// The recorded root is not a folder verify may read by itself: the tests allow it (--allow).
/** A report folder with results.json, one input under root/, the given SHA256SUMS and receipts.json. */
async function writeFolder(options: { sums?: string; receipts?: unknown; receiptsText?: string }): Promise<void> {
  await writeFile(join(reportDir, 'results.json'), '{"ok":true}\n');
  await writeFile(join(root, 'case.json'), '{"id":"c"}\n');
  if (options.sums !== undefined) await writeFile(join(reportDir, SUMS_FILE), options.sums);
  const receipts = options.receiptsText ?? (options.receipts === undefined ? undefined : JSON.stringify(options.receipts));
  if (receipts !== undefined) await writeFile(join(reportDir, RECEIPTS_FILE), receipts);
}

const RESULTS = '{"ok":true}\n';
const CASE = '{"id":"c"}\n';
const input = { kind: 'case', base: 'root', path: 'case.json', sha256: sha(CASE) };
const output = { base: 'report', path: 'results.json', sha256: sha(RESULTS) };
const validReceipts = { root: '', inputs: [input], outputs: [output] };

describe('verify reads SHA256SUMS', () => {
  it('accepts upper-case digests and the binary-mode marker "*", as sha256sum writes them', async () => {
    await writeFolder({ receipts: { ...validReceipts, root } });
    await writeFile(join(reportDir, SUMS_FILE), `${sha(RESULTS).toUpperCase()} *results.json\n\n`);
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result).toEqual({ ok: true, checked: 2, mismatches: [] });
  });

  it('names a malformed line by its number and shows at most 80 characters of it', async () => {
    const bad = `not a digest ${'x'.repeat(100)}`;
    await writeFolder({ receipts: { ...validReceipts, root }, sums: `${sha(RESULTS)}  results.json\n${bad}\n` });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: `${SUMS_FILE}:2`, expected: 'a line "<sha256>  <path>"', actual: bad.slice(0, 80) }]);
    expect(result.ok).toBe(false);
  });
});

describe('verify reads receipts.json', () => {
  it('refuses text that is not JSON', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receiptsText: '{not json' });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toContainEqual({ path: RECEIPTS_FILE, expected: 'valid JSON', actual: 'unparseable' });
  });

  it.each([['null', null], ['a number', 5], ['an object without inputs', { outputs: [output] }], ['inputs that are not a list', { inputs: 'case.json' }]])(
    'refuses %s as receipts listing no inputs',
    async (_name, receipts) => {
      await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts });
      const result = await verifyReport(reportDir, { rootDir: root });
      expect(result.mismatches).toContainEqual({ path: RECEIPTS_FILE, expected: 'at least one input (case files, schemas, runner code)', actual: 'no inputs listed' });
      expect(result.ok).toBe(false);
    },
  );

  it('names an entry without a path or a sha256, and checks the others', async () => {
    const noSha = { kind: 'case', base: 'root', path: 'case.json', note: 'y'.repeat(100) };
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input, noSha, 'text'], outputs: [output] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([
      { path: RECEIPTS_FILE, expected: 'entries with path and sha256', actual: JSON.stringify(noSha).slice(0, 80) },
      { path: RECEIPTS_FILE, expected: 'entries with path and sha256', actual: '"text"' },
    ]);
    expect(result.checked).toBe(2);
  });

  it('resolves base "root" paths against the recorded root, and --root over it', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input], outputs: [output] } });
    expect(await verifyReport(reportDir, { allowDirs: [root] })).toEqual({ ok: true, checked: 2, mismatches: [] });
    // Another root holding a different case.json: --root wins over the recorded one.
    const other = join(root, 'other');
    await mkdir(other);
    await writeFile(join(other, 'case.json'), 'changed');
    const moved = await verifyReport(reportDir, { rootDir: other });
    expect(moved.mismatches).toEqual([{ path: 'case.json', expected: input.sha256, actual: sha('changed') }]);
  });

  it('resolves a base "root" path that is absolute as it is, and base "absolute" paths from nowhere else', async () => {
    const absoluteCase = { kind: 'case', base: 'root', path: join(root, 'case.json'), sha256: input.sha256.toUpperCase() };
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root: join(root, 'nowhere'), inputs: [absoluteCase], outputs: [output] } });
    expect(await verifyReport(reportDir, { allowDirs: [root] })).toEqual({ ok: true, checked: 2, mismatches: [] });
  });

  it('resolves base "report" paths in the report folder, whatever the current folder', async () => {
    await writeFolder({ sums: '', receipts: { root, inputs: [input], outputs: [{ ...output, base: 'report' }] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result).toEqual({ ok: true, checked: 2, mismatches: [] });
  });
});

describe('verify compares', () => {
  it('counts each distinct (file, claimed digest) pair once, and reports each wrong claim', async () => {
    const wrong = { ...output, sha256: '0'.repeat(64) };
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input, input], outputs: [output, wrong] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.checked).toBe(3);
    expect(result.mismatches).toEqual([{ path: 'results.json', expected: '0'.repeat(64), actual: sha(RESULTS) }]);
  });

  it('reports a symlink loop without following it', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input], outputs: [output, { base: 'report', path: 'loop', sha256: '0'.repeat(64) }] } });
    await symlink('loop', join(reportDir, 'loop'));
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: 'loop', expected: '0'.repeat(64), actual: 'a symlink loop; not hashed' }]);
  });

  it('reports a path through a file (ENOTDIR) as missing', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input], outputs: [output, { base: 'report', path: 'results.json/x', sha256: '0'.repeat(64) }] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: 'results.json/x', expected: '0'.repeat(64), actual: 'missing' }]);
  });

  it('a receipts file that is a folder is a mismatch naming the problem, not "missing"', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n` });
    await mkdir(join(reportDir, RECEIPTS_FILE));
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    const receipts = result.mismatches.find((m) => m.path === RECEIPTS_FILE);
    expect(receipts).toMatchObject({ expected: 'present', actual: expect.stringMatching(/not a regular file/) });
  });
});

describe('verify lists the report folder', () => {
  it('names unlisted files at any depth, and lets this tool\'s own dot-files and the receipts pass', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input], outputs: [output] } });
    await mkdir(join(reportDir, 'a', 'b'), { recursive: true });
    await writeFile(join(reportDir, 'a', 'b', 'deep.txt'), 'x');
    await writeFile(join(reportDir, '.mcp-error-matrix-report'), 'marker');
    await writeFile(join(reportDir, '.other'), 'x');
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches.map((m) => [m.path, m.actual]).sort()).toEqual([
      ['.other', 'present, unlisted'],
      ['a/b/deep.txt', 'present, unlisted'],
    ]);
    expect(result.mismatches[0]!.expected).toBe(`absent (listed in neither ${RECEIPTS_FILE} nor ${SUMS_FILE})`);
  });
});

describe('verify at its edges', () => {
  it('refuses a SHA256SUMS line with anything before the digest', async () => {
    await writeFolder({ receipts: { root, inputs: [input], outputs: [output] }, sums: `x${sha(RESULTS)}  results.json\n` });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: `${SUMS_FILE}:1`, expected: 'a line "<sha256>  <path>"', actual: `x${sha(RESULTS)}  results.json` }]);
  });

  it('refuses a SHA256SUMS line that does not end at the line end (a CRLF line)', async () => {
    await writeFolder({ receipts: { root, inputs: [input], outputs: [output] }, sums: `${sha(RESULTS)}  results.json\r\n` });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: `${SUMS_FILE}:1`, expected: 'a line "<sha256>  <path>"', actual: `${sha(RESULTS)}  results.json\r` }]);
  });

  it('without --root and a recorded root that is not text, base "root" paths resolve from the current folder', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root: 5, inputs: [{ ...input, path: 'no-such-file-here.json' }], outputs: [output] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: 'no-such-file-here.json', expected: input.sha256, actual: 'missing' }]);
  });

  it('resolves a relative base "absolute" path from the current folder, not from the root', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [{ ...input, base: 'absolute', path: 'case.json' }], outputs: [output] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: 'case.json', expected: input.sha256, actual: 'missing' }]);
  });

  it('names an entry without a path', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input, { kind: 'case', sha256: input.sha256 }], outputs: [output] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: RECEIPTS_FILE, expected: 'entries with path and sha256', actual: JSON.stringify({ kind: 'case', sha256: input.sha256 }).slice(0, 80) }]);
  });

  it('ignores an allowed folder that does not exist, and still reads from the others', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input], outputs: [output] } });
    const result = await verifyReport(reportDir, { allowDirs: [join(root, 'no-such-folder'), root] });
    expect(result).toEqual({ ok: true, checked: 2, mismatches: [] });
  });

  it('a receipt naming an allowed folder itself is read (and refused as not a regular file), not called outside', async () => {
    await writeFolder({ sums: `${sha(RESULTS)}  results.json\n`, receipts: { root, inputs: [input], outputs: [output, { base: 'absolute', path: root, sha256: '0'.repeat(64) }] } });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: root, expected: '0'.repeat(64), actual: expect.stringMatching(/not a regular file.*; not hashed$/) }]);
  });
});


// receipts@2 (issue 13 §4): inputs under named roots, located by --root NAME=DIR, the tool's own
// package root, the recorded location, or a fallback; an input whose root is not found is not checked.
describe('verify locates named roots', () => {
  const inCases = { kind: 'case', base: 'cases', path: 'case.json', sha256: sha(CASE) };
  const receipts2 = (roots: unknown, inputs: unknown[]) => ({ format: 'mcp-error-matrix/receipts@2', roots, inputs, outputs: [output] });
  const sums = `${sha(RESULTS)}  results.json\n`;

  it('resolves "package" against this tool\'s package root by default', async () => {
    const packageJson = { kind: 'runner', base: 'package', path: 'package.json', sha256: sha(readFileSync(packagePath('package.json'), 'utf8')) };
    await writeFolder({ sums, receipts: receipts2({ package: { what: 'the package' } }, [packageJson]) });
    expect(await verifyReport(reportDir)).toEqual({ ok: true, checked: 2, mismatches: [] });
  });

  it('uses the recorded location when it exists here, and --root NAME=DIR over it', async () => {
    await writeFolder({ sums, receipts: receipts2({ cases: { what: 'the cases', at: root } }, [inCases]) });
    expect(await verifyReport(reportDir, { allowDirs: [root] })).toEqual({ ok: true, checked: 2, mismatches: [] });
    const other = join(root, 'other');
    await mkdir(other);
    await writeFile(join(other, 'case.json'), 'changed');
    expect((await verifyReport(reportDir, { roots: { cases: other } })).mismatches).toEqual([{ path: 'cases:case.json', expected: sha(CASE), actual: sha('changed') }]);
  });

  it('names each input whose root is not here as not checked, and is not ok', async () => {
    const gone = join(root, 'gone');
    await writeFolder({ sums, receipts: receipts2({ cases: { what: 'the cases', at: gone } }, [inCases, { ...inCases, base: 'nameless' }]) });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result).toEqual({
      ok: false,
      checked: 1,
      mismatches: [],
      notChecked: [
        { path: 'cases:case.json', root: 'cases', reason: `root "cases" (the cases) is not at ${gone} on this machine; pass --root cases=DIR` },
        { path: 'nameless:case.json', root: 'nameless', reason: 'root "nameless" has no recorded location; pass --root nameless=DIR' },
      ],
    });
  });

  it('falls back to a default location (the verifier\'s own schemas) only when the recorded one is absent', async () => {
    await writeFolder({ sums, receipts: receipts2({ schemas: { what: 'schemas', at: join(root, 'gone') } }, [{ ...inCases, base: 'schemas' }]) });
    expect(await verifyReport(reportDir, { fallbackRoots: { schemas: [join(root, 'absent'), root] }, allowDirs: [root] })).toEqual({ ok: true, checked: 2, mismatches: [] });
  });

  it('takes root names from the receipts as data: "constructor" or "__proto__" is a root not found, not an object property', async () => {
    await writeFolder({ sums, receipts: receipts2({}, [{ ...inCases, base: 'constructor' }, { ...inCases, base: '__proto__' }]) });
    const result = await verifyReport(reportDir, { roots: {}, fallbackRoots: {}, allowDirs: [root] });
    expect(result.notChecked?.map((item) => item.path)).toEqual(['constructor:case.json', '__proto__:case.json']);
    expect(result.ok).toBe(false);
  });

  it('a recorded location grants no permission to read: outside the allowed folders the input is not checked (never hashed), with the --root hint', async () => {
    await writeFolder({ sums, receipts: receipts2({ cases: { what: 'the cases', at: root } }, [inCases]) });
    const result = await verifyReport(reportDir);
    expect(result).toEqual({
      ok: false,
      checked: 2,
      mismatches: [],
      notChecked: [{ path: 'cases:case.json', root: 'cases', reason: `root "cases" is at ${root}, outside the folders verify may read; pass --root cases=DIR (or --allow DIR) to check it` }],
    });
  });
});
