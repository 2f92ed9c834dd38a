// Issue 13 §4: optional Ed25519 signatures. `run --sign KEY` writes receipts.json.sig (listed in
// SHA256SUMS), `verify --key PUB` checks it. Without a key, rewritten receipts verify: by design.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import { RECEIPTS_FILE, SIGNATURE_FILE, SUMS_FILE } from './receipts.js';

let dir: string;
const pem = (type: 'ed25519' | 'rsa') => {
  const pair = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 1024 }) : generateKeyPairSync('ed25519');
  return { privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string };
};
const RUN = ['run', '--target', 'reference', '--case', 'malformed-json', '--version', '2025-11-25', '--mode', 'direct', '--no-schemas', '--no-baseline', '--quiet'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-sign-'));
  const ours = pem('ed25519');
  const other = pem('ed25519');
  const rsa = pem('rsa');
  await writeFile(join(dir, 'key.pem'), ours.privateKey);
  await writeFile(join(dir, 'key.pub'), ours.publicKey);
  await writeFile(join(dir, 'other.pub'), other.publicKey);
  await writeFile(join(dir, 'rsa.pem'), rsa.privateKey);
  await writeFile(join(dir, 'garbage.pem'), 'not a key\n');
  expect((await runCli([...RUN, '--out', 'signed', '--sign', 'key.pem'], { cwd: dir })).code).toBe(0);
  expect((await runCli([...RUN, '--out', 'unsigned'], { cwd: dir })).code).toBe(0);
  // Two in-process runs; the first also compiles the runner and report modules for vitest, which
  // alone took ~15 s on a loaded 2-core machine.
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Rewrites receipts.json and SHA256SUMS consistently, as anyone can without the key. */
async function forge(folder: string): Promise<void> {
  const path = join(dir, folder, RECEIPTS_FILE);
  const text = (await readFile(path, 'utf8')).replace('"algorithm": "sha256"', '"algorithm": "sha256", "note": "forged"');
  await writeFile(path, text);
  const sums = join(dir, folder, SUMS_FILE);
  const sha = createHash('sha256').update(text).digest('hex');
  await writeFile(sums, (await readFile(sums, 'utf8')).replace(/^[0-9a-f]{64} {2}receipts\.json$/m, `${sha}  receipts.json`));
}

describe('run --sign KEY and verify --key PUB', () => {
  it('writes a base64 Ed25519 signature listed in SHA256SUMS, and records the key fingerprint in the receipts', async () => {
    const signature = await readFile(join(dir, 'signed', SIGNATURE_FILE), 'utf8');
    expect(signature).toMatch(/^[A-Za-z0-9+/]{86}==\n$/);
    expect(await readFile(join(dir, 'signed', SUMS_FILE), 'utf8')).toMatch(/^[0-9a-f]{64} {2}receipts\.json\.sig$/m);
    const receipts = JSON.parse(await readFile(join(dir, 'signed', RECEIPTS_FILE), 'utf8'));
    expect(receipts.signature).toEqual({ algorithm: 'ed25519', file: SIGNATURE_FILE, publicKeySha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('verifies with the matching public key (or the private key file), and notes an unchecked signature without one', async () => {
    expect(await runCli(['verify', 'signed', '--key', 'key.pub'], { cwd: dir })).toMatchObject({ code: 0, stdout: expect.stringContaining('SIGNED: receipts.json is signed by the --key key') });
    expect(await runCli(['verify', 'signed', '--key', 'key.pem'], { cwd: dir })).toMatchObject({ code: 0 });
    expect(await runCli(['verify', 'signed'], { cwd: dir })).toMatchObject({ code: 0, stdout: expect.stringContaining('no --key was given: the signature is not checked') });
  });

  it('fails with another key, and on an unsigned report when --key is given', async () => {
    const other = await runCli(['verify', 'signed', '--key', 'other.pub'], { cwd: dir });
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/^MISMATCH receipts\.json\.sig: expected an Ed25519 signature of receipts\.json by the --key key .*, found a signature that does not match/m);
    const unsigned = await runCli(['verify', 'unsigned', '--key', 'key.pub'], { cwd: dir });
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('found missing (the report is not signed)');
  });

  it('catches rewritten receipts with --key; without a key (or unsigned) the forgery passes, by design', async () => {
    // Copies of the two reports beforeAll made (a report folder verifies wherever it is: test/receipts-travel.test.ts).
    await cp(join(dir, 'signed'), join(dir, 'forged-signed'), { recursive: true });
    expect(await runCli(['verify', 'forged-signed', '--key', 'key.pub'], { cwd: dir })).toMatchObject({ code: 0 });
    await forge('forged-signed');
    expect((await runCli(['verify', 'forged-signed', '--key', 'key.pub'], { cwd: dir })).stdout).toMatch(/^MISMATCH receipts\.json\.sig: .*does not match/m);
    await cp(join(dir, 'unsigned'), join(dir, 'forged'), { recursive: true });
    await forge('forged');
    expect(await runCli(['verify', 'forged'], { cwd: dir })).toMatchObject({ code: 0 });
  });

  it('signs a merged report with merge --sign, and the merged report verifies with --key', async () => {
    for (const shard of ['1/2', '2/2']) expect((await runCli(['run', '--target', 'reference', '--case', 'malformed-json', '--case', 'error-with-data', '--mode', 'direct', '--no-schemas', '--no-baseline', '--quiet', '--shard', shard, '--out', `shard-${shard[0]}`], { cwd: dir })).code).toBe(0);
    expect((await runCli(['merge', 'shard-1', 'shard-2', '--out', 'merged', '--sign', 'key.pem', '--quiet'], { cwd: dir })).code).toBe(0);
    expect(await runCli(['verify', 'merged', '--key', 'key.pub'], { cwd: dir })).toMatchObject({ code: 0, stdout: expect.stringContaining('SIGNED') });
    expect(await runCli(['merge', 'shard-1', 'shard-2', '--out', 'merged-2', '--sign', 'rsa.pem'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining('--sign rsa.pem: an rsa key') });
  });

  it.each([
    ['--sign', 'missing.pem', /--sign missing\.pem: .*missing|no such/i],
    ['--sign', 'garbage.pem', /--sign garbage\.pem: not a readable private key in PEM form/],
    ['--sign', 'rsa.pem', /--sign rsa\.pem: an rsa key; receipts are signed with Ed25519 only/],
    ['--sign', 'key.pub', /--sign key\.pub: not a readable private key/],
    ['--sign', '/dev/zero', /--sign \/dev\/zero: .*not a regular file/],
  ])('refuses %s %s before running (exit 2, naming the flag and file)', async (flag, file, message) => {
    const run = await runCli([...RUN, '--out', 'never', flag, file], { cwd: dir });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(message);
  });

  it('refuses a bad --key file (exit 2) and --sign without --out', async () => {
    expect(await runCli(['verify', 'signed', '--key', 'garbage.pem'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringMatching(/--key garbage\.pem: not a readable public key/) });
    expect(await runCli(['verify', 'signed', '--key', 'rsa.pem'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringMatching(/--key rsa\.pem: an rsa key/) });
    expect(await runCli([...RUN, '--sign', 'key.pem'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining('--sign KEY signs the receipts of a report folder; add --out DIR') });
  });
});
