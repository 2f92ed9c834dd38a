// The rules of receipt signing and of its verification, in process (sign-receipts.test.ts runs them
// through the CLI): what a key file must be, what a signature must be, and what verify lists.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../runner/util/errors.js';
import { RECEIPTS_FILE, SIGNATURE_FILE } from './receipts.js';
import { checkSignature, fingerprintPublicKey, KEY_FILE_MAX_BYTES, loadSigningKey, loadVerifyKey, SIGNATURE_FILE_MAX_BYTES } from './sign-receipts.js';
import { checkReceiptsSignature } from './verify-signature.js';

const ours = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
const pkcs8 = (key: typeof ours.privateKey) => key.export({ type: 'pkcs8', format: 'pem' }) as string;
const spki = (key: typeof ours.publicKey) => key.export({ type: 'spki', format: 'pem' }) as string;
const DATA = Buffer.from('{"receipts": 2}\n');
const signatureOf = (data: Buffer, key = ours.privateKey) => sign(null, data, key).toString('base64');

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-sign-rules-'));
  await writeFile(at('key.pem'), pkcs8(ours.privateKey));
  await writeFile(at('key.pub'), spki(ours.publicKey));
  await writeFile(at('rsa.pem'), pkcs8(rsa.privateKey));
  await writeFile(at('rsa.pub'), spki(rsa.publicKey));
  await writeFile(at('garbage.pem'), 'not a key\n');
  await writeFile(at('huge.pem'), 'x'.repeat(KEY_FILE_MAX_BYTES + 1));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The message of the UsageError `promise` rejects with. */
