// The receipts' rules one at a time, on small folders: where a path is anchored, which names
// SHA256SUMS can carry, which digests are trusted as given, and the bounded hashing pool.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HASHED_FILE_MAX_BYTES } from '../../runner/io/input-caps.js';
import { createReceipts, hashFile, mapWithLimit, RECEIPTS_FILE, relativeInside, SIGNATURE_FILE, SYNC_HASH_MAX_BYTES } from './receipts.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const namesIn = (sums: string): string[] => sums.trimEnd().split('\n').map((line) => line.slice(66));

let root: string;
let outDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mem-receipt-rules-'));
  outDir = join(root, 'out');
  await mkdir(outDir);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('relativeInside: a path strictly inside the folder, as a / path', () => {
  it.each<[string, string, string | undefined]>([
    ['/r/out', '/r/out/a.txt', 'a.txt'],
    ['/r/out', '/r/out/sub/a.txt', 'sub/a.txt'],
    ['/r/out', '/r/out', undefined],
    ['/r/out', '/r/a.txt', undefined],
    ['/r/out', '/r/out2/a.txt', undefined],
    ['/r/out', '/elsewhere/a.txt', undefined],
  ])('%s holding %s → %s', (dir, path, expected) => {
    expect(relativeInside(dir, path)).toBe(expected);
  });
});

