// verify's rules at their edges, one at a time on report folders written by hand (the survivors of
// the verify.ts mutation run): entries that are not objects, entries without a base, a report
// folder that is not there, a path the system refuses to resolve, the legacy root, the listing's
// bound, and what the result says about a signature.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECEIPTS_FILE, SIGNATURE_FILE, SUMS_FILE } from './receipts.js';
import { listReportEntries, verifyReport } from './verify.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const RESULTS = '{"ok":true}\n';
const CASE = '{"id":"c"}\n';
const output = { base: 'report', path: 'results.json', sha256: sha(RESULTS) };

let root: string;
let reportDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mem-verify-rules-'));
  reportDir = join(root, 'report');
  await mkdir(reportDir);
  await writeFile(join(reportDir, 'results.json'), RESULTS);
  await writeFile(join(root, 'case.json'), CASE);
  await writeFile(join(reportDir, SUMS_FILE), `${sha(RESULTS)}  results.json\n`);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const writeReceipts = (receipts: unknown): Promise<void> => writeFile(join(reportDir, RECEIPTS_FILE), JSON.stringify(receipts));

describe('verify reads each receipt entry as untrusted data', () => {
  it('names an entry that is null, and checks the others', async () => {
    const input = { kind: 'case', base: 'absolute', path: join(root, 'case.json'), sha256: sha(CASE) };
    await writeReceipts({ inputs: [input, null], outputs: [output] });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: RECEIPTS_FILE, expected: 'entries with path and sha256', actual: 'null' }]);
    expect(result.checked).toBe(2);
  });

  it.each([['no base', {}], ['a base that is not text', { base: 7 }]])('an entry with %s names its file by its own path, as "absolute" does', async (_name, base) => {
    const input = { kind: 'case', path: join(root, 'case.json'), sha256: sha(CASE), ...base };
    await writeReceipts({ inputs: [input], outputs: [output] });
    expect(await verifyReport(reportDir, { allowDirs: [root] })).toEqual({ ok: true, checked: 2, mismatches: [] });
  });

  it('resolves receipts@1 base "root" paths against --root root=DIR before --root DIR and the recorded root', async () => {
    const named = join(root, 'named');
    await mkdir(named);
    await writeFile(join(named, 'case.json'), 'from the named root');
    await writeReceipts({ root, inputs: [{ kind: 'case', base: 'root', path: 'case.json', sha256: sha(CASE) }], outputs: [output] });
    const result = await verifyReport(reportDir, { roots: { root: named }, rootDir: root });
    expect(result.mismatches).toEqual([{ path: 'case.json', expected: sha(CASE), actual: sha('from the named root') }]);
  });
});

describe('verify names what it cannot look at', () => {
  it('a report folder that does not exist is two missing receipts files, not a crash', async () => {
    const result = await verifyReport(join(root, 'no-such-report'));
    expect(result).toEqual({
      ok: false,
      checked: 0,
      mismatches: [
        { path: SUMS_FILE, expected: 'present', actual: 'missing' },
        { path: RECEIPTS_FILE, expected: 'present', actual: 'missing' },
      ],
    });
  });

  it('a path the system will not resolve (a name over 255 bytes) is unreadable, with the reason', async () => {
    const long = { base: 'report', path: `${'n'.repeat(300)}.json`, sha256: '0'.repeat(64) };
    await writeReceipts({ inputs: [{ kind: 'case', base: 'absolute', path: join(root, 'case.json'), sha256: sha(CASE) }], outputs: [output, long] });
    const result = await verifyReport(reportDir, { allowDirs: [root] });
    expect(result.mismatches).toEqual([{ path: long.path, expected: long.sha256, actual: expect.stringMatching(/^unreadable \(ENAMETOOLONG: .+\)$/) }]);
  });
});

describe('verify lists the report folder within a bound', () => {
  it('opens no further folder once the bound is reached (files found so far are kept)', async () => {
    await mkdir(join(reportDir, 'sub'));
    await writeFile(join(reportDir, 'sub', 'deep.txt'), 'x');
    // The report folder holds results.json and SHA256SUMS beside sub/.
    expect((await listReportEntries(reportDir, 2)).sort()).toEqual([SUMS_FILE, 'results.json']);
    expect((await listReportEntries(reportDir, 3)).sort()).toEqual([SUMS_FILE, 'results.json', 'sub/deep.txt']);
  });
});

describe('verify says what it knows of a signature', () => {
  const input = (): unknown => ({ kind: 'case', base: 'absolute', path: join(root, 'case.json'), sha256: sha(CASE) });
  const ours = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  /** receipts.json claiming a signature, receipts.json.sig by `privateKey`, both listed in SHA256SUMS. */
  async function writeSigned(privateKey = ours.privateKey): Promise<void> {
    const text = JSON.stringify({ inputs: [input()], outputs: [output], signature: { algorithm: 'ed25519', file: SIGNATURE_FILE, publicKeySha256: 'f'.repeat(64) } });
    const signature = `${sign(null, Buffer.from(text), privateKey).toString('base64')}\n`;
    await writeFile(join(reportDir, RECEIPTS_FILE), text);
    await writeFile(join(reportDir, SIGNATURE_FILE), signature);
    await writeFile(join(reportDir, SUMS_FILE), `${sha(RESULTS)}  results.json\n${sha(text)}  ${RECEIPTS_FILE}\n${sha(signature)}  ${SIGNATURE_FILE}\n`);
  }

  it('a signature by the --key key is "valid"', async () => {
    await writeSigned();
    expect(await verifyReport(reportDir, { allowDirs: [root], publicKey: ours.publicKey })).toStrictEqual({ ok: true, checked: 4, mismatches: [], signature: 'valid' });
  });

  it('receipts that claim a signature, verified without a key, say it is "unchecked"', async () => {
    await writeSigned();
    expect(await verifyReport(reportDir, { allowDirs: [root] })).toStrictEqual({ ok: true, checked: 4, mismatches: [], signature: 'unchecked' });
  });

  it('a signature by another key is a mismatch, and the result claims nothing about it', async () => {
    await writeSigned(other.privateKey);
    const result = await verifyReport(reportDir, { allowDirs: [root], publicKey: ours.publicKey });
    expect(result.mismatches).toEqual([{ path: SIGNATURE_FILE, expected: expect.stringMatching(/^an Ed25519 signature/), actual: expect.stringMatching(/^a signature that does not match/) }]);
    expect(result).not.toHaveProperty('signature');
  });

  it('receipts that claim no signature, or are not JSON, claim nothing about one', async () => {
    await writeReceipts({ inputs: [input()], outputs: [output] });
    expect(await verifyReport(reportDir, { allowDirs: [root] })).toStrictEqual({ ok: true, checked: 2, mismatches: [] });
    await writeFile(join(reportDir, RECEIPTS_FILE), '{"signature": not json');
    expect(await verifyReport(reportDir, { allowDirs: [root] })).not.toHaveProperty('signature');
  });
});

describe('verify reads the receipts\' two lists', () => {
  it('receipts without an outputs list: the inputs are checked and nothing else is named', async () => {
    await writeReceipts({ inputs: [{ kind: 'case', base: 'absolute', path: join(root, 'case.json'), sha256: sha(CASE) }] });
    expect(await verifyReport(reportDir, { allowDirs: [root] })).toStrictEqual({ ok: true, checked: 2, mismatches: [] });
  });
});