async function usageMessage(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('signing keys', () => {
  it('fingerprints a public key as the SHA-256 of its SPKI DER bytes, in hex', () => {
    const der = ours.publicKey.export({ type: 'spki', format: 'der' });
    expect(fingerprintPublicKey(ours.publicKey)).toBe(createHash('sha256').update(der).digest('hex'));
    expect(fingerprintPublicKey(other.publicKey)).not.toBe(fingerprintPublicKey(ours.publicKey));
  });

  it('signs with the private key and records the fingerprint of its public half', async () => {
    const signer = await loadSigningKey(at('key.pem'), '--sign');
    expect(signer.publicKeySha256).toBe(fingerprintPublicKey(ours.publicKey));
    const signature = signer.sign(DATA);
    expect(signature).toBe(signatureOf(DATA));
    expect(checkSignature(DATA, signature, ours.publicKey)).toBe(true);
  });

  it('verifies with a public key file, or with the public half of a private key file', async () => {
    expect(fingerprintPublicKey(await loadVerifyKey(at('key.pub'), '--key'))).toBe(fingerprintPublicKey(ours.publicKey));
    const fromPrivate = await loadVerifyKey(at('key.pem'), '--key');
    expect(fromPrivate.type).toBe('public');
    expect(fingerprintPublicKey(fromPrivate)).toBe(fingerprintPublicKey(ours.publicKey));
  });

  it('refuses a missing or oversized key file, naming the flag, the file as shown and the key expected', async () => {
    expect(await usageMessage(loadSigningKey(at('absent.pem'), '--sign', 'absent.pem'))).toBe('--sign absent.pem: cannot read the key file: no such file; expected an Ed25519 key in PEM form');
    const huge = await usageMessage(loadVerifyKey(at('huge.pem'), '--key', 'huge.pem'));
    expect(huge).toMatch(/^--key huge\.pem: the key file is larger than the 64 KiB cap .*; expected an Ed25519 key in PEM form$/);
  });

  it('names the file by its path when no other name is given', async () => {
    expect(await usageMessage(loadSigningKey(at('garbage.pem'), '--sign'))).toContain(`--sign ${at('garbage.pem')}: not a readable private key`);
    expect(await usageMessage(loadVerifyKey(at('garbage.pem'), '--key'))).toContain(`--key ${at('garbage.pem')}: not a readable public key`);
  });

  it('refuses text that is no key, saying how to create one (and its public half, for --key)', async () => {
    const sign = await usageMessage(loadSigningKey(at('garbage.pem'), '--sign', 'g.pem'));
    expect(sign).toMatch(/^--sign g\.pem: not a readable private key in PEM form \(.+\); create one with `openssl genpkey -algorithm ed25519 -out key\.pem`$/);
    const verify = await usageMessage(loadVerifyKey(at('garbage.pem'), '--key', 'g.pem'));
    expect(verify).toMatch(/^--key g\.pem: not a readable public key in PEM form \(.+\); create one with `openssl genpkey -algorithm ed25519 -out key\.pem` and `openssl pkey -in key\.pem -pubout -out key\.pub`$/);
  });

  it('refuses a key of another algorithm, private or public, naming it', async () => {
    const expected = 'an rsa key; receipts are signed with Ed25519 only (`openssl genpkey -algorithm ed25519`)';
    expect(await usageMessage(loadSigningKey(at('rsa.pem'), '--sign', 'rsa.pem'))).toBe(`--sign rsa.pem: ${expected}`);
    expect(await usageMessage(loadVerifyKey(at('rsa.pem'), '--key', 'rsa.pem'))).toBe(`--key rsa.pem: ${expected}`);
    expect(await usageMessage(loadVerifyKey(at('rsa.pub'), '--key', 'rsa.pub'))).toBe(`--key rsa.pub: ${expected}`);
  });
});

describe('checkSignature', () => {
  it('accepts the signature of these bytes by this key, with white space around it', () => {
    expect(checkSignature(DATA, signatureOf(DATA), ours.publicKey)).toBe(true);
    expect(checkSignature(DATA, ` ${signatureOf(DATA)}\n`, ours.publicKey)).toBe(true);
  });

  it('refuses another key, changed bytes, and anything that is not 64 bytes', () => {
    expect(checkSignature(DATA, signatureOf(DATA, other.privateKey), ours.publicKey)).toBe(false);
    expect(checkSignature(Buffer.from('{"receipts": 3}\n'), signatureOf(DATA), ours.publicKey)).toBe(false);
    const bytes = Buffer.from(signatureOf(DATA), 'base64');
    expect(checkSignature(DATA, Buffer.concat([bytes, Buffer.from([0])]).toString('base64'), ours.publicKey)).toBe(false);
    expect(checkSignature(DATA, bytes.subarray(0, 63).toString('base64'), ours.publicKey)).toBe(false);
    expect(checkSignature(DATA, '', ours.publicKey)).toBe(false);
  });
});

describe('checkReceiptsSignature (verify --key)', () => {
  const expected = `an Ed25519 signature of ${RECEIPTS_FILE} by the --key key (SHA-256 ${fingerprintPublicKey(ours.publicKey).slice(0, 16)}…)`;

  async function folder(name: string, files: Record<string, string | Buffer>): Promise<string> {
    const path = at(name);
    await rm(path, { recursive: true, force: true });
    await mkdir(path);
    for (const [file, content] of Object.entries(files)) await writeFile(join(path, file), content);
    return path;
  }

  async function check(reportDir: string) {
    const mismatches: { path: string; expected: string; actual: string }[] = [];
    const result = await checkReceiptsSignature(reportDir, ours.publicKey, mismatches);
    return { result, mismatches };
  }

  it('is valid when the signature file signs receipts.json exactly, and lists nothing', async () => {
    expect(await check(await folder('valid', { [RECEIPTS_FILE]: DATA, [SIGNATURE_FILE]: `${signatureOf(DATA)}\n` }))).toEqual({ result: 'valid', mismatches: [] });
  });

  it('lists a missing signature as an unsigned report', async () => {
    expect(await check(await folder('unsigned', { [RECEIPTS_FILE]: DATA }))).toEqual({
      result: undefined,
      mismatches: [{ path: SIGNATURE_FILE, expected, actual: 'missing (the report is not signed)' }],
    });
  });

  it('lists a signature file over its cap with the reason it was refused', async () => {
    const { result, mismatches } = await check(await folder('huge-sig', { [RECEIPTS_FILE]: DATA, [SIGNATURE_FILE]: 'A'.repeat(SIGNATURE_FILE_MAX_BYTES + 1) }));
    expect(result).toBeUndefined();
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]).toMatchObject({ path: SIGNATURE_FILE, expected });
    expect(mismatches[0]!.actual).toMatch(/4 KiB/);
  });

  it('does not check a signature when receipts.json cannot be read', async () => {
    expect(await check(await folder('no-receipts', { [SIGNATURE_FILE]: signatureOf(DATA) }))).toEqual({
      result: undefined,
      mismatches: [{ path: SIGNATURE_FILE, expected, actual: `not checked: ${RECEIPTS_FILE} cannot be read` }],
    });
  });

  it('lists a signature of other bytes, or by another key, as not matching', async () => {
    const actual = 'a signature that does not match receipts.json with this key (another key, or the file was changed)';
    const changed = await check(await folder('changed', { [RECEIPTS_FILE]: Buffer.concat([DATA, Buffer.from(' ')]), [SIGNATURE_FILE]: signatureOf(DATA) }));
    expect(changed).toEqual({ result: undefined, mismatches: [{ path: SIGNATURE_FILE, expected, actual }] });
    const otherKey = await check(await folder('other-key', { [RECEIPTS_FILE]: DATA, [SIGNATURE_FILE]: signatureOf(DATA, other.privateKey) }));
    expect(otherKey).toEqual({ result: undefined, mismatches: [{ path: SIGNATURE_FILE, expected, actual }] });
  });
});