describe('createReceipts', () => {
  it('lists in SHA256SUMS only names sha256sum -c reads verbatim (no newline, CR or backslash); receipts.json keeps them all', async () => {
    const names = ['plain.txt', 'new\nline.txt', 'carriage\rreturn.txt', 'back\\slash.txt'];
    for (const name of names) await writeFile(join(outDir, name), name);
    const { receipts, sha256sums } = await createReceipts({ inputs: [], outputs: names, outDir });
    expect(receipts.outputs.map((file) => file.path)).toEqual(names);
    expect(namesIn(sha256sums)).toEqual(['plain.txt', RECEIPTS_FILE]);
  });

  it('trusts the digests of outputs hashed while written, and reads the others from disk', async () => {
    await writeFile(join(outDir, 'known.txt'), 'on disk');
    await writeFile(join(outDir, 'read.txt'), 'read me');
    const known = { sha256: 'a'.repeat(64), bytes: 3 };
    const { receipts, sha256sums } = await createReceipts({ inputs: [], outputs: ['known.txt', 'read.txt'], outputDigests: new Map([['known.txt', known]]), outDir });
    expect(receipts.outputs).toEqual([
      { path: 'known.txt', base: 'report', ...known },
      { path: 'read.txt', base: 'report', sha256: sha256('read me'), bytes: 7 },
    ]);
    expect(sha256sums).toContain(`${'a'.repeat(64)}  known.txt\n`);
  });

  it('records a label only when one is given, and a root only when an input is anchored there', async () => {
    await writeFile(join(root, 'case.json'), '{}');
    await writeFile(join(outDir, 'baseline.yaml'), 'x');
    const inputs = [
      { kind: 'case', path: join(root, 'case.json'), label: 'the case' },
      { kind: 'baseline', path: join(outDir, 'baseline.yaml') },
    ];
    const roots = { package: { dir: root, what: 'the package', recordLocation: false } };
    const anchored = await createReceipts({ inputs, outputs: [], outDir, roots });
    expect(anchored.receipts.roots).toEqual({ package: { what: 'the package' } });
    expect(anchored.receipts.inputs).toEqual([
      { kind: 'case', label: 'the case', path: 'case.json', base: 'package', sha256: sha256('{}'), bytes: 2 },
      { kind: 'baseline', path: 'baseline.yaml', base: 'report', sha256: sha256('x'), bytes: 1 },
    ]);
    expect('label' in anchored.receipts.inputs[1]!).toBe(false);
    // An input inside the report folder is listed in SHA256SUMS too.
    expect(namesIn(anchored.sha256sums)).toEqual(['baseline.yaml', RECEIPTS_FILE]);

    const unanchored = await createReceipts({ inputs: inputs.slice(1), outputs: [], outDir, roots });
    expect(unanchored.receipts.roots).toEqual({});
    const absolute = await createReceipts({ inputs: inputs.slice(0, 1), outputs: [], outDir });
    expect(absolute.receipts.inputs[0]).toMatchObject({ path: join(root, 'case.json'), base: 'absolute' });
    expect(absolute.receipts.roots ?? {}).toEqual({});
  });

  it('refuses to hash what is not a regular file, naming it a file', async () => {
    await expect(hashFile(outDir)).rejects.toThrow(/out: the file is not a regular file \(it is a folder\)/);
  });

  it.each([
    ['empty', 0],
    ['small, read at once', 1000],
    ['at the synchronous bound', SYNC_HASH_MAX_BYTES],
    ['over it, streamed in chunks', SYNC_HASH_MAX_BYTES + 70_000],
  ])('hashes a file %s: the digest and size of exactly its bytes', async (_label, size) => {
    // The letters cycle every 26 bytes: one cycle repeated, not a string per byte (0.3 s a file at the bound).
    const cycle = Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join('');
    const text = cycle.repeat(Math.ceil(size / 26)).slice(0, size);
    await writeFile(join(root, 'f.txt'), text);
    expect(await hashFile(join(root, 'f.txt'))).toEqual({ sha256: sha256(text), bytes: size });
  });

  it('refuses a file over the hashing cap unread, naming it a file and the cap', async () => {
    // Sparse: the size is set, no byte is written, and none is read (the cap is checked at open).
    const huge = join(root, 'huge.bin');
    await writeFile(huge, '');
    await truncate(huge, HASHED_FILE_MAX_BYTES + 1);
    await expect(hashFile(huge)).rejects.toThrow(/huge\.bin: the file is larger than the 2048 MiB cap \(2147483649 bytes\)/);
  });

  it('ends receipts.json with a newline, and SHA256SUMS holds the digest of exactly those bytes', async () => {
    const result = await createReceipts({ inputs: [], outputs: [], outDir });
    const { receipts, receiptsJson, sha256sums } = result;
    expect(receiptsJson).toBe(`${JSON.stringify(receipts, null, 2)}\n`);
    expect(sha256sums).toBe(`${sha256(receiptsJson)}  ${RECEIPTS_FILE}\n`);
    expect('signature' in receipts).toBe(false);
    expect('signature' in result).toBe(false);
    expect('ran' in receipts).toBe(false);
  });

  it('records what ran as given', async () => {
    const ran = { tool: { name: 'mcp-error-matrix', version: '1.2.3', commit: 'abc' }, node: 'v22.0.0', platform: 'linux', targets: [{ name: 'reference', kind: 'classifier' }] };
    expect((await createReceipts({ inputs: [], outputs: [], outDir, ran })).receipts.ran).toEqual(ran);
  });

  it("anchors an input under its own root before the first root holding it, else under the first root that holds it, and records where each root was", async () => {
    const cases = join(root, 'cases');
    const other = await mkdtemp(join(tmpdir(), 'mem-receipt-other-'));
    await mkdir(cases);
    try {
      await writeFile(join(cases, 'x.json'), '{}');
      await writeFile(join(other, 'y.json'), '[]');
      const roots = { package: { dir: root, what: 'the package' }, cases: { dir: cases, what: '--cases' }, other: { dir: other, what: 'elsewhere' } };
      const inputs = [
        { kind: 'case', path: join(cases, 'x.json'), root: 'cases' },
        { kind: 'case', path: join(cases, 'x.json') },
        { kind: 'case', path: join(other, 'y.json') },
      ];
      const { receipts } = await createReceipts({ inputs, outputs: [], outDir, roots });
      expect(receipts.inputs.map((input) => [input.base, input.path])).toEqual([
        ['cases', 'x.json'],
        ['package', 'cases/x.json'],
        ['other', 'y.json'],
      ]);
      expect(receipts.roots).toEqual({ package: { what: 'the package', at: root }, cases: { what: '--cases', at: cases }, other: { what: 'elsewhere', at: other } });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('with a signer: names the key and the signature file, signs the exact bytes of receipts.json, and lists the signature in SHA256SUMS', async () => {
    const signed: Buffer[] = [];
    const signer = { publicKeySha256: 'b'.repeat(64), sign: (data: Buffer) => (signed.push(data), 'c2lnbmF0dXJl') };
    const result = await createReceipts({ inputs: [], outputs: [], outDir, signer });
    expect(result.receipts.signature).toEqual({ algorithm: 'ed25519', file: SIGNATURE_FILE, publicKeySha256: 'b'.repeat(64) });
    expect(signed.map((data) => data.toString('utf8'))).toEqual([result.receiptsJson]);
    expect(result.signature).toBe('c2lnbmF0dXJl\n');
    expect(result.sha256sums).toBe(`${sha256(result.receiptsJson)}  ${RECEIPTS_FILE}\n${sha256('c2lnbmF0dXJl\n')}  ${SIGNATURE_FILE}\n`);
  });
});

describe('mapWithLimit: Promise.all with at most `limit` pending, order kept', () => {
  it.each([1, 2, 3, 10])('limit %i over five items', async (limit) => {
    let pending = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const work = async (item: number): Promise<number> => {
      pending++;
      most = Math.max(most, pending);
      await new Promise<void>((done) => release.push(done));
      pending--;
      return item * 10;
    };
    const all = mapWithLimit([5, 4, 3, 2, 1], limit, work);
    // Release the waiting items one at a time, latest first, until every item has run.
    for (let released = 0; released < 5; released++) {
      while (release.length === 0) await new Promise((tick) => setImmediate(tick));
      release.pop()!();
    }
    expect(await all).toEqual([50, 40, 30, 20, 10]);
    expect(most).toBe(Math.min(limit, 5));
  });

  it('gives an empty list for no items without calling the work', async () => {
    let called = false;
    expect(await mapWithLimit([], 8, async () => (called = true))).toEqual([]);
    expect(called).toBe(false);
  });
});
